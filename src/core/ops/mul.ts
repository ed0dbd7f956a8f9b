// MUL — ggml_mul(a, b): dst = a * b with b repeated over a (ggml_can_repeat(b, a)), ADD's
// broadcast and views; ggml_mul_inplace makes dst a view of a. The RMS_NORM weight (b one row)
// and the SwiGLU gate product of a llama step. ggml's CPU kernel multiplies in f32.
import nativeWgsl from '../../../kernels/MUL/mul.wgsl?raw';
import nativeInplaceWgsl from '../../../kernels/MUL/mul_inplace.wgsl?raw';
import { nelements } from '../tensor';
import { BROADCAST_LAYOUTS, binaryNative, broadcastOracle, makeBroadcastCase } from './broadcast';
import { commonRejection } from './contract';
import { checkParams, noGeneratedPath, type ParamSpec } from './elementwise-case';
import { rowFeatures, type OpDef } from './types';

export const PARAMS: readonly ParamSpec[] = Object.freeze([]);

export const MUL: OpDef = {
  name: 'MUL',
  summary: 'dst = src0 * src1, src1 broadcast over src0 (ggml_mul, ggml_mul_inplace)',
  shapeSyntax: 'ne0xne1[xne2xne3] of dst',
  layouts: BROADCAST_LAYOUTS,
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
  makeCase: (dims, layout = 'contiguous', params = {}) => makeBroadcastCase('MUL', dims, layout, checkParams('MUL', PARAMS, params)),
  // One rounding of an exact product: relative to the product itself, nothing cancels.
  oracle: (c, srcs) => broadcastOracle(c, srcs, (a, b) => a * b, () => 0),
  flops: () => null,
  bytes: (c) => ({ readBytes: (nelements(c.srcs[0]) + nelements(c.srcs[1])) * 4, writeBytes: nelements(c.dst) * 4 }),
  features: rowFeatures,
  native: (c) => binaryNative(c, { plain: ['MUL/mul.wgsl', nativeWgsl], inplace: ['MUL/mul_inplace.wgsl', nativeInplaceWgsl] }),
  family: 'elementwise',
  require: (c, adapter) => commonRejection(c, adapter),
  ...noGeneratedPath('MUL'),
};
