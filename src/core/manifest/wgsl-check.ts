// What a manifest can check in its WGSL without a GPU: the resource declarations against the
// bindings by role, the entry point, its literal @workgroup_size, overrides and `enable`s. A
// mismatch is a ManifestError naming the WGSL line, found before any device sees the source.
import { ManifestError } from './errors';
import { evaluate, parseExpr } from './expr';
import type { ManifestKernel } from './format';

export interface WgslBindingDecl {
  readonly group: number;
  readonly binding: number;
  readonly name: string;
  /** 'storage', 'uniform' (or whatever the source says, for the message). */
  readonly space: string;
  /** 'read', 'read_write' (storage), '' otherwise. */
  readonly access: string;
  readonly line: number;
}

export interface WgslEntryPoint {
  readonly name: string;
  /** Sizes of @workgroup_size (literals and module consts evaluated), padded with 1; null where one is an override. */
  readonly workgroupSize: readonly (number | null)[] | null;
  readonly line: number;
  /** Whether the function reads a y or z component of its workgroup_id / num_workgroups builtins (a 2-D dispatch means something to it). */
  readonly readsWorkgroupYZ: boolean;
}

export interface WgslInfo {
  readonly bindings: readonly WgslBindingDecl[];
  readonly entryPoints: readonly WgslEntryPoint[];
  readonly overrides: ReadonlySet<string>;
  /** Features the `enable` directives need, by WebGPU name ('shader-f16', 'subgroups'). */
  readonly enables: readonly string[];
  /** Bytes of each var<uniform>'s type under WGSL's uniform layout rules, by binding; absent where the lab cannot size it. */
  readonly uniformSizes: ReadonlyMap<number, number>;
}

/** Comments blanked (newlines kept, so positions still give line numbers). */
export function stripComments(src: string): string {
  let out = '';
  let depth = 0;
  for (let i = 0; i < src.length; i++) {
    const two = src.slice(i, i + 2);
    if (depth === 0 && two === '//') {
      while (i < src.length && src[i] !== '\n') {
        out += ' ';
        i++;
      }
      out += i < src.length ? '\n' : '';
    } else if (two === '/*') {
      depth++;
      out += '  ';
      i++;
    } else if (depth > 0 && two === '*/') {
      depth--;
      out += '  ';
      i++;
    } else {
      out += depth > 0 && src[i] !== '\n' ? ' ' : src[i];
    }
  }
  return out;
}

/** Line numbers by binary search over the line starts (a 1 MiB file of declarations stays linear). */
function lineFinder(src: string): (index: number) => number {
  const starts = [0];
  for (let i = src.indexOf('\n'); i >= 0; i = src.indexOf('\n', i + 1)) starts.push(i + 1);
  return (index) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

/**
 * The attributes written right before `index` (`@group(0) @binding(2 + 1)`), scanned backwards
 * by hand: a regex over "attributes then var" backtracks quadratically on a file of many '@'.
 * At most 16 attributes and 1024 characters are looked at.
 */
function attrsBefore(src: string, index: number): { text: string; start: number } {
  let i = index;
  let start = index;
  for (let n = 0; n < 16 && index - i < 1024; n++) {
    let j = i;
    while (j > 0 && /\s/.test(src[j - 1])) j--;
    if (src[j - 1] === ')') {
      let depth = 0;
      let k = j - 1;
      for (; k >= 0 && j - k < 256; k--) {
        if (src[k] === ')') depth++;
        else if (src[k] === '(' && --depth === 0) break;
      }
      if (k < 0 || depth !== 0) break;
      j = k;
      while (j > 0 && /\s/.test(src[j - 1])) j--;
    }
    let k = j;
    while (k > 0 && /\w/.test(src[k - 1])) k--;
    if (k === j || src[k - 1] !== '@') break;
    i = k - 1;
    start = i;
  }
  return { text: src.slice(start, index), start };
}

function attr(attrs: string, name: string): string | null {
  const m = new RegExp(String.raw`@${name}\s*\(([^)]{0,512})\)`).exec(attrs);
  return m ? m[1].trim() : null;
}

/**
 * A WGSL const-expression of integers (`2 + 1`, `WG_SIZE * 2`, `0x10u`) in the manifest's own
 * expression language, module-scope consts as its names; null when it is more than that. Integer
 * division truncates in WGSL: a quotient that is not whole is refused here rather than guessed.
 */
function constInt(text: string, consts: ReadonlyMap<string, number>): number | null {
  const plain = text.trim().replace(/\b(0[xX][0-9a-fA-F]+|\d+)[ui]\b/g, '$1');
  if (!plain) return null;
  try {
    const v = evaluate(parseExpr(plain), consts);
    return Number.isSafeInteger(v) ? v : null;
  } catch {
    return null;
  }
}

/** Brace depth at each position (comments already blanked): module scope is depth 0. */
function braceDepths(src: string): Int32Array {
  const depth = new Int32Array(src.length + 1);
  let d = 0;
  for (let i = 0; i < src.length; i++) {
    if (src[i] === '{') d++;
    else if (src[i] === '}') d = Math.max(0, d - 1);
    depth[i + 1] = d;
  }
  return depth;
}

/** Module-scope `const NAME(: T)? = expr;`, evaluated in order (one may use the ones before it). */
function moduleConsts(src: string, depth: Int32Array): Map<string, number> {
  const consts = new Map<string, number>();
  for (const m of src.matchAll(/(?:^|[\s;}])const\s+([A-Za-z_]\w*)\s*(?::[^=;]{0,256})?=([^;]{0,1024});/g)) {
    if (depth[m.index!] !== 0) continue;
    const v = constInt(m[2], consts);
    if (v !== null) consts.set(m[1], v);
  }
  return consts;
}

