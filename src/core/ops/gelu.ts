// GELU — ggml_gelu(a) (GGML_OP_UNARY, GGML_UNARY_OP_GELU; ggml_op_desc names it GELU), the tanh
// form of ggml_gelu_f32: dst = 0.5·x·(1 + tanh(u)), u = √(2/π)·x·(1 + 0.044715·x²), constants as
// the f32 ggml declares. Views as every unary op (contiguous rows); ggml_gelu_inplace makes dst a
// view of a. The kernels compute the algebraic equal x / (1 + exp(-2u)) (no clamp, no NaN).
//
// Which GELU this is: ggml's CPU backend defines GGML_GELU_FP16 (ggml-cpu/vec.h), so its f32 GELU
// is a table lookup, y = f16(gelu(f16(x))) for -10 < x < 10, y = x for x ≥ 10, y = 0 for
// x ≤ -10. The lab matches the formula (ggml_gelu_f32, which ggml-webgpu's unary.wgsl computes
// too), not the table. The two differ by at most 2⁻¹¹·(1.13·|x| + |gelu(x)|) + 2⁻²⁵: x's rounding
// to f16 moves gelu by |gelu′| ≤ 1.13 times 2⁻¹¹·|x|, the result's by 2⁻¹¹·|gelu|, and subnormal
// halves by 2⁻²⁵ (gelu.test.ts checks this bound against an emulation of the table).
import { expWidening, UNARY_MATRIX } from './elementwise-case';
import { defineUnary } from './kit';
import type { ParamSpec } from './types';

export const PARAMS: readonly ParamSpec[] = Object.freeze([]);

/** ggml's GELU_COEF_A and SQRT_2_OVER_PI, as the f32 constants ggml-cpu/vec.h declares. */
export const GELU_COEF_A = Math.fround(0.044715);
export const SQRT_2_OVER_PI = Math.fround(0.79788456080286535587989211986876);

/** tanh's argument u and the value, in f64: what ggml_gelu_f32 computes. */
export function gelu(x: number): { u: number; y: number } {
  const u = SQRT_2_OVER_PI * x * (1 + GELU_COEF_A * x * x);
  return { u, y: 0.5 * x * (1 + Math.tanh(u)) };
}

/**
 * One element: ref and epsFloor. epsFloor is the size of the tanh form's two terms,
 * 0.5·|x|·(1 + |tanh u|) (for negative x, 1 + tanh(u) cancels: the tanh form keeps only an
 * absolute error there), widened with 2|u| for exp(-2u)'s error.
 */
export function geluElement(x: number): { ref: number; epsFloor: number } {
  const { u, y } = gelu(x);
  return { ref: y, epsFloor: 0.5 * Math.abs(x) * (1 + Math.abs(Math.tanh(u))) * expWidening(2 * u) };
}

/** The generated kernel's GELU of `x` over the constants gelu_k, gelu_a (GELU_CONSTANTS). */
export const geluExpr = (x: string) => `${x} / (1.0 + exp(-2.0 * (gelu_k * ${x} * (1.0 + gelu_a * ${x} * ${x}))))`;
export const GELU_CONSTANTS = Object.freeze({ gelu_k: SQRT_2_OVER_PI, gelu_a: GELU_COEF_A });

export const GELU = defineUnary({
  name: 'GELU',
  summary: "dst = 0.5·x·(1 + tanh(√(2/π)·x·(1 + 0.044715·x²))) (ggml_gelu, ggml_gelu_inplace; the formula, not the CPU's f16 table)",
  params: PARAMS,
  matrix: UNARY_MATRIX,
  element: geluElement,
  expr: geluExpr('x'),
  constants: GELU_CONSTANTS,
  // x in [-8, 8): both tails (gelu → 0, gelu → x) are checked.
  inputScale: 8,
});
