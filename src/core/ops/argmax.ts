// ARGMAX — ggml_argmax(a): dst[i1] = the index of the largest element of row i1, an i32 tensor
// [ne1]. ggml asserts ggml_is_matrix(a) (ne2 == ne3 == 1) and ne0 ≤ INT32_MAX; its CPU kernel
// reads rows through nb01 and asserts nb00 == sizeof(float). Ties go to the LAST index: the CPU
// loop is `max = MAX(max, x[i]); if (max == x[i]) idx = i;` (CUDA's warp reduction picks an
// unspecified one of the tied indices; the lab follows the CPU, ggml's reference).
// NaN: ggml's loop restarts its maximum after a NaN (MAX(max, NaN) is NaN, and the next
// MAX(NaN, y) is y); the oracle follows that loop, the kernels skip NaN. The lab's inputs are
// finite, so no case tells the two apart; do not feed NaN rows.
import type { NormSnippet } from '../families/norm';
import { gather, randomBuffer } from '../hostdata';
import { inputSeed } from '../inputs';
import { contiguous, nelements } from '../tensor';
import { defineRowOp, familyOperands, oneElementPerRow, type RowKernel } from './row-kit';
import { cases, layoutError, rowsStrided } from './rows-common';
import { OpCaseError, type OpCase } from './types';

const SYNTAX = 'ne0xne1 of src0 (a matrix; dst is i32 [ne1])';

const LAYOUTS = [
  { name: 'contiguous', doc: 'src0 a packed matrix; dst packed i32 [ne1]' },
  { name: 'src0-rows-strided', doc: 'src0 is a view whose rows sit in a wider packed matrix (odd row stride)' },
] as const;

const INT32_MAX = 2 ** 31 - 1;

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

/**
 * The row template: each thread scans its share in increasing order (`>=` keeps its last
 * maximum), then (value, index) pairs meet in the tree preferring the larger value, then the
 * larger index. A thread with no element holds (-inf, 0): it never beats a real element, and
 * where it ties one (a -inf) its index 0 never beats the real one's. A row of -inf gives ne0 - 1.
 */
const native = (c: OpCase): RowKernel => ({
  operands: [{ name: 'x', src: 0 }],
  functions: 'struct Best {\n  v: f32,\n  i: u32,\n};',
  reduce: {
    acc: 'Best',
    ident: 'Best(neg_inf, 0u)',
    step: 'if (x >= acc.v) { acc = Best(x, i); }',
    combine: 'if (b.v > a.v || (b.v == a.v && b.i > a.i)) { return b; }\n  return a;',
  },
  finish: [],
  write: ['i32(total.i)'],
  dst: oneElementPerRow(c.dst),
});

/**
 * ARGMAX for the row family: the row's max, then the largest INDEX where x equals it (ggml's
 * last-index tie rule): (INDEX + 1)·(sign(x − max) + 1) − 1 is INDEX there and −1 below the max.
 * Written as the row's i32 scalar.
 */
function snippet(c: OpCase): NormSnippet {
  return {
    operands: familyOperands(c, native(c).operands),
    reductions: [
      { name: 'row_max', map: 'x', combine: 'max' },
      { name: 'last', map: '(INDEX + 1.0) * (sign(x - row_max) + 1.0) - 1.0', combine: 'max' },
    ],
    // dst [ne1] seen as the family's one-per-row [1, ne1]: row i1 writes element i1.
    output: { kind: 'scalar', tensor: oneElementPerRow(c.dst), expr: 'i32(last)', type: 'i32' },
  };
}

export const ARGMAX = defineRowOp({
  name: 'ARGMAX',
  bench: { dims: [32000, 512] },
  summary: 'dst[i1] = index of the max of row i1, ties to the last index (ggml_argmax; i32 output)',
  shapeSyntax: SYNTAX,
  layouts: LAYOUTS,
  matrix: [
    // A vocabulary row (the logits ggml-opt takes ARGMAX of), odd rows, one-element rows.
    ...cases('contiguous', [32000, 2], [4096, 5], [4093, 13], [10, 64], [1, 7]),
    ...cases('src0-rows-strided', [4093, 7], [255, 33]),
  ],
  dims(dims) {
    if (dims.length < 1 || dims.length > 4) throw new OpCaseError(`ARGMAX takes 1 or 2 dims (${SYNTAX}), got ${dims.length}`);
    const [ne0, ne1 = 1, ne2 = 1, ne3 = 1] = dims;
    if (ne2 !== 1 || ne3 !== 1) throw new OpCaseError(`ARGMAX: src0 must be a matrix (ggml asserts ggml_is_matrix: ne2 == ne3 == 1), got ${dims.join('x')}`);
    if (ne0 > INT32_MAX) throw new OpCaseError(`ARGMAX: ne0 = ${ne0} exceeds INT32_MAX (ggml asserts a->ne[0] <= INT32_MAX)`);
    return [ne0, ne1, 1, 1];
  },
  sources(ne, layout) {
    const dst = contiguous('i32', [ne[1]]);
    switch (layout) {
      case 'contiguous':
        return { srcs: [contiguous('f32', [ne[0], ne[1]])], dst };
      case 'src0-rows-strided':
        return { srcs: [rowsStrided([ne[0], ne[1]])], dst };
      case 'inplace':
        throw layoutError('ARGMAX', layout, LAYOUTS, 'ggml has no in-place argmax (dst is i32 [ne1])');
    }
    return undefined;
  },
  oracle,
  inputs,
  features: (c) => ({ ne0: c.srcs[0].ne[0], rows: c.srcs[0].ne[1], n: nelements(c.srcs[0]) }),
  native,
  // Rows are contiguous in every case makeCase builds; INDEX is exact for ne0 < 2^24 (fits says so beyond).
  generated: snippet,
});
