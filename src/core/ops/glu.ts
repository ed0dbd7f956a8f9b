// GLU — ggml_glu / ggml_glu_split (GGML_OP_GLU; op_params[0] = enum ggml_glu_op, [1] = swapped):
// dst = act(x) · g per element. Split form (ggml_swiglu_split(a, b), what llama.cpp's FFN builds
// from separate gate and up projections): x = a, g = b, same shape, dst has a's shape. Fused form
// (ggml_swiglu(a)): each row of a holds both halves, nc = ne0 / 2 (rounded down, as ggml: an odd
// last element is never read), x = the first half and g = the second, or the reverse when swapped;
// dst is [nc, ne1, ne2, ne3]. a and b must be ggml_is_contiguous_1; dst is always a new packed tensor.
// act: REGLU max(x, 0) (x > 0 ? x·g : 0), GEGLU GELU's tanh form (the formula, not the CPU's f16
// table; see gelu.ts), SWIGLU silu, GEGLU_QUICK x·sigmoid(1.702·x) (the formula; the CPU uses an
// f16 table for it as for GELU). SWIGLU_OAI (alpha and limit params) and GEGLU_ERF (erf has no
// WGSL builtin) are not offered.
import nativeWgsl from '../../../kernels/GLU/glu.wgsl?raw';
import { uniformSchema } from '../codegen/uniforms';
import type { ElementwiseSnippet } from '../families/elementwise';
import { gather } from '../hostdata';
import { grid2d, type KernelSpec, nativeTemplated } from '../kernel';
import { contiguous, nelements, stridedRows, view, type TensorDesc } from '../tensor';
import { defineElementwiseOp } from './elementwise-op';
import { dimsNe, expWidening, isContiguous1, noLayout, spreadInputs } from './elementwise-case';
import { GELU_CONSTANTS, geluElement, geluExpr } from './gelu';
import { siluElement, siluExpr } from './silu';
import { caseLabel, OpCaseError, paramsLabel, parseParams, type OpCase, type ParamSpec } from './types';

export const PARAMS: readonly ParamSpec[] = Object.freeze([
  {
    name: 'op',
    type: 'enum',
    default: 2,
    values: [
      { value: 0, name: 'reglu' },
      { value: 1, name: 'geglu' },
      { value: 2, name: 'swiglu' },
      { value: 5, name: 'geglu_quick' },
    ],
    doc: "ggml's enum ggml_glu_op (op_params[0]); 3 swiglu_oai and 4 geglu_erf are not offered",
  },
  { name: 'swapped', type: 'bool', default: 0, doc: 'fused form only (op_params[1]): the gate g is the first half of each row' },
]);

const LAYOUTS = [
  { name: 'split', doc: 'ggml_glu_split: a and b packed, same shape (separate gate and up projections)' },
  { name: 'fused', doc: 'ggml_glu: one packed tensor, each row [x | g] (or [g | x] swapped); dst ne0 = ne0 / 2' },
  { name: 'split-halves', doc: 'split form on views: a and b are the two halves of the rows of a packed [2·ne0, …] tensor' },
  { name: 'fused-rows-strided', doc: 'fused form on a view whose rows sit in a wider packed tensor (odd row stride, one element in)' },
] as const;

const GELU_QUICK_COEF = -1.702;

/** One element of act(x)·g in f64 and the magnitude its rounding scales with. */
export function gluElement(op: number, x: number, g: number): { ref: number; epsFloor: number } {
  switch (op) {
    case 0:
      return { ref: x > 0 ? x * g : 0, epsFloor: 0 };
    case 1: {
      const e = geluElement(x);
      return { ref: e.ref * g, epsFloor: e.epsFloor * Math.abs(g) };
    }
    case 5: {
      const ref = x * (1 / (1 + Math.exp(GELU_QUICK_COEF * x))) * g;
      return { ref, epsFloor: Math.abs(ref) * (expWidening(GELU_QUICK_COEF * x) - 1) };
    }
    default: {
      const e = siluElement(x);
      return { ref: e.ref * g, epsFloor: e.epsFloor * Math.abs(g) };
    }
  }
}

function makeCase(dims: readonly number[], layout: string = 'split', params: Readonly<Record<string, number>> = {}): OpCase {
  const ne = dimsNe('GLU', dims, 'ne0xne1[xne2xne3] of a (src0)');
  const checked = parseParams('GLU', PARAMS, params);
  if (!LAYOUTS.some((l) => l.name === layout)) throw noLayout('GLU', layout, LAYOUTS);
  const fused = layout.startsWith('fused');
  if (!fused && checked.swapped) throw new OpCaseError(`GLU: swapped applies to the fused form only (ggml_glu_split passes swapped = false), got swapped = 1 with layout '${layout}'`);
  if (fused && ne[0] < 2) throw new OpCaseError(`GLU fused: ne0 = ${ne[0]} has no halves (dst ne0 = ne0 / 2 would be 0)`);
  let srcs: TensorDesc[];
  if (layout === 'split') srcs = [contiguous('f32', ne), contiguous('f32', ne)];
  else if (layout === 'fused') srcs = [contiguous('f32', ne)];
  else if (layout === 'fused-rows-strided') srcs = [stridedRows('f32', ne, ne[0] + 3, 1)];
  else {
    const parent = contiguous('f32', [2 * ne[0], ne[1], ne[2], ne[3]]);
    const half = (offsetBytes: number, name: string) => view(parent, ne, [parent.nb[1], parent.nb[2], parent.nb[3]], offsetBytes, name);
    srcs = [half(0, 'first-half'), half(ne[0] * 4, 'second-half')];
  }
  srcs.forEach((t, i) => {
    if (!isContiguous1(t)) throw new OpCaseError(`GLU: src${i} must be ggml_is_contiguous_1 (rows contiguous, higher dims packed), got nb ${t.nb.join(',')}`);
  });
  const dstNe = fused ? [Math.floor(ne[0] / 2), ne[1], ne[2], ne[3]] : ne;
  return Object.freeze({ op: 'GLU', dims: Object.freeze([...dims]), layout, label: caseLabel(dims, layout, 'split', paramsLabel(PARAMS, checked)), srcs: Object.freeze(srcs), dst: contiguous('f32', dstNe), inplace: false, params: checked });
}

