import { describe, expect, it } from 'vitest';
import { canRepeat, contiguous, describeTensor, forEachElement, isContiguous, isTransposed, nelements, nrows, permute, rowsContiguous, spanBytes, stridedRows, transpose, view } from './tensor';

describe('ggml tensors', () => {
  it('lays out a packed tensor as ggml_new_tensor_4d does', () => {
    const t = contiguous('f32', [5, 3, 2]);
    expect(t.ne).toEqual([5, 3, 2, 1]);
    expect(t.nb).toEqual([4, 20, 60, 120]);
    expect(t.bufferSizeBytes).toBe(120);
    expect(nelements(t)).toBe(30);
    expect(nrows(t)).toBe(6);
    expect(isContiguous(t)).toBe(true);
    expect(contiguous('f16', [5, 3]).nb).toEqual([2, 10, 30, 30]);
  });

  it('permutes like ggml_permute: source dim i moves to axis[i]', () => {
    const t = contiguous('f32', [4, 3, 2, 1]);
    const p = permute(t, [0, 2, 1, 3]);
    expect(p.ne).toEqual([4, 2, 3, 1]);
    expect(p.nb).toEqual([4, 48, 16, 96]);
    expect(isContiguous(p)).toBe(false);
    expect(rowsContiguous(p)).toBe(true);
    const tr = transpose(t);
    expect(tr.ne).toEqual([3, 4, 2, 1]);
    expect(tr.nb).toEqual([16, 4, 48, 96]);
    expect(isTransposed(tr)).toBe(true);
    expect(rowsContiguous(tr)).toBe(false);
  });

  it('makes strided-row views inside a wider packed tensor', () => {
    const t = stridedRows('f32', [10, 4], 13, 1);
    expect(t.ne).toEqual([10, 4, 1, 1]);
    expect(t.nb).toEqual([4, 52, 208, 208]);
    expect(t.offsetBytes).toBe(4);
    expect(t.bufferSizeBytes).toBe(13 * 4 * 4);
    expect(spanBytes(t)).toBe(3 * 52 + 9 * 4 + 4);
    expect(isContiguous(t)).toBe(false);
    expect(describeTensor(t)).toBe('10x4 f32 rows-strided(13)');
  });

  it('refuses views that reach past their buffer, and bad dims', () => {
    const t = contiguous('f32', [8, 2]);
    expect(() => view(t, [8, 2], [40, 80, 80], 0)).toThrow(/reaches past its 64 B buffer/);
    expect(() => contiguous('f32', [0, 2])).toThrow(/ne\[0\] must be a positive integer/);
    expect(() => contiguous('f32', [1, 2, 3, 4, 5])).toThrow(/1 to 4 dimensions/);
    expect(() => permute(t, [0, 0, 1, 2])).toThrow(/permutation/);
  });

  it('walks elements in ggml order through strides', () => {
    const p = permute(contiguous('f32', [2, 3, 2]), [0, 2, 1, 3]);
    const offsets: number[] = [];
    forEachElement(p, (_i, off) => offsets.push(off / 4));
    // dims [2, 2, 3]: i1 walks the source's planes, i2 its rows.
    expect(offsets).toEqual([0, 1, 6, 7, 2, 3, 8, 9, 4, 5, 10, 11]);
  });

  it('broadcasts as ggml_can_repeat allows', () => {
    const a = contiguous('f32', [8, 6, 2]);
    expect(canRepeat(contiguous('f32', [8]), a)).toBe(true);
    expect(canRepeat(contiguous('f32', [4, 3]), a)).toBe(true);
    expect(canRepeat(contiguous('f32', [3]), a)).toBe(false);
  });
});
