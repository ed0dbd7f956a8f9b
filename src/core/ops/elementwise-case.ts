// What the elementwise training ops (the unary kit's, SILU_BACK, GLU, ACC) share: dims → ne, the
// unary view layouts and ggml_is_contiguous_1, the unary case, seeded wide inputs, and the bound
// widening of exp-based formulas. The op kits themselves are kit.ts.
import { randomBuffer } from '../hostdata';
import { contiguous, permute, rowsContiguous, stridedRows, typeSizeBytes, type TensorDesc } from '../tensor';
import { caseLabel, OpCaseError, paramsLabel, parseParams, type LayoutSpec, type MatrixEntry, type OpCase, type ParamSpec } from './types';
import { inputSeed } from '../inputs';

/** 1 to 4 dims → ne[4], naming the op's shape syntax when the count is wrong. */
export function dimsNe(op: string, dims: readonly number[], syntax: string): number[] {
  if (dims.length < 1 || dims.length > 4) throw new OpCaseError(`${op} takes 1 to 4 dims (${syntax}), got ${dims.length}`);
  return [1, 1, 1, 1].map((one, i) => dims[i] ?? one);
}

export function noLayout(op: string, layout: string, layouts: readonly LayoutSpec[]): OpCaseError {
  return new OpCaseError(`${op} has no layout '${layout}' (layouts: ${layouts.map((l) => l.name).join(', ')})`);
}

/** A source's view from its ne (or dst's). */
export type View = (ne: readonly number[]) => TensorDesc;

/** A layout with the view it gives a source, from that source's ne. */
export interface ViewLayout extends LayoutSpec {
  readonly view: View;
}

/** A layout of a two-source op: each source's view where it is not packed. */
export interface SourcesLayout extends LayoutSpec {
  readonly src0?: View;
  readonly src1?: View;
}

/** The layout named `layout` (layout names are user input: looked up in the list, never as a key), else the op's no-layout error. */
export function pickLayout<L extends LayoutSpec>(op: string, layouts: readonly L[], layout: string): L {
  const l = layouts.find((x) => x.name === layout);
  if (!l) throw noLayout(op, layout, layouts);
  return l;
}

/** Layouts as data (name and doc only): what OpDef.layouts carries to results and the page. */
export function layoutSpecs(layouts: readonly LayoutSpec[]): LayoutSpec[] {
  return layouts.map(({ name, doc }) => ({ name, doc }));
}

/**
 * A packed f32 tensor of `ne` read through a permutation: `order` lists the dims innermost first
 * (order [1, 2, 0]: dim 1 has the unit stride, then dim 2, then dim 0; unlisted dims follow in
 * order), as ggml's permute makes views — permute(parent, axes) of a packed parent whose dims are
 * ne in `order`. [0, 2, 1] is permute(0,2,1,3) of a packed [ne0, ne2, ne1, ne3].
 */
export function permutedView(ne: readonly number[], order: readonly number[]): TensorDesc {
  const full = [...order, ...[0, 1, 2, 3].filter((d) => !order.includes(d))];
  const parent = contiguous('f32', full.map((d) => ne[d]));
  return permute(parent, full as [number, number, number, number]);
}

/** The source views ops share: packed, rows in a wider packed tensor (odd stride, one element in), planes swapped. */
export const PACKED = (ne: readonly number[]) => contiguous('f32', ne);
export const ROWS_STRIDED = (ne: readonly number[]) => stridedRows('f32', ne, ne[0] + 3, 1);
export const PLANES_SWAPPED = (ne: readonly number[]) => permutedView(ne, [0, 2, 1]);

/** ggml_is_contiguous_1: rows contiguous; dims 2 and 3 packed over the rows, whose stride is free. */
export function isContiguous1(t: TensorDesc): boolean {
  const ts = typeSizeBytes[t.type];
  if (t.ne[0] !== 1 && t.nb[0] !== ts) return false;
  let next = t.ne[1] * t.nb[1];
  for (const d of [2, 3]) {
    if (t.ne[d] !== 1 && t.nb[d] !== next) return false;
    next *= t.ne[d];
  }
  return true;
}

/** The views a ggml unary op (ggml_unary_impl asserts ggml_is_contiguous_rows(a)) is built on. */
export const UNARY_LAYOUTS: readonly LayoutSpec[] = Object.freeze([
  { name: 'contiguous', doc: 'src0 and dst packed, same shape' },
  { name: 'inplace', doc: 'the *_inplace form: dst is a view of src0 itself' },
  { name: 'src0-rows-strided', doc: 'src0 is a view whose rows sit in a wider packed tensor (odd row stride, one element in)' },
  { name: 'src0-permuted', doc: 'src0 is permute(0,2,1,3) of a packed tensor (rows contiguous, planes swapped)' },
]);

/** The matrix of a parameterless unary op: odd and even rows, every unary layout once or twice. */
export const UNARY_MATRIX: readonly MatrixEntry[] = Object.freeze([
  { dims: [4096, 16], layout: 'contiguous' },
  { dims: [4093, 7], layout: 'contiguous' },
  { dims: [1000, 11, 3], layout: 'inplace' },
  { dims: [4096, 8], layout: 'src0-rows-strided' },
  { dims: [129, 8, 5], layout: 'src0-permuted' },
]);

/** A one-source case whose dst has src0's shape: a packed new tensor, or src0 itself in place. */
export function makeUnaryCase(op: string, dims: readonly number[], layout: string, specs: readonly ParamSpec[], given: Readonly<Record<string, number>>, layouts: readonly LayoutSpec[] = UNARY_LAYOUTS): OpCase {
  const ne = dimsNe(op, dims, 'ne0xne1[xne2xne3] of dst');
  const params = parseParams(op, specs, given);
  const [ne0, ne1, ne2, ne3] = ne;
  if (!layouts.some((l) => l.name === layout)) throw noLayout(op, layout, layouts);
  let src0 = contiguous('f32', ne);
  if (layout === 'src0-rows-strided') src0 = stridedRows('f32', ne, ne0 + 3, 1);
  if (layout === 'src0-permuted') src0 = permute(contiguous('f32', [ne0, ne2, ne1, ne3]), [0, 2, 1, 3]);
  if (!rowsContiguous(src0)) throw new OpCaseError(`${op}: src0 rows must be contiguous (ggml asserts ggml_is_contiguous_rows), got nb0 = ${src0.nb[0]} B`);
  const inplace = layout === 'inplace';
  const dst = inplace ? { ...src0, layout: 'inplace' } : contiguous('f32', ne);
  const label = caseLabel(dims, layout, layouts[0].name, paramsLabel(specs, params));
  return Object.freeze({ op, dims: Object.freeze([...dims]), layout, label, srcs: Object.freeze([src0]), dst, inplace, params });
}

/**
 * Seeded sources uniform in [-scale, scale) (every byte of each buffer, as randomBuffer): the
 * activations take arguments past [-1, 1) so their tails and saturation are checked too.
 */
export function spreadInputs(c: OpCase, seed: number, scales: readonly number[]): ArrayBuffer[] {
  return c.srcs.map((t, i) => {
    const buf = randomBuffer(t, inputSeed(seed, i));
    const f = new Float32Array(buf);
    for (let k = 0; k < f.length; k++) f[k] *= scales[i];
    return buf;
  });
}

/**
 * How far an exp-based formula's bound widens: WGSL's f32 exp is accurate to 3 + 2·|x| ULP, so
 * 8 ULP of the element bound become 8 + 2·|arg| ULP.
 */
export function expWidening(arg: number): number {
  return 1 + Math.abs(arg) / 4;
}
