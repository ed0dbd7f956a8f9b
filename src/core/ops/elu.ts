// ELU — ggml_elu(a) (GGML_UNARY_OP_ELU): ggml_vec_elu_f32, x > 0 ? x : expm1f(x). WGSL has no
// expm1: exp(x) - 1 loses the relative accuracy near 0, so for x ≤ 0 the element's floor is the
// size of the terms (1), widened as exp's; the f64 oracle uses Math.expm1, ggml's function.
import { expWidening, UNARY_MATRIX } from './elementwise-case';
import { defineUnary } from './kit';

export const ELU = defineUnary({
  name: 'ELU',
  summary: 'dst = x if x > 0, else eˣ − 1 (ggml_elu, ggml_elu_inplace; alpha 1)',
  matrix: UNARY_MATRIX,
  element: (x) => (x > 0 ? x : { ref: Math.expm1(x), epsFloor: expWidening(x) }),
  expr: 'select(exp(x) - 1.0, x, x > T(0.0))',
  inputScale: 8,
});
