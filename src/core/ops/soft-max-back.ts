// SOFT_MAX_BACK — ggml_soft_max_ext_back(a = dy, b = y, scale, max_bias): the gradient of
// SOFT_MAX. Source order as ggml_compute_backward calls it: src0 = dy (the incoming gradient),
// src1 = y (SOFT_MAX's own output); dst = dx with dy's shape; *_inplace makes dst a view of dy.
// Per row (ggml-cpu): dx = scale · y · (dy − Σ y·dy). The graph builder asserts nothing; the
// CPU kernel asserts dy, y and dx contiguous and the same shape, and max_bias == 0 (as CUDA's
// does): ALiBi has no backward in ggml, so max_bias is not a lab param (only 0 is allowed).
// op_params: [scale, max_bias] as f32.
import type { NormSnippet } from '../families/norm';
import { gather, randomBuffer } from '../hostdata';
import { inputSeed } from '../inputs';
import { contiguous } from '../tensor';
import { defineRowOp, familyOperands, type RowKernel } from './row-kit';
import { cases, layoutError } from './rows-common';
import type { OpCase, ParamSpec } from './types';

const LAYOUTS = [
  { name: 'contiguous', doc: 'dy, y and dx packed, same shape' },
  { name: 'inplace', doc: 'ggml_soft_max_ext_back_inplace: dx is dy itself' },
] as const;

/**
 * op_params are [scale, max_bias], but ggml (CPU and CUDA) asserts max_bias == 0 in the backward
 * (ALiBi has no gradient there): only scale is a param; a max_bias is refused by name.
 */
export const PARAMS: readonly ParamSpec[] = Object.freeze([
  { name: 'scale', type: 'f32', default: 1, min: -1024, max: 1024, doc: 'the forward SOFT_MAX scale: multiplies the gradient' },
]);

/**
 * f64 reference. The dot has ne0 terms that may cancel, and dy − dot cancels too: the floor is
 * |scale·y|·(|dy| + Σ|y·dy|), the magnitudes the f32 rounding scales with.
 */
function oracle(c: OpCase, srcs: readonly ArrayBuffer[]) {
  const dy = gather(c.srcs[0], srcs[0]);
  const y = gather(c.srcs[1], srcs[1]);
  const ne0 = c.dst.ne[0];
  const scale = Math.fround(c.params.scale);
  const ref = new Float64Array(dy.length);
  const epsFloor = new Float64Array(dy.length);
  for (let base = 0; base < dy.length; base += ne0) {
    let dot = 0;
    let abs = 0;
    for (let i = 0; i < ne0; i++) {
      dot += y[base + i] * dy[base + i];
      abs += Math.abs(y[base + i] * dy[base + i]);
    }
    for (let i = 0; i < ne0; i++) {
      ref[base + i] = scale * y[base + i] * (dy[base + i] - dot);
      epsFloor[base + i] = Math.abs(scale * y[base + i]) * (Math.abs(dy[base + i]) + abs);
    }
  }
  return { ref, epsFloor, terms: ne0 };
}

/** dy uniform in [-1, 1); y a real softmax output (each row of exp(8·u) normalized, u in [-1, 1)). */
function inputs(c: OpCase, seed: number): ArrayBuffer[] {
  const dy = randomBuffer(c.srcs[0], inputSeed(seed, 0));
  const y = randomBuffer(c.srcs[1], inputSeed(seed, 1));
  const f = new Float32Array(y);
  const ne0 = c.dst.ne[0];
  for (let base = 0; base < f.length; base += ne0) {
    let sum = 0;
    for (let i = 0; i < ne0; i++) sum += Math.exp(8 * f[base + i]);
    for (let i = 0; i < ne0; i++) f[base + i] = Math.exp(8 * f[base + i]) / sum;
  }
  return [dy, y];
}

/** The row template: Σ y·dy, then (dy − dot)·y·scale; in place, dy is read from dst. */
const native: RowKernel = {
  operands: [
    { name: 'dy', src: 0 },
    { name: 'y', src: 1 },
  ],
  reduce: { sum: 'y * dy' },
  finish: ['let dot_y_dy = total;'],
  out: '(dy - dot_y_dy) * y * scale',
};

/** SOFT_MAX_BACK for the row family: Σ y·dy, then (dy − dot)·y·scale; in place, dy is read from dst. */
function snippet(c: OpCase): NormSnippet {
  return {
    operands: familyOperands(c, native.operands),
    reductions: [{ name: 'dot_y_dy', map: 'y * dy', combine: 'sum' }],
    output: { kind: 'row', tensor: c.dst, expr: '(dy - dot_y_dy) * y * SCALE' },
    constants: { SCALE: c.params.scale },
  };
}

export const SOFT_MAX_BACK = defineRowOp({
  name: 'SOFT_MAX_BACK',
  summary: 'dx = scale · y · (dy − Σ y·dy) per row; src0 = dy, src1 = y (ggml_soft_max_ext_back, *_inplace)',
  shapeSyntax: 'ne0xne1[xne2xne3] of dy, y and dx',
  layouts: LAYOUTS,
  params: PARAMS,
  matrix: [
    ...cases('contiguous', [4096, 8], [4093, 13]),
    { dims: [1000, 11, 3], layout: 'contiguous', params: { scale: 0.125 } },
    ...cases('contiguous', [77, 9, 3, 2]),
    ...cases('inplace', [4096, 4]),
    { dims: [255, 33, 2], layout: 'inplace', params: { scale: -2 } },
  ],
  sources(ne, layout) {
    const [dy, y] = [contiguous('f32', ne), contiguous('f32', ne)];
    if (layout === 'contiguous' || layout === 'inplace') return { srcs: [dy, y], inplace: layout === 'inplace' };
    throw layoutError('SOFT_MAX_BACK', layout, LAYOUTS, layout.includes('strided') || layout.includes('permuted') ? 'ggml asserts dy, y and dx contiguous' : '');
  },
  oracle,
  inputs,
  native,
  // Every case makeCase builds is packed, which is all the generated kernel needs.
  generated: snippet,
});
