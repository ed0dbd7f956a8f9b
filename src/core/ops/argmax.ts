// ARGMAX — ggml_argmax(a): dst[i1] = the index of the largest element of row i1, an i32 tensor
// [ne1]. ggml asserts ggml_is_matrix(a) (ne2 == ne3 == 1) and ne0 ≤ INT32_MAX; its CPU kernel
// reads rows through nb01 and asserts nb00 == sizeof(float). Ties go to the LAST index: the CPU
// loop is `max = MAX(max, x[i]); if (max == x[i]) idx = i;` (CUDA's warp reduction picks an
// unspecified one of the tied indices; the lab follows the CPU, ggml's reference).
// NaN: ggml's loop restarts its maximum after a NaN (MAX(max, NaN) is NaN, and the next
// MAX(NaN, y) is y); the oracle follows that loop, the kernels skip NaN. The lab's inputs are
// finite, so no case tells the two apart; do not feed NaN rows.
import nativeWgsl from '../../../kernels/ARGMAX/argmax.wgsl?raw';
import { deviceOffsetElements, gather, randomBuffer } from '../hostdata';
import { uniformSchema } from '../codegen/uniforms';
import { f32Bits, grid2d, type KernelSpec, nativeTemplated } from '../kernel';
import { NORM, type NormSnippet } from '../families/norm';
import { generatedPath } from '../families/types';
import { contiguous, elementStrides, nelements, rowsContiguous, stridedRows } from '../tensor';
import { commonRejection } from './contract';
import { layoutError } from './rows-common';
import { caseLabel, paramsLabel, parseParams, type ParamSpec, OpCaseError, type OpCase, type OpDef, eachElementOnce } from './types';
import { inputSeed } from '../inputs';

const SYNTAX = 'ne0xne1 of src0 (a matrix; dst is i32 [ne1])';

const LAYOUTS = [
  { name: 'contiguous', doc: 'src0 a packed matrix; dst packed i32 [ne1]' },
  { name: 'src0-rows-strided', doc: 'src0 is a view whose rows sit in a wider packed matrix (odd row stride)' },
] as const;

/** ggml_argmax has no op_params. */
export const PARAMS: readonly ParamSpec[] = Object.freeze([]);

const INT32_MAX = 2 ** 31 - 1;

function makeCase(dims: readonly number[], layout: string = 'contiguous', params: Readonly<Record<string, number>> = {}): OpCase {
  if (dims.length < 1 || dims.length > 4) throw new OpCaseError(`ARGMAX takes 1 or 2 dims (${SYNTAX}), got ${dims.length}`);
  const [ne0, ne1 = 1, ne2 = 1, ne3 = 1] = dims;
  if (ne2 !== 1 || ne3 !== 1) throw new OpCaseError(`ARGMAX: src0 must be a matrix (ggml asserts ggml_is_matrix: ne2 == ne3 == 1), got ${dims.join('x')}`);
  if (ne0 > INT32_MAX) throw new OpCaseError(`ARGMAX: ne0 = ${ne0} exceeds INT32_MAX (ggml asserts a->ne[0] <= INT32_MAX)`);
  const checked = parseParams('ARGMAX', PARAMS, params);
  let src0 = contiguous('f32', [ne0, ne1]);
  switch (layout) {
    case 'contiguous':
      break;
    case 'src0-rows-strided':
      src0 = stridedRows('f32', [ne0, ne1], ne0 + 3, 1);
      break;
    case 'inplace':
      throw layoutError('ARGMAX', layout, LAYOUTS, 'ggml has no in-place argmax (dst is i32 [ne1])');
    default:
      throw layoutError('ARGMAX', layout, LAYOUTS);
  }
  if (!rowsContiguous(src0)) throw new OpCaseError(`ARGMAX: src0 rows must be contiguous (ggml asserts nb00 == sizeof(float)), got nb0 = ${src0.nb[0]} B`);
  const dst = contiguous('i32', [ne1]);
  return Object.freeze({ op: 'ARGMAX', dims: Object.freeze([...dims]), layout, label: caseLabel(dims, layout, 'contiguous', paramsLabel(PARAMS, checked)), srcs: Object.freeze([src0]), dst, inplace: false, params: checked });
}

/** ggml's CPU loop, f32 values compared as read: the last index of the maximum. */
export function argmaxRow(x: Float64Array, base: number, n: number): number {
  let max = -Infinity;
  let idx = 0;
  for (let i = 0; i < n; i++) {
    const v = x[base + i];
    max = max > v ? max : v; // C's MAX(a, b): ((a) > (b) ? (a) : (b))
    if (max === v) idx = i;
  }
  return idx;
}

