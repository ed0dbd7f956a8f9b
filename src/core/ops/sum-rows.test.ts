import { describe, expect, it } from 'vitest';
import { GUARD_BYTES } from '../hostdata';
import { bufferFor } from '../../../test/fixtures/buffers';
import { SUM_ROWS } from './sum-rows';
import { OpCaseError } from './types';

describe('SUM_ROWS makeCase', () => {
  it('dst is a new packed [1, ne1, ne2, ne3]', () => {
    const c = SUM_ROWS.makeCase([4093, 13, 2]);
    expect(c.label).toBe('4093x13x2');
    expect(c.dst.ne).toEqual([1, 13, 2, 1]);
    expect(c.dst.nb).toEqual([4, 4, 52, 104]);
    expect(c.params).toEqual({});
  });
  it('views: rows strided and permuted planes', () => {
    expect(SUM_ROWS.makeCase([5, 3], 'src0-rows-strided').srcs[0].nb).toEqual([4, 32, 96, 96]);
    expect(SUM_ROWS.makeCase([5, 3, 2], 'src0-permuted').srcs[0].nb).toEqual([4, 40, 20, 120]);
  });
  it('errors name what is wrong', () => {
    expect(() => SUM_ROWS.makeCase([8], 'inplace')).toThrow(OpCaseError);
    expect(() => SUM_ROWS.makeCase([8], 'inplace')).toThrow(/no layout 'inplace': ggml has no in-place sum_rows/);
    expect(() => SUM_ROWS.makeCase([8], 'transposed')).toThrow(/layouts: contiguous, src0-rows-strided, src0-permuted/);
    expect(() => SUM_ROWS.makeCase([8], 'contiguous', { eps: 1 })).toThrow(/SUM_ROWS takes no params, got eps/);
    expect(() => SUM_ROWS.makeCase([1, 2, 3, 4, 5])).toThrow(/1 to 4 dims/);
  });
  it('every matrix case builds', () => {
    for (const m of SUM_ROWS.matrix) expect(() => SUM_ROWS.makeCase(m.dims, m.layout, m.params)).not.toThrow();
  });
});

describe('SUM_ROWS oracle', () => {
  it('hand-computed rows, read through the view (gaps hold 100)', () => {
    const c = SUM_ROWS.makeCase([3, 2], 'src0-rows-strided');
    // rows [1, 2, 3.5] and [-1, 0.25, 4]: sums 6.5 and 3.25; |x| sums 6.5 and 5.25.
    const r = SUM_ROWS.oracle(c, [bufferFor(c.srcs[0], [1, 2, 3.5, -1, 0.25, 4])]);
    expect([...r.ref]).toEqual([6.5, 3.25]);
    expect([...r.epsFloor]).toEqual([6.5, 5.25]);
    expect(r.terms).toBe(3);
  });
  it('permuted planes: dst row (i1, i2) sums src0 row (i1, i2) of the view', () => {
    const c = SUM_ROWS.makeCase([2, 2, 2], 'src0-permuted');
    // ggml order of the view: rows (i1, i2) = (0,0) (1,0) (0,1) (1,1).
    const r = SUM_ROWS.oracle(c, [bufferFor(c.srcs[0], [1, 2, 3, 4, 5, 6, 7, 8])]);
    expect([...r.ref]).toEqual([3, 7, 11, 15]);
  });
});

describe('SUM_ROWS native', () => {
  it('uniform: src0 and dst as Tensor descriptors (view strides, guard offsets); one workgroup per row', () => {
    const c = SUM_ROWS.makeCase([5, 3, 2], 'src0-rows-strided');
    const k = SUM_ROWS.native(c);
    const g = GUARD_BYTES / 4;
    expect([...k.uniforms!.slice(0, 24)]).toEqual([5, 3, 2, 1, 1, 8, 24, 48, g + 1, 30, 0, 0, 1, 3, 2, 1, 1, 1, 3, 6, g, 6, 0, 0]);
    expect(k.dispatch).toEqual([6, 1, 1]);
    expect(k.bindings.map((b) => b.role)).toEqual(['src0', 'dst', 'params']);
    expect(SUM_ROWS.fits({ family: 'norm', workgroupSize: 256, vectorWidth: 1, reduction: 'shared', unroll: 1 }, c)).toEqual([]);
    expect(SUM_ROWS.fits({ family: 'norm', workgroupSize: 256, vectorWidth: 4, reduction: 'shared', unroll: 1 }, c)).toEqual([
      'vectorWidth 4 needs ne0 % 4 == 0, got ne0 = 5',
      "vectorWidth 4 needs src0's rows to start on 4-element boundaries (offset 65 elements)",
    ]);
  });
});

describe('SUM_ROWS generated (row family)', () => {
  it('one sum per row, written by thread 0 at the row of dst [1, ne1, ne2, ne3] (WGSL snapshot)', () => {
    const s = { family: 'norm' as const, workgroupSize: 64, vectorWidth: 4, reduction: 'shared' as const, unroll: 2 };
    const k = SUM_ROWS.generate(s, SUM_ROWS.makeCase([128, 3, 2], 'src0-permuted'));
    expect(k.dispatch).toEqual([6, 1, 1]);
    expect(k.wgsl).toMatch(/dst\[dst_row\] = sum;/);
    expect(k.wgsl).toMatchSnapshot();
  });
});
