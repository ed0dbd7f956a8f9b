// SGN — ggml_sgn(a) (GGML_UNARY_OP_SGN): ggml_vec_sgn_f32, x > 0 → 1, x < 0 → -1, else 0 (so 0,
// -0 and NaN give 0; WGSL's sign() is not used, its NaN is unspecified). Exact.
import { UNARY_MATRIX } from './elementwise-case';
import { defineUnary } from './kit';

export const SGN = defineUnary({
  name: 'SGN',
  summary: 'dst = 1 if x > 0, -1 if x < 0, else 0 (ggml_sgn, ggml_sgn_inplace)',
  matrix: UNARY_MATRIX,
  element: (x) => (x > 0 ? 1 : x < 0 ? -1 : 0),
  expr: 'select(select(T(0.0), T(-1.0), x < T(0.0)), T(1.0), x > T(0.0))',
});