function oracle(c: OpCase, srcs: readonly ArrayBuffer[]) {
  const x = gather(c.srcs[0], srcs[0]);
  const [ne0, ne1] = c.srcs[0].ne;
  const ref = new Float64Array(ne1);
  for (let r = 0; r < ne1; r++) ref[r] = argmaxRow(x, r * ne0, ne0);
  return { ref, epsFloor: new Float64Array(ne1), terms: 1 };
}

/**
 * Seeded inputs on a grid of 1/16 in [-1, 1]: 33 values, so long rows tie at their maximum
 * many times and the tie rule (last index) is what the check sees.
 */
function inputs(c: OpCase, seed: number): ArrayBuffer[] {
  const buf = randomBuffer(c.srcs[0], inputSeed(seed, 0));
  const f = new Float32Array(buf);
  for (let i = 0; i < f.length; i++) f[i] = Math.round(f[i] * 16) / 16;
  return [buf];
}

const NATIVE_WG = 256;

/** src0's row stride and offset, dst's stride and offset (elements), and -inf's bits. */
const PARAMS_SCHEMA = uniformSchema('Params', { ne0: 'u32', ne1: 'u32', s01: 'u32', off0: 'u32', s1: 'u32', offd: 'u32', neg_inf_bits: 'u32' });

function native(c: OpCase): KernelSpec {
  const [src0] = c.srcs;
  const [ne0, ne1] = src0.ne;
  const values = { ne0, ne1, s01: elementStrides(src0)[1], off0: deviceOffsetElements(src0), s1: elementStrides(c.dst)[0], offd: deviceOffsetElements(c.dst), neg_inf_bits: f32Bits(-Infinity) };
  return nativeTemplated('ARGMAX/argmax.wgsl', nativeWgsl, ['src0', 'dst', 'params'], grid2d(ne1), PARAMS_SCHEMA, values, { WG: NATIVE_WG });
}

/**
 * ARGMAX for the row family: the row's max, then the largest INDEX where x equals it (ggml's
 * last-index tie rule): (INDEX + 1)·(sign(x − max) + 1) − 1 is INDEX there and −1 below the max.
 * Written as the row's i32 scalar.
 */
function snippet(c: OpCase): NormSnippet {
  return {
    operands: [{ name: 'x', binding: 'src0', tensor: c.srcs[0] }],
    reductions: [
      { name: 'row_max', map: 'x', combine: 'max' },
      { name: 'last', map: '(INDEX + 1.0) * (sign(x - row_max) + 1.0) - 1.0', combine: 'max' },
    ],
    // dst [ne1] seen as the family's one-per-row [1, ne1]: row i1 writes element i1.
    output: { kind: 'scalar', tensor: { ...c.dst, ne: [1, c.dst.ne[0], 1, 1], nb: [4, 4, c.dst.nb[1], c.dst.nb[1]] }, expr: 'i32(last)', type: 'i32' },
  };
}

const generated = generatedPath(NORM, snippet);

export const ARGMAX: OpDef = {
  name: 'ARGMAX',
  bench: { dims: [32000, 512] },
  summary: 'dst[i1] = index of the max of row i1, ties to the last index (ggml_argmax; i32 output)',
  shapeSyntax: SYNTAX,
  layouts: LAYOUTS,
  params: PARAMS,
  matrix: [
    // A vocabulary row (the logits ggml-opt takes ARGMAX of), odd rows, one-element rows.
    { dims: [32000, 2], layout: 'contiguous' },
    { dims: [4096, 5], layout: 'contiguous' },
    { dims: [4093, 13], layout: 'contiguous' },
    { dims: [10, 64], layout: 'contiguous' },
    { dims: [1, 7], layout: 'contiguous' },
    { dims: [4093, 7], layout: 'src0-rows-strided' },
    { dims: [255, 33], layout: 'src0-rows-strided' },
  ],
  makeCase,
  oracle,
  inputs,
  flops: () => null,
  bytes: eachElementOnce,
  features: (c) => ({ ne0: c.srcs[0].ne[0], rows: c.srcs[0].ne[1], n: nelements(c.srcs[0]) }),
  native,
  family: generated.family,
  // Rows are contiguous in every case makeCase builds; INDEX is exact for ne0 < 2^24 (fits says so beyond).
  require: (c, adapter) => commonRejection(c, adapter),
  fits: generated.fits,
  generate: generated.generate,
};
