// SQR — ggml_sqr(a): dst = x·x, ggml_vec_sqr_f32. One rounding of an exact product.
import { UNARY_MATRIX } from './elementwise-case';
import { defineUnary } from './kit';

export const SQR = defineUnary({
  name: 'SQR',
  summary: 'dst = x² (ggml_sqr, ggml_sqr_inplace)',
  matrix: UNARY_MATRIX,
  element: (x) => ({ ref: x * x, epsFloor: 0 }),
  expr: 'x * x',
  inputScale: 8,
});