const SCALAR_BYTES: Readonly<Record<string, number>> = { u32: 4, i32: 4, f32: 4, f16: 2, bool: 4 };

/** Size and alignment of a WGSL type in the uniform address space; null when the lab cannot say. */
/** Struct members: split at commas outside <…> (array<vec2<f32>, 2> is one member). */
function splitTop(body: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i <= body.length; i++) {
    const ch = body[i];
    if (ch === '<') depth++;
    else if (ch === '>') depth--;
    else if (i === body.length || (ch === ',' && depth === 0)) {
      const m = body.slice(from, i).trim();
      if (m) out.push(m);
      from = i + 1;
    }
  }
  return out;
}

function uniformLayout(type: string, structs: ReadonlyMap<string, string>, consts: ReadonlyMap<string, number>, seen = 0): { size: number; align: number } | null {
  const t = type.replace(/\s+/g, '');
  if (seen > 16) return null;
  const scalar = SCALAR_BYTES[t];
  if (scalar) return { size: scalar, align: scalar };
  const vec = /^vec([234])(?:<(\w+)>|([fiuh]))$/.exec(t);
  if (vec) {
    const n = Number(vec[1]);
    const e = vec[2] ? SCALAR_BYTES[vec[2]] : vec[3] === 'h' ? 2 : 4;
    if (!e) return null;
    return { size: n * e, align: (n === 3 ? 4 : n) * e };
  }
  const mat = /^mat([234])x([234])(?:<(\w+)>|([fh]))$/.exec(t);
  if (mat) {
    const col = uniformLayout(`vec${mat[2]}<${mat[3] ?? (mat[4] === 'h' ? 'f16' : 'f32')}>`, structs, consts, seen + 1);
    if (!col) return null;
    const stride = Math.ceil(col.size / col.align) * col.align;
    return { size: Number(mat[1]) * stride, align: col.align };
  }
  const arr = /^array<(.+),([^,<>]+)>$/.exec(t);
  if (arr) {
    const el = uniformLayout(arr[1], structs, consts, seen + 1);
    const n = constInt(arr[2], consts);
    if (!el || n === null) return null;
    const align = Math.max(16, el.align); // uniform arrays: element alignment rounded up to 16
    const stride = Math.ceil(el.size / align) * align;
    return { size: n * stride, align };
  }
  const body = structs.get(t);
  if (body === undefined) return null;
  let offset = 0;
  let align = 1;
  for (const member of splitTop(body)) {
    const colon = member.indexOf(':');
    if (colon < 0) return null;
    const attrs = member.slice(0, colon);
    const m = uniformLayout(member.slice(colon + 1), structs, consts, seen + 1);
    if (!m) return null;
    const memberAlign = Math.max(m.align, Number(/@align\((\d+)\)/.exec(attrs)?.[1] ?? 0));
    // A struct member of a struct type starts on a 16-byte boundary in the uniform address space.
    const a = structs.has(member.slice(colon + 1).trim()) ? Math.max(16, memberAlign) : memberAlign;
    offset = Math.ceil(offset / a) * a + Math.max(m.size, Number(/@size\((\d+)\)/.exec(attrs)?.[1] ?? 0));
    align = Math.max(align, a);
  }
  return { size: Math.ceil(offset / align) * align, align };
}

/** WebGPU feature for a WGSL `enable` extension. */
function featureOf(extension: string): string {
  return extension === 'f16' ? 'shader-f16' : extension.replace(/_/g, '-');
}

