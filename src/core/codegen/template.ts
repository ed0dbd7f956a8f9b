// The lab's template step for native WGSL: one source gives its in-place and workgroup-size
// variants. Two constructs, both checked:
//   #if NAME / #if !NAME … [#else …] #endif   (lines; nestable; NAME must be defined, as a boolean)
//   {{NAME}}                                  (replaced by a defined string or number: a struct, 256)
// Anything undefined is an error naming it, so a typo never silently drops a branch.

export type TemplateDefines = Readonly<Record<string, string | number | boolean>>;

export class TemplateError extends Error {
  override name = 'TemplateError';
}

export function renderTemplate(source: string, defines: TemplateDefines, file = 'template'): string {
  const out: string[] = [];
  // One frame per open #if: whether its current branch is emitted, and whether #else was seen.
  const stack: { active: boolean; parentActive: boolean; cond: boolean; sawElse: boolean; line: number }[] = [];
  const active = () => stack.every((f) => f.active);
  source.split('\n').forEach((line, i) => {
    const at = `${file}:${i + 1}`;
    const d = /^\s*#(if|else|endif)\b\s*(.*)$/.exec(line);
    if (d) {
      const [, kw, rest] = d;
      if (kw === 'if') {
        const m = /^(!?)([A-Za-z_]\w*)\s*$/.exec(rest);
        if (!m) throw new TemplateError(`${at}: '#if ${rest}' is not #if NAME or #if !NAME`);
        const v = defines[m[2]];
        if (typeof v !== 'boolean') throw new TemplateError(`${at}: #if ${m[2]} needs a boolean define, got ${v === undefined ? 'none' : JSON.stringify(v)}`);
        const cond = m[1] ? !v : v;
        stack.push({ active: cond, parentActive: active(), cond, sawElse: false, line: i + 1 });
      } else if (kw === 'else') {
        const top = stack[stack.length - 1];
        if (!top || top.sawElse) throw new TemplateError(`${at}: #else without an open #if`);
        top.sawElse = true;
        top.active = !top.cond;
      } else {
        if (!stack.pop()) throw new TemplateError(`${at}: #endif without an open #if`);
      }
      return;
    }
    if (!active()) return;
    out.push(
      line.replace(/\{\{\s*([A-Za-z_]\w*)\s*\}\}/g, (_, name: string) => {
        const v = defines[name];
        if (v === undefined || typeof v === 'boolean') throw new TemplateError(`${at}: {{${name}}} has no string or number define`);
        return String(v);
      }),
    );
  });
  if (stack.length) throw new TemplateError(`${file}:${stack[stack.length - 1].line}: #if is never closed`);
  return out.join('\n');
}
