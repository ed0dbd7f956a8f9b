// GELU — ggml_gelu(a) (GGML_OP_UNARY, GGML_UNARY_OP_GELU; ggml_op_desc names it GELU), the tanh
// form of ggml_gelu_f32: dst = 0.5·x·(1 + tanh(√(2/π)·x·(1 + 0.044715·x²))), constants as the f32
// ggml declares. Views as every unary op (contiguous rows); ggml_gelu_inplace makes dst a view of a.
//
// Which GELU this is: ggml's CPU backend defines GGML_GELU_FP16 (ggml-cpu/vec.h), so its f32 GELU
// is a table lookup, y = f16(gelu(f16(x))) for -10 < x < 10, y = x for x ≥ 10, y = 0 for
// x ≤ -10. The lab matches the formula (ggml_gelu_f32, which ggml-webgpu's unary.wgsl computes
// too), not the table. The two differ by at most 2⁻¹¹·(1.13·|x| + |gelu(x)|) + 2⁻²⁵: x's rounding
// to f16 moves gelu by |gelu′| ≤ 1.13 times 2⁻¹¹·|x|, the result's by 2⁻¹¹·|gelu|, and subnormal
// halves by 2⁻²⁵ (gelu.test.ts checks this bound against an emulation of the table).
import nativeWgsl from '../../../kernels/GELU/gelu.wgsl?raw';
import nativeInplaceWgsl from '../../../kernels/GELU/gelu_inplace.wgsl?raw';
import { defineUnaryOp, expWidening, type ParamSpec } from './elementwise-case';

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
 * One element: ref and epsFloor. epsFloor is the size of the two terms that meet,
 * 0.5·|x|·(1 + |tanh u|): for negative x, 1 + tanh(u) cancels and an f32 tanh's absolute error
 * stays. tanh is built on exp(2u), so the bound widens with 2|u| (the kernels clamp u to ±9.010913).
 */
export function geluElement(x: number): { ref: number; epsFloor: number } {
  const { u, y } = gelu(x);
  return { ref: y, epsFloor: 0.5 * Math.abs(x) * (1 + Math.abs(Math.tanh(u))) * expWidening(2 * Math.min(Math.abs(u), 9.010913)) };
}

export const GELU = defineUnaryOp({
  name: 'GELU',
  summary: "dst = 0.5·x·(1 + tanh(√(2/π)·x·(1 + 0.044715·x²))) (ggml_gelu, ggml_gelu_inplace; the formula, not the CPU's f16 table)",
  params: PARAMS,
  matrix: [
    { dims: [4096, 16], layout: 'contiguous' },
    { dims: [4093, 7], layout: 'contiguous' },
    { dims: [1000, 11, 3], layout: 'inplace' },
    { dims: [4096, 8], layout: 'src0-rows-strided' },
    { dims: [129, 8, 5], layout: 'src0-permuted' },
  ],
  element: geluElement,
  wgsl: { plain: ['GELU/gelu.wgsl', nativeWgsl], inplace: ['GELU/gelu_inplace.wgsl', nativeInplaceWgsl] },
  // x in [-8, 8): both tails (gelu → 0 where 1 + tanh cancels, gelu → x) are checked.
  inputScale: 8,
});
