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
import fusedWgsl from '../../../kernels/GLU/glu_fused.wgsl?raw';
import splitWgsl from '../../../kernels/GLU/glu_split.wgsl?raw';
import { gather } from '../hostdata';
import { grid2d, type KernelSpec, nativeKernel, packParams } from '../kernel';
import { contiguous, elementStrides, nelements, stridedRows, view, type TensorDesc } from '../tensor';
import { commonRejection } from './contract';
import { checkParams, dimsNe, expWidening, isContiguous1, noGeneratedPath, noLayout, spreadInputs, tensorFields, type ParamSpec } from './elementwise-case';
import { geluElement } from './gelu';
import { siluElement } from './silu';
import { caseLabel, OpCaseError, rowFeatures, type OpCase, type OpDef } from './types';

/** ggml's enum ggml_glu_op values the lab offers. */
export const GLU_OPS: Readonly<Record<number, string>> = Object.freeze({ 0: 'reglu', 1: 'geglu', 2: 'swiglu', 5: 'geglu_quick' });

export const PARAMS: readonly ParamSpec[] = Object.freeze([
  { name: 'op', type: 'i32', default: 2, values: GLU_OPS, doc: "ggml's enum ggml_glu_op (op_params[0]): 0 reglu, 1 geglu, 2 swiglu, 5 geglu_quick" },
  { name: 'swapped', type: 'i32', default: 0, values: { 0: 'false', 1: 'true' }, doc: 'fused form only (op_params[1]): the gate g is the first half of each row' },
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
  const checked = checkParams('GLU', PARAMS, params);
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
  return Object.freeze({ op: 'GLU', dims: Object.freeze([...dims]), layout, label: caseLabel(dims, layout, 'split'), srcs: Object.freeze(srcs), dst: contiguous('f32', dstNe), inplace: false, params: checked });
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

function native(c: OpCase): KernelSpec {
  const off = halfOffsets(c);
  const xs = tensorFields(c.srcs[0]);
  const gSrc = c.srcs[c.srcs.length - 1];
  const gs = tensorFields(gSrc);
  const uniforms = packParams([
    ...c.dst.ne,
    ...elementStrides(c.srcs[0]),
    xs[4] + off.x,
    ...elementStrides(gSrc),
    gs[4] + off.g,
    ...tensorFields(c.dst),
    nelements(c.dst),
    c.params.op,
  ]);
  const dispatch = grid2d(Math.ceil(nelements(c.dst) / 256));
  return c.srcs.length === 2
    ? nativeKernel('GLU/glu_split.wgsl', splitWgsl, ['src0', 'src1', 'dst', 'params'], dispatch, uniforms)
    : nativeKernel('GLU/glu_fused.wgsl', fusedWgsl, ['src0', 'dst', 'params'], dispatch, uniforms);
}

export const GLU: OpDef = {
  name: 'GLU',
  summary: 'dst = act(x) · g, act one of reglu, geglu, swiglu, geglu_quick (ggml_glu_split; ggml_glu on fused halves, swapped)',
  shapeSyntax: 'ne0xne1[xne2xne3] of a (src0); fused: dst ne0 = ne0 / 2',
  layouts: LAYOUTS,
  matrix: [
    { dims: [4096, 16], layout: 'split' },
    { dims: [4093, 7], layout: 'split' },
    { dims: [8192, 8], layout: 'fused' },
    { dims: [2001, 11, 3], layout: 'fused' },
    { dims: [1000, 16], layout: 'split-halves' },
    { dims: [4096, 8], layout: 'fused-rows-strided' },
  ],
  makeCase,
  oracle,
  // x in [-8, 8), g in [-1, 1): the activations' tails are checked (fused: both halves in [-8, 8)).
  inputs: (c, seed) => spreadInputs(c, seed, [8, 1]),
  flops: () => null,
  bytes: (c) => ({ readBytes: 2 * nelements(c.dst) * 4, writeBytes: nelements(c.dst) * 4 }),
  features: rowFeatures,
  native,
  family: 'elementwise',
  require: (c, adapter) => commonRejection(c, adapter),
  ...noGeneratedPath('GLU'),
};
