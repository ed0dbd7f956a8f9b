// SCALE — ggml_scale(a, s) and ggml_scale_bias(a, s, b): dst = x·s (+ b), op_params = { s, b } as
// f32 (b = 0 for ggml_scale). ggml asserts a padded-1d a when building and contiguous src0 and dst
// when computing, so the only views are a packed a and, for the *_inplace forms, dst = a itself.
// ggml's CPU kernel computes x·s when b == 0 and x·s + b otherwise (fused on its SIMD path); the
// lab's kernels do the same, so b = 0 gives x·s exactly.
import { defineUnary } from './kit';
import type { ParamSpec } from './types';

export const PARAMS: readonly ParamSpec[] = Object.freeze([
  { name: 's', type: 'f32', default: 1, doc: 'the factor (op_params[0])' },
  { name: 'b', type: 'f32', default: 0, doc: 'the bias, ggml_scale_bias only (op_params[1]); 0 for ggml_scale' },
]);

const LAYOUTS = [
  { name: 'contiguous', doc: 'src0 and dst packed, same shape (ggml asserts ggml_is_contiguous)' },
  { name: 'inplace', doc: 'ggml_scale_inplace / ggml_scale_bias_inplace: dst is src0 itself' },
] as const;

export const SCALE = defineUnary({
  name: 'SCALE',
  summary: 'dst = x·s + b (ggml_scale, ggml_scale_bias, and their _inplace forms)',
  params: PARAMS,
  layouts: LAYOUTS,
  matrix: [
    { dims: [4096, 16], layout: 'contiguous' },
    // 1/√128: the attention scale of a llama head.
    { dims: [4093, 7], layout: 'contiguous', params: { s: 0.08838835 } },
    { dims: [1000, 11, 3], layout: 'inplace', params: { s: -2.5, b: 0.5 } },
    { dims: [4096, 8], layout: 'inplace' },
  ],
  // epsFloor: the two terms that meet, |x·s| + |b| (x·s + b cancels where x·s ≈ −b).
  element: (x, p) => {
    const s = Math.fround(p.s);
    const b = Math.fround(p.b);
    return { ref: x * s + b, epsFloor: Math.abs(x * s) + Math.abs(b) };
  },
  expr: (p) => (p.b === 0 ? 'x * s' : 'x * s + b'),
});
