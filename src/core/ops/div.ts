// DIV — ggml_div(a, b): dst = a / b with b repeated over a (ADD's broadcast and views);
// ggml_div_inplace makes dst a view of a. ggml's binary-ops op_div. b is drawn in ±[0.5, 1.5):
// away from 0, where a / b leaves f32 (WGSL's division is within 2.5 ULP for normal b).
import { BINARY_MATRIX, defineBinary } from './kit';

export const DIV = defineBinary({
  name: 'DIV',
  summary: 'dst = src0 / src1, src1 broadcast over src0 (ggml_div, ggml_div_inplace)',
  matrix: BINARY_MATRIX,
  element: (a, b) => a / b,
  expr: 'a / b',
  domain: (r, source) => (source === 1 ? Math.sign(r || 1) * (0.5 + Math.abs(r)) : r),
});