/** Where x and g start inside their source, in elements past element [0,0,0,0]: the fused halves. */
function halfOffsets(c: OpCase): { x: number; g: number } {
  if (c.srcs.length === 2) return { x: 0, g: 0 };
  const nc = c.dst.ne[0];
  return c.params.swapped ? { x: nc, g: 0 } : { x: 0, g: nc };
}

function oracle(c: OpCase, srcs: readonly ArrayBuffer[]) {
  const a = gather(c.srcs[0], srcs[0]);
  const b = c.srcs.length === 2 ? gather(c.srcs[1], srcs[1]) : a;
  const rowA = c.srcs[0].ne[0];
  const nc = c.dst.ne[0];
  const off = halfOffsets(c);
  const n = nelements(c.dst);
  const ref = new Float64Array(n);
  const epsFloor = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const base = Math.floor(i / nc) * rowA;
    const i0 = i % nc;
    const e = gluElement(c.params.op, a[base + off.x + i0], b[base + off.g + i0]);
    ref[i] = e.ref;
    epsFloor[i] = e.epsFloor;
  }
  return { ref, epsFloor, terms: 1 };
}

const NATIVE_WG = 256;

/** x, g (the fused halves: views of src0) and dst as the shared Tensor descriptors; op: ggml's enum ggml_glu_op. */
const UNIFORM = uniformSchema('Params', { x: 'tensor', g: 'tensor', dst: 'tensor', op: 'u32' });

function native(c: OpCase): KernelSpec {
  const { x, g } = operands(c);
  const fused = c.srcs.length === 1;
  const roles = fused ? (['src0', 'dst', 'params'] as const) : (['src0', 'src1', 'dst', 'params'] as const);
  return nativeTemplated('GLU/glu.wgsl', nativeWgsl, roles, grid2d(Math.ceil(nelements(c.dst) / NATIVE_WG)), UNIFORM, { x, g, dst: c.dst, op: c.params.op }, { FUSED: fused, WG: NATIVE_WG });
}

/**
 * x and g as tensors of dst's shape: the split form's two sources, or the fused form's halves as
 * views of src0 (same strides, the half's start as offset): the family addresses them like any view.
 */
function operands(c: OpCase): { x: TensorDesc; g: TensorDesc } {
  if (c.srcs.length === 2) return { x: c.srcs[0], g: c.srcs[1] };
  const a = c.srcs[0];
  const off = halfOffsets(c);
  const half = (elements: number, name: string) => view(a, c.dst.ne, [a.nb[1], a.nb[2], a.nb[3]], elements * 4, name);
  return { x: half(off.x, 'x-half'), g: half(off.g, 'g-half') };
}

const ACT: Readonly<Record<number, string>> = { 0: 'max(x, x * 0.0)', 1: geluExpr('x'), 2: siluExpr('x'), 5: 'x * (1.0 / (1.0 + exp(-1.702 * x)))' };

function snippet(c: OpCase): ElementwiseSnippet {
  const { x, g } = operands(c);
  const fused = c.srcs.length === 1;
  return {
    sources: [
      { name: 'x', tensor: x, binding: 'src0' },
      { name: 'g', tensor: g, binding: fused ? 'src0' : 'src1' },
    ],
    outputs: [{ tensor: c.dst, binding: 'dst', expr: `(${ACT[c.params.op]}) * g` }],
    ...(c.params.op === 1 ? { constants: GELU_CONSTANTS } : {}),
  };
}

export const GLU = defineElementwiseOp({
  name: 'GLU',
  bench: { dims: [11008, 512] },
  summary: 'dst = act(x) · g, act one of reglu, geglu, swiglu, geglu_quick (ggml_glu_split; ggml_glu on fused halves, swapped)',
  shapeSyntax: 'ne0xne1[xne2xne3] of a (src0); fused: dst ne0 = ne0 / 2',
  layouts: LAYOUTS,
  params: PARAMS,
  matrix: [
    { dims: [4096, 16], layout: 'split' },
    { dims: [4093, 7], layout: 'split', params: { op: 0 } },
    { dims: [1000, 11, 3], layout: 'split', params: { op: 1 } },
    { dims: [8192, 8], layout: 'fused' },
    { dims: [2001, 11, 3], layout: 'fused', params: { swapped: 1 } },
    { dims: [1024, 16], layout: 'fused', params: { op: 5, swapped: 1 } },
    { dims: [1000, 16], layout: 'split-halves' },
    { dims: [4096, 8], layout: 'fused-rows-strided', params: { op: 1 } },
  ],
  makeCase,
  oracle,
  // x in [-8, 8), g in [-1, 1): the activations' tails are checked (fused: both halves in [-8, 8)).
  inputs: (c, seed) => spreadInputs(c, seed, [8, 1]),
  snippet,
  bytes: (c) => ({ readBytes: 2 * nelements(c.dst) * 4, writeBytes: nelements(c.dst) * 4 }),
  native,
});
