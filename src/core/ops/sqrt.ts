// SQRT — ggml_sqrt(a): dst = sqrtf(x), ggml_vec_sqrt_f32. Its domain is x ≥ 0 (NaN below, which
// the checker would call wrong), so inputs are drawn in (0, 8]. WGSL's sqrt is within 2.5 ULP.
import { UNARY_MATRIX } from './elementwise-case';
import { defineUnary } from './kit';

export const SQRT = defineUnary({
  name: 'SQRT',
  summary: 'dst = √x, x ≥ 0 (ggml_sqrt, ggml_sqrt_inplace)',
  matrix: UNARY_MATRIX,
  element: (x) => Math.sqrt(x),
  expr: 'sqrt(x)',
  domain: (r) => 4 * (r + 1) + 2 ** -10,
});
