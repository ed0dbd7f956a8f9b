// STEP — ggml_step(a) (GGML_UNARY_OP_STEP): ggml_vec_step_f32, x > 0 → 1, else 0 (0 and NaN → 0). Exact.
import { UNARY_MATRIX } from './elementwise-case';
import { defineUnary } from './kit';

export const STEP = defineUnary({
  name: 'STEP',
  summary: 'dst = 1 if x > 0, else 0 (ggml_step, ggml_step_inplace)',
  matrix: UNARY_MATRIX,
  element: (x) => (x > 0 ? 1 : 0),
  expr: 'select(T(0.0), T(1.0), x > T(0.0))',
});
