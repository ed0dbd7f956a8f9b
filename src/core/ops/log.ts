// LOG — ggml_log(a): dst = logf(x), ggml_vec_log_f32. Its domain is x > 0 (NaN and -inf
// outside), so inputs are drawn in (0, 8]. WGSL's log is within 3 ULP, but only within an
// absolute 2⁻²¹ for x in [0.5, 2] (where log x is near 0): that is the element's floor there.
import { UNARY_MATRIX } from './elementwise-case';
import { defineUnary } from './kit';

export const LOG = defineUnary({
  name: 'LOG',
  summary: 'dst = ln x, x > 0 (ggml_log, ggml_log_inplace)',
  matrix: UNARY_MATRIX,
  // 2⁻²¹ absolute = 8·2⁻²³ · 0.5: an epsFloor of 0.5 in [0.5, 2].
  element: (x) => ({ ref: Math.log(x), epsFloor: x >= 0.5 && x <= 2 ? 0.5 : Math.abs(Math.log(x)) }),
  expr: 'log(x)',
  domain: (r) => 4 * (r + 1) + 2 ** -10,
});
