// COUNT_EQUAL — ggml_count_equal(a, b): the number of positions where the i32 tensors a and b
// (ggml asserts same shape; the CPU kernel reads both through all four strides) are equal,
// as an I64 scalar. The lab has no i64 dtype and WGSL no 64-bit integer, so dst is modelled as
// ggml's 8 bytes: an i32 tensor [2] holding the low and the high u32 word (little-endian I64),
// compared exactly. ggml-opt adds this op (over ARGMAX results) to every training step.
// ggml's CPU kernel splits rows as `i02 = (ir - i03*ne03)/ne01`, which is only right when
// ne03 == 1 (for ne03 > 1 it visits wrong rows); the lab counts every element, as ggml's
// CUDA kernel and the op's definition do.
import nativeWgsl from '../../../kernels/COUNT_EQUAL/count_equal.wgsl?raw';
import { deviceOffsetElements, gather, randomIntBuffer } from '../hostdata';
import { uniformSchema } from '../codegen/uniforms';
import { type KernelSpec, nativeTemplated } from '../kernel';
import { NORM, type NormSnippet } from '../families/norm';
import { generatedPath, scheduleKey } from '../families/types';
import type { Schedule } from '../schedule/schedule';
import { contiguous, elementStrides, isContiguous, nelements, permute, sameShape, stridedRows, transpose, type TensorDesc } from '../tensor';
import { commonRejection } from './contract';
import { dims4, layoutError } from './rows-common';
import { caseLabel, paramsLabel, parseParams, type ParamSpec, OpCaseError, type OpCase, type OpDef } from './types';
import { inputSeed } from '../inputs';

const SYNTAX = 'ne0xne1[xne2xne3] of src0 and src1 (dst is one I64)';

const LAYOUTS = [
  { name: 'contiguous', doc: 'src0 and src1 packed i32, same shape' },
  { name: 'src1-rows-strided', doc: 'src1 is a view whose rows sit in a wider packed tensor (odd row stride)' },
  { name: 'src0-transposed', doc: 'src0 is the transpose of a packed tensor (rows not contiguous; ggml reads through nb00)' },
  { name: 'src0-permuted', doc: 'src0 is permute(0,2,1,3) of a packed tensor (planes swapped)' },
] as const;

/** ggml_count_equal has no op_params. */
export const PARAMS: readonly ParamSpec[] = Object.freeze([]);

function makeCase(dims: readonly number[], layout: string = 'contiguous', params: Readonly<Record<string, number>> = {}): OpCase {
  const ne = dims4('COUNT_EQUAL', dims, SYNTAX);
  const checked = parseParams('COUNT_EQUAL', PARAMS, params);
  const [ne0, ne1, ne2, ne3] = ne;
  let a = contiguous('i32', ne);
  let b = contiguous('i32', ne);
  switch (layout) {
    case 'contiguous':
      break;
    case 'src1-rows-strided':
      b = stridedRows('i32', ne, ne0 + 3, 1);
      break;
    case 'src0-transposed':
      a = transpose(contiguous('i32', [ne1, ne0, ne2, ne3]));
      break;
    case 'src0-permuted':
      a = permute(contiguous('i32', [ne0, ne2, ne1, ne3]), [0, 2, 1, 3]);
      break;
    case 'inplace':
      throw layoutError('COUNT_EQUAL', layout, LAYOUTS, 'ggml has no in-place count_equal (dst is one I64)');
    default:
      throw layoutError('COUNT_EQUAL', layout, LAYOUTS);
  }
  if (!sameShape(a, b)) throw new OpCaseError(`COUNT_EQUAL: src0 ${a.ne.join('x')} and src1 ${b.ne.join('x')} must have the same shape (ggml asserts ggml_are_same_shape)`);
  const dst = { ...contiguous('i32', [2]), layout: 'i64-words' };
  return Object.freeze({ op: 'COUNT_EQUAL', dims: Object.freeze([...dims]), layout, label: caseLabel(dims, layout, 'contiguous', paramsLabel(PARAMS, checked)), srcs: Object.freeze([a, b]), dst, inplace: false, params: checked });
}

/** An I64 count as the two i32 elements the lab reads back: low word, then high word. */
export function i64Words(count: number): [number, number] {
  if (!Number.isSafeInteger(count) || count < 0) throw new Error(`${count} is not a count`);
  return [(count % 2 ** 32) | 0, Math.floor(count / 2 ** 32) | 0];
}

function oracle(c: OpCase, srcs: readonly ArrayBuffer[]) {
  const a = gather(c.srcs[0], srcs[0]);
  const b = gather(c.srcs[1], srcs[1]);
  let count = 0;
  for (let i = 0; i < a.length; i++) if (a[i] === b[i]) count++;
  return { ref: Float64Array.from(i64Words(count)), epsFloor: new Float64Array(2), terms: 1 };
}

/** Labels in [-2, 2): a quarter of the positions agree, and negative values are compared too. */
function inputs(c: OpCase, seed: number): ArrayBuffer[] {
  return c.srcs.map((t, i) => randomIntBuffer(t, inputSeed(seed, i), -2, 2));
}

