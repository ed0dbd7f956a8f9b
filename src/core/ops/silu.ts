// SILU — ggml_silu(a) (GGML_OP_UNARY, GGML_UNARY_OP_SILU; ggml_op_desc names it SILU):
// dst = x / (1 + exp(-x)), ggml_silu_f32's formula. a may be any view with contiguous rows
// (ggml_unary_impl asserts ggml_is_contiguous_rows); dst is a new packed tensor, or a view of a
// for ggml_silu_inplace. No op_params beyond the unary op's id.
import { expWidening, UNARY_MATRIX } from './elementwise-case';
import { defineUnary } from './kit';
import type { ParamSpec } from './types';

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

/** The generated kernel's SiLU of `x` (a WGSL f32 or vecN<f32> expression). */
export const siluExpr = (x: string) => `${x} / (1.0 + exp(-${x}))`;

export const SILU = defineUnary({
  name: 'SILU',
  summary: 'dst = x / (1 + exp(-x)) (ggml_silu, ggml_silu_inplace)',
  params: PARAMS,
  matrix: UNARY_MATRIX,
  element: siluElement,
  expr: siluExpr('x'),
  // x in [-8, 8): the tails (silu → 0 and silu → x) are checked, not only [-1, 1).
  inputScale: 8,
});
