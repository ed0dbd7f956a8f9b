// NEG — ggml_neg(a) (GGML_UNARY_OP_NEG): dst = -x, ggml_vec_neg_f32. Exact.
import { UNARY_MATRIX } from './elementwise-case';
import { defineUnary } from './kit';

export const NEG = defineUnary({
  name: 'NEG',
  summary: 'dst = -x (ggml_neg, ggml_neg_inplace)',
  matrix: UNARY_MATRIX,
  element: (x) => -x,
  expr: '-x',
});
