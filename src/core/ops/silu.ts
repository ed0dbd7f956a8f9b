// SILU — ggml_silu(a) (GGML_OP_UNARY, GGML_UNARY_OP_SILU; ggml_op_desc names it SILU):
// dst = x / (1 + exp(-x)), ggml_silu_f32's formula. a may be any view with contiguous rows
// (ggml_unary_impl asserts ggml_is_contiguous_rows); dst is a new packed tensor, or a view of a
// for ggml_silu_inplace. No op_params beyond the unary op's id.
import nativeWgsl from '../../../kernels/SILU/silu.wgsl?raw';
import nativeInplaceWgsl from '../../../kernels/SILU/silu_inplace.wgsl?raw';
import { defineUnaryOp, expWidening, type ParamSpec } from './elementwise-case';

export const PARAMS: readonly ParamSpec[] = Object.freeze([]);

/** ggml_silu_f32 in f64. */
export function silu(x: number): number {
  return x / (1 + Math.exp(-x));
}

/** One element: nothing cancels (1 + exp(-x) ≥ 1); the bound widens with |x| for exp's error. */
export function siluElement(x: number): { ref: number; epsFloor: number } {
  const ref = silu(x);
  return { ref, epsFloor: Math.abs(ref) * (expWidening(x) - 1) };
}

export const SILU = defineUnaryOp({
  name: 'SILU',
  summary: 'dst = x / (1 + exp(-x)) (ggml_silu, ggml_silu_inplace)',
  params: PARAMS,
  matrix: [
    { dims: [4096, 16], layout: 'contiguous' },
    { dims: [4093, 7], layout: 'contiguous' },
    { dims: [1000, 11, 3], layout: 'inplace' },
    { dims: [4096, 8], layout: 'src0-rows-strided' },
    { dims: [129, 8, 5], layout: 'src0-permuted' },
  ],
  element: siluElement,
  wgsl: { plain: ['SILU/silu.wgsl', nativeWgsl], inplace: ['SILU/silu_inplace.wgsl', nativeInplaceWgsl] },
  // x in [-8, 8): the tails (silu → 0 and silu → x) are checked, not only [-1, 1).
  inputScale: 8,
});
