// MUL — ggml_mul(a, b): dst = a * b with b repeated over a (ggml_can_repeat(b, a)), ADD's
// broadcast and views; ggml_mul_inplace makes dst a view of a. The RMS_NORM weight (b one row)
// and the SwiGLU gate product of a llama step. ggml's CPU kernel multiplies in f32.
import { defineBinary } from './kit';

export const MUL = defineBinary({
  name: 'MUL',
  summary: 'dst = src0 * src1, src1 broadcast over src0 (ggml_mul, ggml_mul_inplace)',
  matrix: [
    { dims: [4096, 16], layout: 'contiguous' },
    { dims: [4093, 7], layout: 'contiguous' },
    { dims: [2048, 16], layout: 'inplace' },
    { dims: [4096, 16], layout: 'broadcast-row' },
    { dims: [1000, 11, 3], layout: 'broadcast-col' },
    { dims: [4096, 8], layout: 'src0-rows-strided' },
    { dims: [129, 8, 5], layout: 'src1-permuted' },
    { dims: [256, 64], layout: 'src1-transposed' },
  ],
  // One rounding of an exact product: relative to the product itself, nothing cancels.
  element: (a, b) => ({ ref: a * b, epsFloor: 0 }),
  expr: 'a * b',
});
