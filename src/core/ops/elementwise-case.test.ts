import { describe, expect, it } from 'vitest';
import { contiguous, stridedRows, permute, view } from '../tensor';
import { expWidening, isContiguous1, spreadInputs } from './elementwise-case';
import { SILU } from './silu';

describe('isContiguous1 (ggml_is_contiguous_1)', () => {
  it('allows a wide row stride with higher dims packed over it, refuses permuted planes and strided elements', () => {
    expect(isContiguous1(contiguous('f32', [5, 3, 2]))).toBe(true);
    expect(isContiguous1(stridedRows('f32', [5, 3, 2], 8, 1))).toBe(true);
    expect(isContiguous1(permute(contiguous('f32', [5, 2, 3]), [0, 2, 1, 3]))).toBe(false);
    expect(isContiguous1(permute(contiguous('f32', [3, 5]), [1, 0, 2, 3]))).toBe(false);
    // ne2 == 1: nb3 must still be ne1·nb1, whatever nb2 says (ggml's loop skips nb2 then).
    const parent = contiguous('f32', [40, 8]);
    expect(isContiguous1(view(parent, [4, 2, 1, 2], [16, 999 * 4, 32], 0))).toBe(true);
    expect(isContiguous1(view(parent, [4, 2, 1, 2], [16, 32, 64], 0))).toBe(false);
  });
});

describe('expWidening and spreadInputs', () => {
  it("widens the bound by 2 ULP per unit of exp's argument", () => {
    expect(expWidening(0)).toBe(1);
    expect(expWidening(-8)).toBe(3);
  });

  it('scales every element of each source buffer, seeded', () => {
    const c = SILU.makeCase([64, 4], 'src0-rows-strided');
    const [buf] = spreadInputs(c, 3, [8]);
    const xs = new Float32Array(buf);
    expect(xs.length).toBe(67 * 4);
    expect(Math.max(...xs.map(Math.abs))).toBeGreaterThan(7);
    expect(xs.every((x) => x >= -8 && x < 8)).toBe(true);
    expect(new Float32Array(spreadInputs(c, 3, [8])[0])).toEqual(xs);
  });
});
