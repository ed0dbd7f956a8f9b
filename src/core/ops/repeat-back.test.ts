import { describe, expect, it } from 'vitest';
import { REPEAT_BACK, repeats } from './repeat-back';
import { bufferFor } from '../../../test/fixtures/buffers';
import { OpCaseError } from './types';

describe('REPEAT_BACK makeCase', () => {
  it('dims are dst then repeats; src0 is their product', () => {
    const c = REPEAT_BACK.makeCase([4096, 1, 1, 1, 1, 15]);
    expect(c.dst.ne).toEqual([4096, 1, 1, 1]);
    expect(c.srcs[0].ne).toEqual([4096, 15, 1, 1]);
    expect(repeats(c)).toEqual([1, 15, 1, 1]);
    expect(REPEAT_BACK.makeCase([7, 5, 3, 2, 3, 2, 5, 2]).srcs[0].ne).toEqual([21, 10, 15, 4]);
  });
  it('errors name what is wrong', () => {
    expect(() => REPEAT_BACK.makeCase([8, 1])).toThrow(OpCaseError);
    expect(() => REPEAT_BACK.makeCase([8, 1])).toThrow(/4 to 8 dims \(ne0xne1xne2xne3 of dst, then repeats/);
    expect(() => REPEAT_BACK.makeCase([8, 1, 1, 1], 'inplace')).toThrow(/no in-place repeat_back/);
    expect(() => REPEAT_BACK.makeCase([8, 1, 1, 1], 'contiguous', { r1: 2 })).toThrow(/REPEAT_BACK takes no params, got r1/);
  });
  it('every matrix case builds', () => {
    for (const m of REPEAT_BACK.matrix) expect(() => REPEAT_BACK.makeCase(m.dims, m.layout, m.params)).not.toThrow();
  });
});

describe('REPEAT_BACK oracle', () => {
  it('a bias gradient: [2, 3] summed over its rows into [2]', () => {
    const c = REPEAT_BACK.makeCase([2, 1, 1, 1, 1, 3]);
    const r = REPEAT_BACK.oracle(c, [bufferFor(c.srcs[0], [1, 2, 3, 4, 5, -6])]);
    expect([...r.ref]).toEqual([9, 0]);
    expect([...r.epsFloor]).toEqual([9, 12]);
    expect(r.terms).toBe(3);
  });
  it('tiles along ne0 (stride ne0, not adjacent pairs) and ne2, through a strided view', () => {
    // dst [2, 1, 1, 1], repeats r0 = 2, r2 = 2: src0 [4, 1, 2, 1]; dst[k] = Σ src0[i0·2 + k, 0, i2].
    const c = REPEAT_BACK.makeCase([2, 1, 1, 1, 2, 1, 2], 'src0-rows-strided');
    const r = REPEAT_BACK.oracle(c, [bufferFor(c.srcs[0], [1, 10, 100, 1000, 2, 20, 200, 2000])]);
    expect([...r.ref]).toEqual([1 + 100 + 2 + 200, 10 + 1000 + 20 + 2000]);
    expect(r.terms).toBe(4);
  });
});

describe('REPEAT_BACK native', () => {
  it('one thread per dst element; src0 and dst as the shared Tensor uniform (repeats: their ne ratio)', () => {
    const c = REPEAT_BACK.makeCase([2, 1, 1, 1, 2, 1, 2], 'src0-rows-strided');
    const k = REPEAT_BACK.native(c);
    expect(k.dispatch).toEqual([1, 1, 1]);
    // src0 [4, 1, 2, 1] rows 7 elements apart, one element in.
    // Each Tensor: ne[4], element strides[4], offset, count, 2 words of padding.
    expect([...k.uniforms!]).toEqual([4, 1, 2, 1, 1, 7, 7, 14, 65, 8, 0, 0, 2, 1, 1, 1, 1, 2, 2, 2, 64, 2, 0, 0]);
  });
});
