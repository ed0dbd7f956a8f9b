// COUNT_EQUAL — ggml_count_equal(a, b): the number of positions where the i32 tensors a and b
// (ggml asserts same shape; the CPU kernel reads both through all four strides) are equal,
// as an I64 scalar. The lab has no i64 dtype and WGSL no 64-bit integer, so dst is modelled as
// ggml's 8 bytes: an i32 tensor [2] holding the low and the high u32 word (little-endian I64),
// compared exactly. ggml-opt adds this op (over ARGMAX results) to every training step.
// ggml's CPU kernel splits rows as `i02 = (ir - i03*ne03)/ne01`, which is only right when
// ne03 == 1 (for ne03 > 1 it visits wrong rows); the lab counts every element, as ggml's
// CUDA kernel and the op's definition do.
import type { NormSnippet } from '../families/norm';
import { gather, randomIntBuffer } from '../hostdata';
import { inputSeed } from '../inputs';
import type { Schedule } from '../schedule/schedule';
import { contiguous, isContiguous, nelements, sameShape, transpose, type TensorDesc } from '../tensor';
import { defineRowOp, type RowKernel } from './row-kit';
import { cases, layoutError, planesSwapped, rowsStrided } from './rows-common';
import { OpCaseError, type OpCase, type Rejection } from './types';

const LAYOUTS = [
  { name: 'contiguous', doc: 'src0 and src1 packed i32, same shape' },
  { name: 'src1-rows-strided', doc: 'src1 is a view whose rows sit in a wider packed tensor (odd row stride)' },
  { name: 'src0-transposed', doc: 'src0 is the transpose of a packed tensor (rows not contiguous; ggml reads through nb00)' },
  { name: 'src0-permuted', doc: 'src0 is permute(0,2,1,3) of a packed tensor (planes swapped)' },
] as const;

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

/**
 * The row template's FLAT variant: one workgroup walks every element (dst has one value, and a
 * dispatch has no grid-wide barrier to zero and then accumulate it), each addressed by its
 * coordinates through both tensors' strides; a thread's count is a u32 (n < 2^32), and the
 * counts meet in the tree as 64-bit (lo, hi) sums with an explicit carry: ggml's I64 as two u32
 * words, low then high (its little-endian bytes), since WGSL has no 64-bit integers.
 */
const native: RowKernel = {
  flat: true,
  operands: [
    { name: 'a', src: 0 },
    { name: 'b', src: 1 },
  ],
  reduce: {
    acc: 'vec2<u32>',
    ident: 'vec2<u32>(0u)',
    step: 'acc.x += select(0u, 1u, a == b);',
    combine: 'let lo = a.x + b.x;\n  return vec2<u32>(lo, a.y + b.y + select(0u, 1u, lo < a.x));',
  },
  finish: [],
  write: ['total.x', 'total.y'],
  dstType: 'u32',
};

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

/** f32 counts every integer below 2^24 exactly. */
export const MAX_GENERATED_COUNT = 2 ** 24;

function require(c: OpCase): Rejection | null {
  if (!c.srcs.every(isContiguous)) return { code: 'not-contiguous', reason: 'the generated kernel reads both tensors as one packed row (as ggml’s CUDA kernel asserts); views run native' };
  if (nelements(c.srcs[0]) >= MAX_GENERATED_COUNT) return { code: 'count-over-2^24', reason: `${nelements(c.srcs[0])} elements: the generated count is an f32 sum, exact below 2^24; more run native` };
  return null;
}

/** The map compares scalars (i32 == i32): vectors would need a vector select. */
function fits(s: Schedule): string[] {
  return s.family === 'norm' && s.vectorWidth !== 1 ? [`vectorWidth ${s.vectorWidth}: COUNT_EQUAL's comparison map is scalar (vectorWidth 1)`] : [];
}

export const COUNT_EQUAL = defineRowOp({
  name: 'COUNT_EQUAL',
  summary: 'dst = #(src0 == src1) over all elements of two i32 tensors (ggml_count_equal; I64 output as two u32 words)',
  shapeSyntax: 'ne0xne1[xne2xne3] of src0 and src1 (dst is one I64)',
  layouts: LAYOUTS,
  matrix: [
    ...cases('contiguous', [512], [65535], [1000, 11, 3], [7, 5, 3, 2]),
    ...cases('src1-rows-strided', [4093, 7]),
    ...cases('src0-transposed', [37, 129]),
    ...cases('src0-permuted', [33, 8, 4, 3]),
  ],
  sources(ne, layout) {
    const [ne0, ne1, ne2, ne3] = ne;
    const dst = { ...contiguous('i32', [2]), layout: 'i64-words' };
    const packed = contiguous('i32', ne);
    switch (layout) {
      case 'contiguous':
        return { srcs: [packed, contiguous('i32', ne)], dst };
      case 'src1-rows-strided':
        return { srcs: [packed, rowsStrided(ne, 'i32')], dst };
      case 'src0-transposed':
        return { srcs: [transpose(contiguous('i32', [ne1, ne0, ne2, ne3])), packed], dst };
      case 'src0-permuted':
        return { srcs: [planesSwapped(ne, 'i32'), packed], dst };
      case 'inplace':
        throw layoutError('COUNT_EQUAL', layout, LAYOUTS, 'ggml has no in-place count_equal (dst is one I64)');
    }
    return undefined;
  },
  // ggml reads both through all four strides: rows need not be contiguous.
  contiguousRows: [],
  check(c) {
    const [a, b] = c.srcs;
    if (!sameShape(a, b)) throw new OpCaseError(`COUNT_EQUAL: src0 ${a.ne.join('x')} and src1 ${b.ne.join('x')} must have the same shape (ggml asserts ggml_are_same_shape)`);
  },
  oracle,
  inputs,
  bytes: (c) => ({ readBytes: nelements(c.srcs[0]) * 8, writeBytes: 8 }),
  features: (c) => ({ ne0: c.srcs[0].ne[0], rows: c.srcs[0].ne[1] * c.srcs[0].ne[2] * c.srcs[0].ne[3], n: nelements(c.srcs[0]) }),
  native,
  generated: snippet,
  require,
  fits,
});
