// GELU_QUICK — ggml_gelu_quick(a) (GGML_UNARY_OP_GELU_QUICK): ggml_gelu_quick_f32,
// x · (1 / (1 + expf(GELU_QUICK_COEF · x))), GELU_QUICK_COEF = -1.702f. The formula, not the CPU's
// f16 table (as GELU). Nothing cancels; the bound widens with 1.702·|x| for exp's error.
import { expWidening, UNARY_MATRIX } from './elementwise-case';
import { defineUnary } from './kit';

/** ggml-cpu/vec.h's GELU_QUICK_COEF, as the f32 it is. */
export const GELU_QUICK_COEF = Math.fround(-1.702);

export const GELU_QUICK = defineUnary({
  name: 'GELU_QUICK',
  summary: 'dst = x / (1 + e^(-1.702·x)) (ggml_gelu_quick, ggml_gelu_quick_inplace)',
  matrix: UNARY_MATRIX,
  element: (x) => {
    const ref = x * (1 / (1 + Math.exp(GELU_QUICK_COEF * x)));
    return { ref, epsFloor: Math.abs(ref) * (expWidening(GELU_QUICK_COEF * x) - 1) };
  },
  expr: 'x * (1.0 / (1.0 + exp(gelu_quick_coef * x)))',
  constants: { gelu_quick_coef: GELU_QUICK_COEF },
  inputScale: 8,
});
