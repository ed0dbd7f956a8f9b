// EXP — ggml_exp(a) (GGML_UNARY_OP_EXP): dst = expf(x), ggml_vec_exp_f32. WGSL's exp is within
// 3 + 2·|x| ULP, so the bound widens with |x| (expWidening); x in [-8, 8) checks both tails.
import { expWidening, UNARY_MATRIX } from './elementwise-case';
import { defineUnary } from './kit';

export const EXP = defineUnary({
  name: 'EXP',
  summary: 'dst = eˣ (ggml_exp, ggml_exp_inplace)',
  matrix: UNARY_MATRIX,
  element: (x) => ({ ref: Math.exp(x), epsFloor: Math.exp(x) * (expWidening(x) - 1) }),
  expr: 'exp(x)',
  inputScale: 8,
});
