// MUL — ggml_mul(a, b): dst = a * b with b repeated over a (ggml_can_repeat(b, a)), ADD's
// broadcast and views; ggml_mul_inplace makes dst a view of a. The RMS_NORM weight (b one row)
// and the SwiGLU gate product of a llama step. ggml's CPU kernel multiplies in f32.
import { BINARY_MATRIX, defineBinary } from './kit';

export const MUL = defineBinary({
  name: 'MUL',
  summary: 'dst = src0 * src1, src1 broadcast over src0 (ggml_mul, ggml_mul_inplace)',
  // The binary kit's matrix was MUL's: every broadcast layout, odd and even rows.
  matrix: BINARY_MATRIX,
  // One rounding of an exact product: relative to the product itself, nothing cancels.
  element: (a, b) => ({ ref: a * b, epsFloor: 0 }),
  expr: 'a * b',
});
