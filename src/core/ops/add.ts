// ADD — ggml_add(a, b): dst = a + b with b repeated over a (ggml_can_repeat(b, a)); dst has
// a's shape; ggml_add_inplace makes dst a view of a. Like ggml's CPU kernel, dst and src0 rows
// must be contiguous; src1 may have any strides.
import nativeWgsl from '../../../kernels/ADD/add.wgsl?raw';
import { ELEMENTWISE, type ElementwiseSnippet } from '../families/elementwise';
import { generatedPath } from '../families/types';
import { rowsContiguous } from '../tensor';
import { BROADCAST_LAYOUTS, binaryNative, broadcastOracle, makeBroadcastCase } from './broadcast';
import { commonRejection } from './contract';
import { rowFeatures, type OpCase, type OpDef, type ParamSpec, eachElementOnce } from './types';

export const PARAMS: readonly ParamSpec[] = Object.freeze([]);

/** ADD for the elementwise family: src1 broadcast over src0 by modulo; in place, src0 is dst's buffer. */
function snippet(c: OpCase): ElementwiseSnippet {
  const [src0, src1] = c.srcs;
  return {
    sources: [
      { name: 'src0', tensor: src0, binding: c.inplace ? 'dst' : 'src0' },
      { name: 'src1', tensor: src1, binding: 'src1' },
    ],
    outputs: [{ tensor: c.dst, binding: 'dst', expr: 'src0 + src1' }],
  };
}

const generated = generatedPath(ELEMENTWISE, snippet);

export const ADD: OpDef = {
  name: 'ADD',
  summary: 'dst = src0 + src1, src1 broadcast over src0 (ggml_add, ggml_add_inplace)',
  shapeSyntax: 'ne0xne1[xne2xne3] of dst',
  layouts: BROADCAST_LAYOUTS,
  params: PARAMS,
  matrix: [
    { dims: [4096, 128], layout: 'contiguous' },
    { dims: [4093, 37], layout: 'contiguous' },
    { dims: [2048, 128], layout: 'inplace' },
    { dims: [4096, 64], layout: 'broadcast-row' },
    { dims: [1000, 33, 3], layout: 'broadcast-col' },
    { dims: [4096, 64], layout: 'src0-rows-strided' },
    { dims: [512, 64, 8], layout: 'src1-permuted' },
    { dims: [256, 256], layout: 'src1-transposed' },
  ],
  makeCase: (dims, layout = 'contiguous', params = {}) => makeBroadcastCase('ADD', dims, layout, PARAMS, params),
  // epsFloor |a| + |b|: where a + b cancels, the rounding stays the size of the terms.
  oracle: (c, srcs) => broadcastOracle(c, srcs, (a, b) => a + b, (a, b) => Math.abs(a) + Math.abs(b)),
  flops: () => null,
  bytes: eachElementOnce,
  features: rowFeatures,
  native: (c) => binaryNative(c, 'ADD/add.wgsl', nativeWgsl),
  family: generated.family,
  require: (c, adapter) =>
    commonRejection(c, adapter) ??
    (rowsContiguous(c.srcs[1]) ? null : { code: 'src1-rows-not-contiguous', reason: `src1 rows are not contiguous (nb0 = ${c.srcs[1].nb[0]} B): the generated kernel loads rows as vectors` }),
  fits: generated.fits,
  generate: generated.generate,
};
