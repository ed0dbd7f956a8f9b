// SUM_ROWS — ggml_sum_rows(a): dst[0, i1, i2, i3] = Σ_i0 a[i0, i1, i2, i3]; dst is a new packed
// f32 tensor [1, ne1, ne2, ne3]. ggml's CPU kernel asserts nb00 == sizeof(float) (rows
// contiguous; rows and planes may have any stride) and sums each row in double.
import type { NormSnippet } from '../families/norm';
import { gather } from '../hostdata';
import { contiguous, nelements, nrows } from '../tensor';
import { defineRowOp, familyOperands, type RowKernel } from './row-kit';
import { cases, layoutError, planesSwapped, rowsStrided, SRC0_PERMUTED, SRC0_ROWS_STRIDED } from './rows-common';
import type { OpCase } from './types';

const LAYOUTS = [
  { name: 'contiguous', doc: 'src0 packed; dst packed [1, ne1, ne2, ne3]' },
  SRC0_ROWS_STRIDED,
  SRC0_PERMUTED,
] as const;

/**
 * f64 reference. epsFloor is Σ|x| over the row: the f32 partial sums round relative to the
 * magnitudes they carry, so a row whose terms cancel to ~0 is not held to a bound of 0.
 */
function oracle(c: OpCase, srcs: readonly ArrayBuffer[]) {
  const x = gather(c.srcs[0], srcs[0]);
  const ne0 = c.srcs[0].ne[0];
  const rows = nrows(c.dst);
  const ref = new Float64Array(rows);
  const epsFloor = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    let sum = 0;
    let abs = 0;
    for (let i = 0; i < ne0; i++) {
      sum += x[r * ne0 + i];
      abs += Math.abs(x[r * ne0 + i]);
    }
    ref[r] = sum;
    epsFloor[r] = abs;
  }
  return { ref, epsFloor, terms: ne0 };
}

/** The row template: Σx, the row's one dst element. */
const native: RowKernel = { operands: [{ name: 'x', src: 0 }], reduce: { sum: 'x' }, write: ['total'] };

/** SUM_ROWS for the row family: one sum per row, written as the row's scalar. */
function snippet(c: OpCase): NormSnippet {
  return {
    operands: familyOperands(c, native.operands),
    reductions: [{ name: 'sum', map: 'x', combine: 'sum' }],
    output: { kind: 'scalar', tensor: c.dst, expr: 'sum' },
  };
}

export const SUM_ROWS = defineRowOp({
  name: 'SUM_ROWS',
  summary: 'dst[0, i1, i2, i3] = Σ_i0 src0[i0, i1, i2, i3] (ggml_sum_rows)',
  shapeSyntax: 'ne0xne1[xne2xne3] of src0 (dst is 1xne1xne2xne3)',
  layouts: LAYOUTS,
  matrix: [
    // Few rows: SwiftShader (CI's adapter, a CPU) pays per workgroup, and a workgroup is a row.
    ...cases('contiguous', [4096, 8], [4093, 13], [1000, 11, 3], [7, 13, 3, 2]),
    ...cases('src0-rows-strided', [4093, 7], [255, 9, 3, 2]),
    ...cases('src0-permuted', [128, 8, 4], [1000, 11, 3]),
  ],
  sources(ne, layout) {
    const dst = contiguous('f32', [1, ne[1], ne[2], ne[3]]);
    switch (layout) {
      case 'contiguous':
        return { srcs: [contiguous('f32', ne)], dst };
      case 'src0-rows-strided':
        return { srcs: [rowsStrided(ne)], dst };
      case 'src0-permuted':
        return { srcs: [planesSwapped(ne)], dst };
      case 'inplace':
        throw layoutError('SUM_ROWS', layout, LAYOUTS, 'ggml has no in-place sum_rows (dst is [1, ne1, ne2, ne3], not src0’s shape)');
    }
    return undefined;
  },
  oracle,
  features: (c) => ({ ne0: c.srcs[0].ne[0], rows: nrows(c.dst), n: nelements(c.srcs[0]) }),
  native,
  generated: snippet,
});
