// GET_ROWS_BACK — ggml_get_rows_back(a, b, c): the gradient of GET_ROWS into its table. a is the
// gradient of get_rows' result [ne0, nIdx] (a matrix), b the i32 indices [nIdx] (a vector), c
// the table, used only for its shape [ne0, rows] (ggml asserts is_matrix(a), is_vector(b),
// b->type == I32, is_matrix(c), a->ne[0] == c->ne[0]); c is no source of the node. dst is a new
// packed f32 [ne0, rows]: zeros, then for i = 0..nIdx−1 in order, dst[:, b[i]] += a[:, i].
// ggml's CPU kernel reads a's row i at i·nb1 (asserting nb00 == sizeof(float)) and b as packed
// ints, and checks no index: out of range it writes outside dst, so inputs() never draws one.
// ggml reads a's rows 0..nIdx−1, so a has exactly nIdx rows here (fewer would read past a).
import nativeWgsl from '../../../kernels/GET_ROWS_BACK/get_rows_back.wgsl?raw';
import { uniformSchema } from '../codegen/uniforms';
import { gather, randomBuffer, randomIntBuffer } from '../hostdata';
import { inputSeed } from '../inputs';
import { grid2d, type KernelSpec, nativeTemplated } from '../kernel';
import { contiguous, nelements } from '../tensor';
import { commonRejection } from './contract';
import { layoutSpecs, PACKED, pickLayout, ROWS_STRIDED, type ViewLayout } from './elementwise-case';
import { noGeneratedPath } from './native-only';
import { caseLabel, OpCaseError, parseParams, type OpCase, type OpDef, type ParamSpec, eachElementOnce } from './types';

/** GET_ROWS_BACK has no op_params. */
export const PARAMS: readonly ParamSpec[] = [];

/** Each layout's view of the gradient [ne0, nIdx]. */
const LAYOUTS: readonly ViewLayout[] = [
  { name: 'contiguous', doc: 'gradient and indices packed', view: PACKED },
  { name: 'src0-rows-strided', doc: 'the gradient is a view whose rows sit in a wider packed tensor', view: ROWS_STRIDED },
];

function makeCase(dims: readonly number[], layout: string = 'contiguous', params: Readonly<Record<string, number>> = {}): OpCase {
  parseParams('GET_ROWS_BACK', PARAMS, params);
  if (dims.length !== 3) throw new OpCaseError(`GET_ROWS_BACK takes 3 dims (ne0 x rows x nIdx: dst [ne0, rows], gradient [ne0, nIdx], indices [nIdx]), got ${dims.length}`);
  const [ne0, rows, nIdx] = dims;
  const grad = pickLayout('GET_ROWS_BACK', LAYOUTS, layout).view([ne0, nIdx]);
  const idx = contiguous('i32', [nIdx]);
  const dst = contiguous('f32', [ne0, rows]);
  return Object.freeze({ op: 'GET_ROWS_BACK', dims: Object.freeze([...dims]), layout, label: caseLabel(dims, layout, 'contiguous'), srcs: Object.freeze([grad, idx]), dst, inplace: false, params: Object.freeze({}) });
}

/** The gradient at random in [-1, 1); every index a row of dst (duplicates likely, as in a batch of tokens). */
function inputs(c: OpCase, seed: number): ArrayBuffer[] {
  const [grad, idx] = c.srcs;
  return [randomBuffer(grad, inputSeed(seed, 0)), randomIntBuffer(idx, inputSeed(seed, 1), 0, c.dst.ne[1])];
}

/**
 * f64 sums in ggml's order. k is the most rows any dst row gathers (its f32 sum's length);
 * the floor is Σ|terms| there, so gradients that cancel keep a bound.
 */
function oracle(c: OpCase, srcs: readonly ArrayBuffer[]) {
  const grad = gather(c.srcs[0], srcs[0]);
  const idx = gather(c.srcs[1], srcs[1]);
  const [ne0, rows] = c.dst.ne;
  const ref = new Float64Array(ne0 * rows);
  const epsFloor = new Float64Array(ne0 * rows);
  const hits = new Int32Array(rows);
  idx.forEach((r, i) => {
    if (!(r >= 0 && r < rows)) throw new OpCaseError(`GET_ROWS_BACK: index ${r} at [${i}] is outside dst's ${rows} rows (ggml would write outside dst)`);
    hits[r]++;
    for (let j = 0; j < ne0; j++) {
      ref[r * ne0 + j] += grad[i * ne0 + j];
      epsFloor[r * ne0 + j] += Math.abs(grad[i * ne0 + j]);
    }
  });
  return { ref, epsFloor, terms: hits.reduce((m, h) => Math.max(m, h), 1) };
}

const NATIVE_WG = 256;

/** The gradient, the indices and dst as the shared Tensor descriptors. */
const GET_ROWS_BACK_PARAMS = uniformSchema('Params', { src0: 'tensor', src1: 'tensor', dst: 'tensor' });

/** One workgroup per dst row. */
function native(c: OpCase): KernelSpec {
  const [src0, src1] = c.srcs;
  return nativeTemplated('GET_ROWS_BACK/get_rows_back.wgsl', nativeWgsl, ['src0', 'src1', 'dst', 'params'], grid2d(c.dst.ne[1]), GET_ROWS_BACK_PARAMS, { src0, src1, dst: c.dst }, { WG: NATIVE_WG }, { src1: 'i32' });
}

/** Why no family takes it (the registry's evidence says the same). */
export const GET_ROWS_BACK_NATIVE_ONLY =
  'a scatter-add (rows of the gradient summed into the rows their indices name): WGSL has no float atomics, so a dst row must gather its own matches in order, and neither the elementwise family (one expression per element, no loop) nor the row family (reductions along a row) expresses that search';

export const GET_ROWS_BACK: OpDef = {
  name: 'GET_ROWS_BACK',
  bench: { dims: [4096, 32000, 512] },
  summary: 'dst = zeros, then dst[:, idx[i]] += grad[:, i] in order (ggml_get_rows_back; the embedding gradient)',
  shapeSyntax: 'ne0 x rows x nIdx: dst [ne0, rows], gradient [ne0, nIdx], i32 indices [nIdx]',
  layouts: layoutSpecs(LAYOUTS),
  params: PARAMS,
  matrix: [
    // An embedding gradient: 4096-wide rows, a 13-row table slice, 9 tokens (some repeat, some rows
    // none). Few dst rows: a row is a workgroup, and SwiftShader (CI's adapter) pays per workgroup.
    { dims: [4096, 13, 9], layout: 'contiguous' },
    { dims: [1000, 37, 63], layout: 'contiguous' },
    { dims: [257, 20, 31], layout: 'contiguous' },
    // More indices than one 256-index chunk of the kernel: partial sums carried between chunks.
    { dims: [64, 5, 300], layout: 'contiguous' },
    { dims: [33, 3, 600], layout: 'contiguous' },
    { dims: [4093, 7, 11], layout: 'src0-rows-strided' },
  ],
  makeCase,
  inputs,
  oracle,
  flops: () => null,
  bytes: eachElementOnce,
  features: (c) => ({ ne0: c.dst.ne[0], rows: c.dst.ne[1], n: nelements(c.dst), nIdx: c.srcs[1].ne[0] }),
  native,
  ...noGeneratedPath('GET_ROWS_BACK', 'elementwise', GET_ROWS_BACK_NATIVE_ONLY),
  require: commonRejection,
};
