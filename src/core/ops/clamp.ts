// CLAMP — ggml_clamp(a, min, max) (GGML_OP_CLAMP, op_params = { min, max } as f32): ggml's
// compute_forward_clamp_f32, MAX(MIN(x, max), min) — so min wins where min > max, and NaN gives
// max then min (WGSL's clamp would differ on both; the snippet spells ggml's selects). Exact.
import { defineUnary, UNARY_MATRIX_WITH } from './kit';

export const CLAMP = defineUnary({
  name: 'CLAMP',
  summary: 'dst = MAX(MIN(x, max), min) (ggml_clamp; in place, as ggml builds it, is the inplace layout)',
  params: [
    { name: 'min', type: 'f32', default: -1, doc: 'the lower bound (op_params[0])' },
    { name: 'max', type: 'f32', default: 1, doc: 'the upper bound (op_params[1])' },
  ],
  matrix: UNARY_MATRIX_WITH({ min: -0.25, max: 0.5 }),
  element: (x, p) => {
    const lo = Math.fround(p.min);
    const hi = Math.fround(p.max);
    const m = x < hi ? x : hi;
    return m > lo ? m : lo;
  },
  expr: 'clamp_ggml(x, T(min), T(max))',
  functions: 'fn clamp_ggml(x: T, lo: T, hi: T) -> T {\n  let m = select(hi, x, x < hi);\n  return select(lo, m, m > lo);\n}',
  inputScale: 2,
});
