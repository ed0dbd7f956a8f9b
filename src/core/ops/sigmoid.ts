// SIGMOID — ggml_sigmoid(a) (GGML_UNARY_OP_SIGMOID): ggml_vec_sigmoid_f32, 1 / (1 + expf(-x)).
// Nothing cancels (1 + e⁻ˣ ≥ 1); the bound widens with |x| for exp's error.
import { expWidening, UNARY_MATRIX } from './elementwise-case';
import { defineUnary } from './kit';

export const SIGMOID = defineUnary({
  name: 'SIGMOID',
  summary: 'dst = 1 / (1 + e⁻ˣ) (ggml_sigmoid, ggml_sigmoid_inplace)',
  matrix: UNARY_MATRIX,
  element: (x) => {
    const ref = 1 / (1 + Math.exp(-x));
    return { ref, epsFloor: ref * (expWidening(x) - 1) };
  },
  expr: '1.0 / (1.0 + exp(-x))',
  inputScale: 8,
});
