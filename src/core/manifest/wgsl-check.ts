// What a manifest can check in its WGSL without a GPU: the resource declarations against the
// bindings by role, the entry point, its literal @workgroup_size, overrides and `enable`s. A
// mismatch is a ManifestError naming the WGSL line, found before any device sees the source.
import { ManifestError } from './errors';
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
  /** Literal sizes of @workgroup_size, padded with 1; null where one is not a literal. */
  readonly workgroupSize: readonly (number | null)[] | null;
  readonly line: number;
}

export interface WgslInfo {
  readonly bindings: readonly WgslBindingDecl[];
  readonly entryPoints: readonly WgslEntryPoint[];
  readonly overrides: ReadonlySet<string>;
  /** Features the `enable` directives need, by WebGPU name ('shader-f16', 'subgroups'). */
  readonly enables: readonly string[];
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

const lineAt = (src: string, index: number) => src.slice(0, index).split('\n').length;
const ATTRS = String.raw`((?:@[A-Za-z_]\w*\s*(?:\([^)]*\))?\s*)+)`;

function attr(attrs: string, name: string): string | null {
  const m = new RegExp(String.raw`@${name}\s*\(([^)]*)\)`).exec(attrs);
  return m ? m[1].trim() : null;
}

function literalInt(text: string): number | null {
  const m = /^(\d+)[ui]?$/.exec(text.trim());
  return m ? Number(m[1]) : null;
}

/** WebGPU feature for a WGSL `enable` extension. */
function featureOf(extension: string): string {
  return extension === 'f16' ? 'shader-f16' : extension.replace(/_/g, '-');
}

export function inspectWgsl(source: string): WgslInfo {
  const src = stripComments(source);
  const bindings: WgslBindingDecl[] = [];
  for (const m of src.matchAll(new RegExp(String.raw`${ATTRS}var\s*(?:<([^>]*)>)?\s*([A-Za-z_]\w*)`, 'g'))) {
    const group = attr(m[1], 'group');
    const binding = attr(m[1], 'binding');
    if (group === null || binding === null) continue;
    const [space = '', access = ''] = (m[2] ?? '').split(',').map((s) => s.trim());
    bindings.push({
      group: literalInt(group) ?? -1,
      binding: literalInt(binding) ?? -1,
      name: m[3],
      space,
      access: space === 'storage' ? access || 'read' : access,
      line: lineAt(src, m.index!),
    });
  }
  const entryPoints: WgslEntryPoint[] = [];
  for (const m of src.matchAll(new RegExp(String.raw`${ATTRS}fn\s+([A-Za-z_]\w*)`, 'g'))) {
    if (!/@compute\b/.test(m[1])) continue;
    const size = attr(m[1], 'workgroup_size');
    const parts = size === null ? null : size.split(',').map(literalInt);
    entryPoints.push({ name: m[2], workgroupSize: parts ? [...parts, 1, 1].slice(0, 3) : null, line: lineAt(src, m.index! + m[0].indexOf('fn')) });
  }
  const overrides = new Set<string>();
  for (const m of src.matchAll(/(?:^|[\s;}])override\s+([A-Za-z_]\w*)/g)) overrides.add(m[1]);
  const enables: string[] = [];
  for (const m of src.matchAll(/(?:^|[\s;])enable\s+([^;]+);/g)) for (const ext of m[1].split(',')) enables.push(featureOf(ext.trim()));
  return { bindings, entryPoints, overrides, enables };
}

function expectedDecl(role: string): { space: string; access: readonly string[]; say: string } {
  if (role === 'params') return { space: 'uniform', access: [''], say: 'var<uniform>' };
  if (role === 'dst') return { space: 'storage', access: ['read_write'], say: 'var<storage, read_write>' };
  if (role === 'scratch') return { space: 'storage', access: ['read', 'read_write'], say: 'var<storage, read> or var<storage, read_write>' };
  // Sources are bound read-only: a kernel that could write its inputs would change later runs.
  return { space: 'storage', access: ['read'], say: 'var<storage, read>' };
}

/** The kernel's bindings, entry point, overrides and enables against its WGSL. */
export function checkKernelWgsl(kernel: ManifestKernel, path: string, info: WgslInfo, features: readonly string[]): void {
  const file = kernel.wgsl.file;
  const wgslPath = `${path}.wgsl`;
  for (const d of info.bindings) {
    if (d.group !== 0) throw new ManifestError(wgslPath, `${file} line ${d.line}: '${d.name}' is in @group(${d.group}); the lab binds group 0 only`);
    if (d.binding < 0) throw new ManifestError(wgslPath, `${file} line ${d.line}: '${d.name}' has a @binding that is not an integer literal`);
  }
  const declared = (b: number) => info.bindings.filter((d) => d.binding === b);
  kernel.bindings.forEach((b, i) => {
    const bp = `${path}.bindings[${i}]`;
    const decls = declared(b.binding);
    const list = info.bindings.map((d) => `@binding(${d.binding}) ${d.name}`).join(', ') || 'none';
    if (!decls.length) throw new ManifestError(bp, `binding ${b.binding} (role ${b.role}) is not declared in ${file} (it declares: ${list})`);
    const want = expectedDecl(b.role);
    for (const d of decls) {
      if (d.space !== want.space || !want.access.includes(d.access)) {
        const got = `var<${d.space}${d.access && d.space === 'storage' ? `, ${d.access}` : ''}>`;
        throw new ManifestError(bp, `role ${b.role} needs ${want.say}, but ${file} line ${d.line} declares ${got} ${d.name}`);
      }
    }
  });
  for (const d of info.bindings) {
    if (!kernel.bindings.some((b) => b.binding === d.binding)) {
      throw new ManifestError(`${path}.bindings`, `${file} line ${d.line} declares @binding(${d.binding}) ${d.name}, which the manifest does not bind`);
    }
  }
  if (!info.entryPoints.some((e) => e.name === kernel.entryPoint)) {
    throw new ManifestError(`${path}.entryPoint`, `${file} has no @compute entry point '${kernel.entryPoint}' (found: ${info.entryPoints.map((e) => e.name).join(', ') || 'none'})`);
  }
  kernel.overrides.forEach((o) => {
    if (!info.overrides.has(o.name)) throw new ManifestError(`${path}.overrides.${o.name}`, `${file} declares no 'override ${o.name}' (overrides: ${[...info.overrides].join(', ') || 'none'})`);
  });
  for (const f of info.enables) {
    if (!features.includes(f)) throw new ManifestError('features', `${file} enables an extension that needs the '${f}' feature: list it in features`);
  }
}
