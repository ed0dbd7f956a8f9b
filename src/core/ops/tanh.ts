// TANH — ggml_tanh(a) (GGML_UNARY_OP_TANH): dst = tanhf(x), ggml_vec_tanh_f32. WGSL's tanh is
// derived from exp (sinh/cosh), which overflows to inf/inf = NaN on some drivers past |x| ≈ 44:
// x is clamped to ±15 first, where f32 tanh is already ±1 exactly, so nothing changes but the NaN.
// Error: an absolute one from the exp terms (size ~1), widened with |x| as exp's.
import { expWidening, UNARY_MATRIX } from './elementwise-case';
import { defineUnary } from './kit';

export const TANH = defineUnary({
  name: 'TANH',
  summary: 'dst = tanh x (ggml_tanh, ggml_tanh_inplace)',
  matrix: UNARY_MATRIX,
  element: (x) => ({ ref: Math.tanh(x), epsFloor: expWidening(x) }),
  expr: 'tanh(clamp(x, T(-15.0), T(15.0)))',
  inputScale: 8,
});
