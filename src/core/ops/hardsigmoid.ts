// HARDSIGMOID — ggml_hardsigmoid(a) (GGML_UNARY_OP_HARDSIGMOID): ggml_vec_hardsigmoid_f32,
// fminf(1, fmaxf(0, (x + 3) / 6)). x + 3 cancels near -3: the floor is the terms' size. Inputs in
// [-4, 4) reach both flat ends.
import { UNARY_MATRIX } from './elementwise-case';
import { defineUnary } from './kit';

export const HARDSIGMOID = defineUnary({
  name: 'HARDSIGMOID',
  summary: 'dst = min(1, max(0, (x + 3) / 6)) (ggml_hardsigmoid)',
  matrix: UNARY_MATRIX,
  element: (x) => ({ ref: Math.min(1, Math.max(0, (x + 3) / 6)), epsFloor: (Math.abs(x) + 3) / 6 }),
  expr: 'min(T(1.0), max(T(0.0), (x + 3.0) / 6.0))',
  inputScale: 4,
});
