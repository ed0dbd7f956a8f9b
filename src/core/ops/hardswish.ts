// HARDSWISH — ggml_hardswish(a) (GGML_UNARY_OP_HARDSWISH): ggml_vec_hardswish_f32,
// x · fminf(1, fmaxf(0, (x + 3) / 6)). As HARDSIGMOID, times x. Inputs in [-4, 4).
import { UNARY_MATRIX } from './elementwise-case';
import { defineUnary } from './kit';

export const HARDSWISH = defineUnary({
  name: 'HARDSWISH',
  summary: 'dst = x · min(1, max(0, (x + 3) / 6)) (ggml_hardswish)',
  matrix: UNARY_MATRIX,
  element: (x) => ({ ref: x * Math.min(1, Math.max(0, (x + 3) / 6)), epsFloor: (Math.abs(x) * (Math.abs(x) + 3)) / 6 }),
  expr: 'x * min(T(1.0), max(T(0.0), (x + 3.0) / 6.0))',
  inputScale: 4,
});
