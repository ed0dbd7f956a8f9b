// ABS — ggml_abs(a) (GGML_UNARY_OP_ABS): dst = |x|, ggml_vec_abs_f32 (fabsf). Exact.
import { UNARY_MATRIX } from './elementwise-case';
import { defineUnary } from './kit';

export const ABS = defineUnary({
  name: 'ABS',
  summary: 'dst = |x| (ggml_abs, ggml_abs_inplace)',
  matrix: UNARY_MATRIX,
  element: (x) => Math.abs(x),
  expr: 'abs(x)',
});
