// SUB — ggml_sub(a, b): dst = a − b with b repeated over a (ADD's broadcast and views);
// ggml_sub_inplace makes dst a view of a. ggml's binary-ops op_sub.
import { BINARY_MATRIX, defineBinary } from './kit';

export const SUB = defineBinary({
  name: 'SUB',
  summary: 'dst = src0 − src1, src1 broadcast over src0 (ggml_sub, ggml_sub_inplace)',
  matrix: BINARY_MATRIX,
  // epsFloor |a| + |b|: where a − b cancels, the rounding stays the size of the terms.
  element: (a, b) => ({ ref: a - b, epsFloor: Math.abs(a) + Math.abs(b) }),
  expr: 'a - b',
});
