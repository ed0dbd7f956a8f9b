// Small WGSL text helpers shared by the generated kernels. Pure string building.
import type { BindingRole, BindingSpec } from '../kernel';

export function vecType(width: number): string {
  return width === 1 ? 'f32' : `vec${width}<f32>`;
}

/** `@group(0) @binding(n) var<storage, read> name: array<T>;` */
export function storageDecl(binding: number, name: string, access: 'read' | 'read_write', elem: string): string {
  return `@group(0) @binding(${binding}) var<storage, ${access}> ${name}: array<${elem}>;`;
}

/** Declarations and binding specs for a list of (role, name, access) in binding order. */
export function bindAll(list: readonly { role: BindingRole; name: string; access: 'read' | 'read_write'; elem: string }[]): { decls: string; bindings: BindingSpec[] } {
  const decls = list.map((b, i) => storageDecl(i, b.name, b.access, b.elem)).join('\n');
  const bindings = list.map((b, i) => ({ binding: i, role: b.role, access: b.access }));
  return { decls, bindings };
}

/** A u32 literal: `123u`. */
export function u(n: number): string {
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) throw new Error(`${n} is not a u32`);
  return `${n}u`;
}

/** An f32 literal that round-trips exactly. */
export function f(n: number): string {
  const text = Math.fround(n).toPrecision(9);
  return /[.e]/.test(text) ? text : `${text}.0`;
}

/** Indents every line of a block by `n` spaces (keeps snapshots readable). */
export function indent(block: string, n: number): string {
  const pad = ' '.repeat(n);
  return block
    .split('\n')
    .map((line) => (line ? pad + line : line))
    .join('\n');
}

/** Rewrites whole identifiers of `names` in a WGSL expression (a swizzle `.x` or a longer name is left alone). */
export function renameIdents(expr: string, names: readonly string[], to: (name: string) => string): string {
  if (!names.length) return expr;
  return expr.replace(new RegExp(`(?<![.\\w])(${names.join('|')})(?!\\w)`, 'g'), to);
}

/** Whether a WGSL expression names `name` (as a whole identifier). */
export function usesIdent(expr: string, name: string): boolean {
  return renameIdents(expr, [name], () => '\u0000') !== expr;
}

/**
 * A generated kernel's entry point and its end: `main` over the given builtins with the body
 * indented, then the blank line every generated kernel ends on (one shell, so snapshots agree).
 */
export function computeMain(workgroupSize: number, builtins: readonly string[], body: readonly string[]): string[] {
  return [`@compute @workgroup_size(${workgroupSize})`, `fn main(${builtins.join(', ')}) {`, indent(body.join('\n'), 2), '}', ''];
}