const NATIVE_WG = 256;

/** The shape, n = elements, both sources' four strides and the three offsets, in elements. */
const PARAMS_SCHEMA = uniformSchema('Params', {
  ne0: 'u32', ne1: 'u32', ne2: 'u32', n: 'u32',
  s00: 'u32', s01: 'u32', s02: 'u32', s03: 'u32',
  s10: 'u32', s11: 'u32', s12: 'u32', s13: 'u32',
  off0: 'u32', off1: 'u32', offd: 'u32',
});

function native(c: OpCase): KernelSpec {
  const [a, b] = c.srcs;
  const [ne0, ne1, ne2] = a.ne;
  const [s00, s01, s02, s03] = elementStrides(a);
  const [s10, s11, s12, s13] = elementStrides(b);
  const values = { ne0, ne1, ne2, n: nelements(a), s00, s01, s02, s03, s10, s11, s12, s13, off0: deviceOffsetElements(a), off1: deviceOffsetElements(b), offd: deviceOffsetElements(c.dst) };
  return nativeTemplated('COUNT_EQUAL/count_equal.wgsl', nativeWgsl, ['src0', 'src1', 'dst', 'params'], [1, 1, 1], PARAMS_SCHEMA, values, { WG: NATIVE_WG });
}

/** A packed tensor seen as one row of all its elements. */
function asOneRow(t: TensorDesc): TensorDesc {
  const n = nelements(t);
  return { ...t, ne: [n, 1, 1, 1], nb: [4, 4 * n, 4 * n, 4 * n] };
}

/**
 * COUNT_EQUAL for the row family: both packed tensors as one row, Σ (a == b) in f32 (exact: the
 * contract keeps counts below 2^24), written as the I64's two words (the high one 0).
 */
function snippet(c: OpCase): NormSnippet {
  return {
    operands: [
      { name: 'a', binding: 'src0', tensor: asOneRow(c.srcs[0]) },
      { name: 'b', binding: 'src1', tensor: asOneRow(c.srcs[1]) },
    ],
    reductions: [{ name: 'count', map: 'select(0.0, 1.0, a == b)', combine: 'sum' }],
    output: { kind: 'scalar', tensor: { ...c.dst, ne: [1, 1, 1, 1] }, expr: 'i32(count)', type: 'i32', extra: ['0'] },
  };
}

const generated = generatedPath(NORM, snippet);

/** f32 counts every integer below 2^24 exactly. */
export const MAX_GENERATED_COUNT = 2 ** 24;

function require(c: OpCase, adapter: Parameters<OpDef['require']>[1]) {
  if (!c.srcs.every(isContiguous)) return { code: 'not-contiguous', reason: 'the generated kernel reads both tensors as one packed row (as ggml’s CUDA kernel asserts); views run native' };
  if (nelements(c.srcs[0]) >= MAX_GENERATED_COUNT) return { code: 'count-over-2^24', reason: `${nelements(c.srcs[0])} elements: the generated count is an f32 sum, exact below 2^24; more run native` };
  return commonRejection(c, adapter);
}

/** The map compares scalars (i32 == i32): vectors would need a vector select. */
function fits(s: Schedule, c: OpCase): string[] {
  const why = generated.fits(s, c);
  return s.family === 'norm' && s.vectorWidth !== 1 ? [...why, `vectorWidth ${s.vectorWidth}: COUNT_EQUAL's comparison map is scalar (vectorWidth 1)`] : why;
}

export const COUNT_EQUAL: OpDef = {
  name: 'COUNT_EQUAL',
  bench: { dims: [4096, 4096] },
  summary: 'dst = #(src0 == src1) over all elements of two i32 tensors (ggml_count_equal; I64 output as two u32 words)',
  shapeSyntax: SYNTAX,
  layouts: LAYOUTS,
  params: PARAMS,
  matrix: [
    { dims: [512], layout: 'contiguous' },
    { dims: [65535], layout: 'contiguous' },
    { dims: [1000, 11, 3], layout: 'contiguous' },
    { dims: [7, 5, 3, 2], layout: 'contiguous' },
    { dims: [4093, 7], layout: 'src1-rows-strided' },
    { dims: [37, 129], layout: 'src0-transposed' },
    { dims: [33, 8, 4, 3], layout: 'src0-permuted' },
  ],
  makeCase,
  oracle,
  inputs,
  flops: () => null,
  bytes: (c) => ({ readBytes: nelements(c.srcs[0]) * 8, writeBytes: 8 }),
  features: (c) => ({ ne0: c.srcs[0].ne[0], rows: c.srcs[0].ne[1] * c.srcs[0].ne[2] * c.srcs[0].ne[3], n: nelements(c.srcs[0]) }),
  native,
  family: generated.family,
  require,
  fits,
  generate: (s: Schedule, c: OpCase) => {
    const why = fits(s, c);
    if (why.length) throw new OpCaseError(`schedule ${scheduleKey(s)} cannot take COUNT_EQUAL ${c.label}: ${why.join('; ')}`);
    return generated.generate(s, c);
  },
};