export function inspectWgsl(source: string): WgslInfo {
  const src = stripComments(source);
  const depth = braceDepths(src);
  const consts = moduleConsts(src, depth);
  const structs = new Map<string, string>();
  const lineAt = lineFinder(src);
  // Every quantifier below is bounded: a hostile file of unterminated declarations stays linear.
  for (const m of src.matchAll(/struct\s+([A-Za-z_]\w*)\s*\{([^}]{0,8192})\}/g)) structs.set(m[1], m[2]);
  const bindings: WgslBindingDecl[] = [];
  const uniformSizes = new Map<number, number>();
  const VAR = /var\s*(?:<([^>]{0,64})>)?\s*([A-Za-z_]\w*)(?:\s*:\s*([^;=]{0,256}))?/y;
  for (const k of src.matchAll(/\bvar\b/g)) {
    VAR.lastIndex = k.index!;
    const t = VAR.exec(src);
    if (!t) continue;
    const attrs = attrsBefore(src, k.index!);
    const m = [t[0], attrs.text, t[1], t[2], t[3]];
    const group = attr(m[1], 'group');
    const binding = attr(m[1], 'binding');
    if (group === null || binding === null) continue;
    const [space = '', access = ''] = (m[2] ?? '').split(',').map((s) => s.trim());
    const b = constInt(binding, consts) ?? -1;
    bindings.push({
      group: constInt(group, consts) ?? -1,
      binding: b,
      name: m[3],
      space,
      access: space === 'storage' ? access || 'read' : access,
      line: lineAt(attrs.start),
    });
    const size = space === 'uniform' && m[4] ? uniformLayout(m[4], structs, consts) : null;
    if (size && b >= 0) uniformSizes.set(b, size.size);
  }
  const entryPoints: WgslEntryPoint[] = [];
  const FN = /fn\s+([A-Za-z_]\w*)\s*\(/y;
  for (const k of src.matchAll(/\bfn\b/g)) {
    FN.lastIndex = k.index!;
    const head = FN.exec(src);
    if (!head) continue;
    // The parameter list, parentheses nested (@builtin(…) inside it), at most 4096 characters.
    let close = k.index! + head[0].length;
    for (let depth = 1; close < src.length && close - k.index! < 4096; close++) {
      if (src[close] === '(') depth++;
      else if (src[close] === ')' && --depth === 0) break;
    }
    const t = [src.slice(k.index!, close + 1), head[1], src.slice(k.index! + head[0].length, close)];
    const attrs = attrsBefore(src, k.index!).text;
    if (!/@compute\b/.test(attrs)) continue;
    const size = attr(attrs, 'workgroup_size');
    const parts = size === null ? null : size.split(',').map((p) => constInt(p, consts));
    entryPoints.push({ name: t[1], workgroupSize: parts ? [...parts, 1, 1].slice(0, 3) : null, line: lineAt(k.index!), readsWorkgroupYZ: readsYZ(src, k.index! + t[0].length, t[2]) });
  }
  const overrides = new Set<string>();
  for (const m of src.matchAll(/(?:^|[\s;}])override\s+([A-Za-z_]\w*)/g)) overrides.add(m[1]);
  const enables: string[] = [];
  for (const m of src.matchAll(/(?:^|[\s;])enable\s+([^;]{1,1024});/g)) for (const ext of m[1].split(',')) enables.push(featureOf(ext.trim()));
  return { bindings, entryPoints, overrides, enables, uniformSizes };
}

/**
 * Whether an entry point reads .y or .z of its workgroup_id or num_workgroups parameter (or of a
 * struct parameter's member carrying one) — in its own body only; a helper function that is
 * handed the builtin is not followed, so the answer is "yes" whenever the name reaches a call.
 */
