// MUL — ggml_mul(a, b): dst = a * b with b repeated over a (ggml_can_repeat(b, a)), ADD's
// broadcast and views; ggml_mul_inplace makes dst a view of a. The RMS_NORM weight (b one row)
// and the SwiGLU gate product of a llama step. ggml's CPU kernel multiplies in f32.
import nativeWgsl from '../../../kernels/MUL/mul.wgsl?raw';
import { ELEMENTWISE, type ElementwiseSnippet } from '../families/elementwise';
import { generatedPath } from '../families/types';
import { BROADCAST_LAYOUTS, binaryNative, broadcastOracle, makeBroadcastCase } from './broadcast';
import { commonRejection } from './contract';
import { rowFeatures, type OpCase, type OpDef, type ParamSpec, eachElementOnce } from './types';

export const PARAMS: readonly ParamSpec[] = Object.freeze([]);

/** src1 broadcast by the family's modulo addressing (any strides at vectorWidth 1); in place, src0 is dst's buffer. */
function snippet(c: OpCase): ElementwiseSnippet {
  const [src0, src1] = c.srcs;
  return {
    sources: [
      { name: 'a', tensor: src0, binding: c.inplace ? 'dst' : 'src0' },
      { name: 'b', tensor: src1, binding: 'src1' },
    ],
    outputs: [{ tensor: c.dst, binding: 'dst', expr: 'a * b' }],
  };
}

const generated = generatedPath(ELEMENTWISE, snippet);

export const MUL: OpDef = {
  name: 'MUL',
  summary: 'dst = src0 * src1, src1 broadcast over src0 (ggml_mul, ggml_mul_inplace)',
  shapeSyntax: 'ne0xne1[xne2xne3] of dst',
  layouts: BROADCAST_LAYOUTS,
  params: PARAMS,
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
  makeCase: (dims, layout = 'contiguous', params = {}) => makeBroadcastCase('MUL', dims, layout, PARAMS, params),
  // One rounding of an exact product: relative to the product itself, nothing cancels.
  oracle: (c, srcs) => broadcastOracle(c, srcs, (a, b) => a * b, () => 0),
  flops: () => null,
  bytes: eachElementOnce,
  features: rowFeatures,
  native: (c) => binaryNative(c, 'MUL/mul.wgsl', nativeWgsl),
  family: generated.family,
  require: (c, adapter) => commonRejection(c, adapter),
  fits: generated.fits,
  generate: generated.generate,
};
