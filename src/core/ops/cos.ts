// COS — ggml_cos(a): dst = cosf(x), ggml_vec_cos_f32. As SIN: WGSL's cos is within an absolute
// 2⁻¹¹ on [-π, π], so inputs stay in [-3, 3) and the element's floor is 256 (2⁻¹¹ / (8·2⁻²³)).
import { UNARY_MATRIX } from './elementwise-case';
import { defineUnary } from './kit';

export const COS = defineUnary({
  name: 'COS',
  summary: 'dst = cos x (ggml_cos, ggml_cos_inplace)',
  matrix: UNARY_MATRIX,
  element: (x) => ({ ref: Math.cos(x), epsFloor: 256 }),
  expr: 'cos(x)',
  inputScale: 3,
});
