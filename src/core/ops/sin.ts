// SIN — ggml_sin(a): dst = sinf(x), ggml_vec_sin_f32. WGSL promises sin only within an absolute
// 2⁻¹¹ on [-π, π] (and nothing outside), so inputs stay in [-3, 3) and the element's floor is
// that absolute error: 2⁻¹¹ = 8·2⁻²³ · 256.
import { UNARY_MATRIX } from './elementwise-case';
import { defineUnary } from './kit';

export const SIN = defineUnary({
  name: 'SIN',
  summary: 'dst = sin x (ggml_sin, ggml_sin_inplace)',
  matrix: UNARY_MATRIX,
  element: (x) => ({ ref: Math.sin(x), epsFloor: 256 }),
  expr: 'sin(x)',
  inputScale: 3,
});
