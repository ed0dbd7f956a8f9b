// GELU_ERF — ggml_gelu_erf(a) (GGML_UNARY_OP_GELU_ERF): ggml_vec_gelu_erf_f32,
// 0.5·x·(1 + erff(x·SQRT_2_INV)). WGSL has no erf: the kernels use Abramowitz & Stegun 7.1.26
// (|error| ≤ 1.5e-7 absolute on erf), so the element's floor is 0.5·|x|·(1 + |erf|), widened for
// exp(-z²)'s error; the f64 oracle's erf is a series (|z| ≤ 3) or a continued fraction.
import { expWidening, UNARY_MATRIX } from './elementwise-case';
import { defineUnary } from './kit';

/** ggml-cpu/vec.h's SQRT_2_INV as the f32 it is. */
export const SQRT_2_INV = Math.fround(0.70710678118654752440084436210484);

/** erf in f64: its Maclaurin series for |z| ≤ 3, else 1 − erfc by erfc's continued fraction. */
export function erf(z: number): number {
  const a = Math.abs(z);
  if (a <= 3) {
    let term = z;
    let sum = z;
    for (let n = 1; n < 80; n++) {
      term *= (-z * z) / n;
      sum += term / (2 * n + 1);
    }
    return (2 / Math.sqrt(Math.PI)) * sum;
  }
  let frac = 0;
  for (let k = 60; k >= 1; k--) frac = k / 2 / (a + frac);
  const erfc = Math.exp(-a * a) / Math.sqrt(Math.PI) / (a + frac);
  return Math.sign(z) * (1 - erfc);
}

export const GELU_ERF = defineUnary({
  name: 'GELU_ERF',
  summary: 'dst = 0.5·x·(1 + erf(x/√2)) (ggml_gelu_erf, ggml_gelu_erf_inplace)',
  matrix: UNARY_MATRIX,
  element: (x) => {
    const e = erf(x * SQRT_2_INV);
    return { ref: 0.5 * x * (1 + e), epsFloor: 0.5 * Math.abs(x) * (1 + Math.abs(e)) * expWidening(0.5 * x * x) };
  },
  expr: '0.5 * x * (1.0 + erf_as(x * sqrt_2_inv))',
  constants: { sqrt_2_inv: SQRT_2_INV },
  functions: `// erf by Abramowitz & Stegun 7.1.26: |error| ≤ 1.5e-7.
fn erf_as(z: T) -> T {
  let a = abs(z);
  let t = 1.0 / (1.0 + 0.3275911 * a);
  let poly = ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t;
  return sign(z) * (1.0 - poly * exp(-a * a));
}`,
  inputScale: 4,
});
