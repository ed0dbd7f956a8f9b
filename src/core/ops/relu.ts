// RELU — ggml_relu(a) (GGML_UNARY_OP_RELU): ggml_vec_relu_f32, x > 0 ? x : 0 (so -0 and NaN give
// +0, which max(x, 0) would not promise). Exact.
import { UNARY_MATRIX } from './elementwise-case';
import { defineUnary } from './kit';

export const RELU = defineUnary({
  name: 'RELU',
  summary: 'dst = x if x > 0, else 0 (ggml_relu, ggml_relu_inplace)',
  matrix: UNARY_MATRIX,
  element: (x) => (x > 0 ? x : 0),
  expr: 'select(T(0.0), x, x > T(0.0))',
});