function readsYZ(src: string, bodyFrom: number, params: string): boolean {
  const names = [...params.matchAll(/@builtin\(\s*(workgroup_id|num_workgroups|global_invocation_id)\s*\)\s*([A-Za-z_]\w*)/g)].map((m) => m[2]);
  // Builtins inside a struct parameter: not followed, so the answer is the cautious one.
  if (!names.length) return /@builtin\(\s*(workgroup_id|num_workgroups|global_invocation_id)/.test(src);
  // The body: from the opening brace to its match.
  const open = src.indexOf('{', bodyFrom);
  let d = 0;
  let end = src.length;
  for (let i = open; i >= 0 && i < src.length; i++) {
    if (src[i] === '{') d++;
    else if (src[i] === '}' && --d === 0) {
      end = i;
      break;
    }
  }
  const body = src.slice(open, end);
  return names.some((n) => new RegExp(String.raw`\b${n}\s*\.\s*[yzgb]|\b${n}\s*\[|\b${n}\s*[,)]`).test(body));
}

function expectedDecl(role: string): { space: string; access: readonly string[]; say: string } {
  if (role === 'params') return { space: 'uniform', access: [''], say: 'var<uniform>' };
  if (role === 'dst') return { space: 'storage', access: ['read_write'], say: 'var<storage, read_write>' };
  // Sources may be declared read_write as engines write them (ggml does): the lab binds them so
  // and checks after the run that they were not modified.
  return { space: 'storage', access: ['read', 'read_write'], say: 'var<storage, read> or var<storage, read_write>' };
}

/**
 * The kernel's bindings, entry point, overrides, enables and uniform size against its WGSL. Every
 * problem found is returned (none thrown), so a manifest and its WGSL are reported whole.
 */
export function checkKernelWgsl(kernel: ManifestKernel, path: string, info: WgslInfo, features: readonly string[]): ManifestError[] {
  const problems: ManifestError[] = [];
  const problem = (where: string, detail: string) => problems.push(new ManifestError(where, detail));
  const file = kernel.wgsl.file;
  const wgslPath = `${path}.wgsl`;
  for (const d of info.bindings) {
    if (d.group !== 0) problem(wgslPath, d.group < 0 ? `${file} line ${d.line}: '${d.name}' has a @group that is not an integer const-expression the lab can evaluate` : `${file} line ${d.line}: '${d.name}' is in @group(${d.group}); the lab binds group 0 only`);
    if (d.binding < 0) problem(wgslPath, `${file} line ${d.line}: '${d.name}' has a @binding that is not an integer const-expression the lab can evaluate (literals, + - * / %, module consts)`);
  }
  const declared = (b: number) => info.bindings.filter((d) => d.binding === b);
  kernel.bindings.forEach((b, i) => {
    const bp = `${path}.bindings[${i}]`;
    const decls = declared(b.binding);
    const list = info.bindings.map((d) => `@binding(${d.binding}) ${d.name}`).join(', ') || 'none';
    if (!decls.length) return problem(bp, `binding ${b.binding} (role ${b.role}) is not declared in ${file} (it declares: ${list})`);
    const want = expectedDecl(b.role);
    for (const d of decls) {
      if (d.space !== want.space || !want.access.includes(d.access)) {
        const got = `var<${d.space}${d.access && d.space === 'storage' ? `, ${d.access}` : ''}>`;
        problem(bp, `role ${b.role} needs ${want.say}, but ${file} line ${d.line} declares ${got} ${d.name}`);
      }
    }
  });
  for (const d of info.bindings) {
    if (d.binding >= 0 && !kernel.bindings.some((b) => b.binding === d.binding)) {
      problem(`${path}.bindings`, `${file} line ${d.line} declares @binding(${d.binding}) ${d.name}, which the manifest does not bind`);
    }
  }
  if (!info.entryPoints.some((e) => e.name === kernel.entryPoint)) {
    problem(`${path}.entryPoint`, `${file} has no @compute entry point '${kernel.entryPoint}' (found: ${info.entryPoints.map((e) => e.name).join(', ') || 'none'})`);
  }
  kernel.overrides.forEach((o) => {
    if (!info.overrides.has(o.name)) problem(`${path}.overrides.${o.name}`, `${file} declares no 'override ${o.name}' (overrides: ${[...info.overrides].join(', ') || 'none'})`);
  });
  for (const f of info.enables) {
    if (!features.includes(f)) problem('features', `${file} enables an extension that needs the '${f}' feature: list it in features`);
  }
  const params = kernel.bindings.find((b) => b.role === 'params');
  const structBytes = params ? info.uniformSizes.get(params.binding) : undefined;
  if (structBytes !== undefined && kernel.uniforms.length) {
    const given = uniformBytesOf(kernel);
    if (given < structBytes) {
      problem(`${path}.uniforms`, `fill ${given} bytes, but ${file}'s uniform at @binding(${params!.binding}) is ${structBytes} bytes: every field the WGSL declares needs a value (Dawn would refuse the binding when the kernel runs)`);
    }
  }
  return problems;
}

/** Bytes the manifest's uniform fields take, padded to 16 as the lab allocates it. */
export function uniformBytesOf(kernel: Pick<ManifestKernel, 'uniforms'>): number {
  let next = 0;
  let end = 0;
  for (const u of kernel.uniforms) {
    const offset = u.offset ?? next;
    next = offset + 4;
    end = Math.max(end, next);
  }
  return Math.max(16, Math.ceil(end / 16) * 16);
}
