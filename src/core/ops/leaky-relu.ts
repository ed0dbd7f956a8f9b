// LEAKY_RELU — ggml_leaky_relu(a, negative_slope, inplace) (GGML_OP_LEAKY_RELU, op_params[0] the
// f32 slope): ggml_vec_leaky_relu_f32, (x > 0 ? x : 0) + slope · (x < 0 ? x : 0). One rounding.
import { defineUnary, UNARY_MATRIX_WITH } from './kit';

export const LEAKY_RELU = defineUnary({
  name: 'LEAKY_RELU',
  summary: 'dst = x if x > 0, else negative_slope · x (ggml_leaky_relu)',
  params: [{ name: 'negative_slope', type: 'f32', default: 0.01, doc: 'the slope below 0 (op_params[0])' }],
  matrix: UNARY_MATRIX_WITH({ negative_slope: 0.2 }),
  element: (x, p) => (x > 0 ? x : 0) + Math.fround(p.negative_slope) * (x < 0 ? x : 0),
  expr: 'select(T(0.0), x, x > T(0.0)) + negative_slope * select(T(0.0), x, x < T(0.0))',
});
