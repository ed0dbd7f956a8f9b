import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../adapter';
import { contiguous, permute } from '../tensor';
import { checkGetRows, GET_ROWS } from './get-rows';
import { schedulesFor } from './registry';
import { bufferFor } from '../../../test/fixtures/buffers';
import { OpCaseError } from './types';

const adapter = { limits: DEFAULT_LIMITS, features: [] as string[] };

describe('GET_ROWS makeCase', () => {
  it('dims ne0 x tableRows x nIdx[x ne2 x ne3]: dst [ne0, nIdx, ne2, ne3], i32 indices [nIdx, ne2, ne3]', () => {
    const c = GET_ROWS.makeCase([129, 17, 33, 3, 2]);
    expect(c.srcs[0].ne).toEqual([129, 17, 3, 2]);
    expect(c.srcs[1].type).toBe('i32');
    expect(c.srcs[1].ne).toEqual([33, 3, 2, 1]);
    expect(c.dst.ne).toEqual([129, 33, 3, 2]);
    expect(c.dst.type).toBe('f32');
  });

  it('src1-transposed: indices read through nb10 = ne11·4', () => {
    const c = GET_ROWS.makeCase([64, 29, 31, 4], 'src1-transposed');
    expect(c.srcs[1].ne).toEqual([31, 4, 1, 1]);
    expect(c.srcs[1].nb.slice(0, 2)).toEqual([16, 4]);
    expect(() => GET_ROWS.makeCase([64, 29, 31], 'src1-transposed')).toThrow(/src1-transposed needs ne2 > 1/);
  });

  it("errors name ggml's asserts", () => {
    expect(() => GET_ROWS.makeCase([64, 8])).toThrow(/GET_ROWS takes 3 to 5 dims/);
    expect(() => GET_ROWS.makeCase([64, 8, 2], 'inplace')).toThrow(/GET_ROWS has no layout 'inplace'/);
    expect(() => GET_ROWS.makeCase([64, 8, 2], 'contiguous', { eps: 1 })).toThrow(/GET_ROWS has no param 'eps' \(params: type0\)/);
    const a = contiguous('f32', [4, 5, 3, 2]);
    expect(() => checkGetRows(a, contiguous('i32', [7, 2, 2]))).toThrow(/ggml asserts a->ne\[2\] == b->ne\[1\], got 3 and 2/);
    expect(() => checkGetRows(a, contiguous('i32', [7, 3, 1]))).toThrow(/ggml asserts a->ne\[3\] == b->ne\[2\], got 2 and 1/);
    expect(() => checkGetRows(contiguous('f32', [4, 5]), contiguous('i32', [7, 1, 1, 2]))).toThrow(/ggml asserts b->ne\[3\] == 1, got 2/);
    expect(() => checkGetRows(contiguous('f32', [4, 5]), contiguous('f32', [7]))).toThrow(/indices must be i32/);
    expect(() => checkGetRows(permute(contiguous('f32', [5, 4]), [1, 0, 2, 3]), contiguous('i32', [7]))).toThrow(OpCaseError);
    expect(() => checkGetRows(permute(contiguous('f32', [5, 4]), [1, 0, 2, 3]), contiguous('i32', [7]))).toThrow(/nb00 == sizeof\(float\)/);
  });
});

describe('GET_ROWS oracle', () => {
  it('picks rows by index, repeats included: table rows 10 11 | 20 21 | 30 31, indices 2 0 2', () => {
    const c = GET_ROWS.makeCase([2, 3, 3]);
    const r = GET_ROWS.oracle(c, [bufferFor(c.srcs[0], [10, 11, 20, 21, 30, 31]), bufferFor(c.srcs[1], [2, 0, 2])]);
    expect([...r.ref]).toEqual([30, 31, 10, 11, 30, 31]);
    expect(r.terms).toBe(1);
  });

  it('plane i11 of the indices picks rows of plane i11 of the table', () => {
    const c = GET_ROWS.makeCase([1, 2, 1, 2]);
    // Table [1, 2, 2]: plane 0 rows a0 a1 = 1 2, plane 1 rows b0 b1 = 3 4; indices [1, 2]: 1 then 0.
    const r = GET_ROWS.oracle(c, [bufferFor(c.srcs[0], [1, 2, 3, 4]), bufferFor(c.srcs[1], [1, 0])]);
    expect([...r.ref]).toEqual([2, 3]);
  });

  it('reads strided tables and transposed indices through their views', () => {
    const c = GET_ROWS.makeCase([2, 2, 2, 2], 'src1-transposed');
    // indices logical [2, 2] in ggml order 1 0 | 0 1 (gaps none: a transposed packed tensor).
    const table = bufferFor(c.srcs[0], [1, 2, 3, 4, 5, 6, 7, 8]);
    const r = GET_ROWS.oracle(c, [table, bufferFor(c.srcs[1], [1, 0, 0, 1])]);
    expect([...r.ref]).toEqual([3, 4, 1, 2, 5, 6, 7, 8]);
  });

  it('an index outside the table is what ggml asserts on', () => {
    const c = GET_ROWS.makeCase([2, 3, 1]);
    expect(() => GET_ROWS.oracle(c, [bufferFor(c.srcs[0], [1, 2, 3, 4, 5, 6]), bufferFor(c.srcs[1], [3])])).toThrow(/index 3 at \[0,0,0\] is outside the table's 3 rows/);
    expect(() => GET_ROWS.oracle(c, [bufferFor(c.srcs[0], [1, 2, 3, 4, 5, 6]), bufferFor(c.srcs[1], [-1])])).toThrow(/index -1/);
  });

  it('inputs: every index in the buffer (view gaps included) is a row of the table, seeded', () => {
    for (const e of GET_ROWS.matrix) {
      const c = GET_ROWS.makeCase(e.dims, e.layout);
      const [table, idx] = GET_ROWS.inputs!(c, 1);
      expect(table.byteLength).toBe(c.srcs[0].bufferSizeBytes);
      const v = new Int32Array(idx);
      expect(v.every((i) => i >= 0 && i < c.srcs[0].ne[1])).toBe(true);
      expect(new Set(v).size).toBeGreaterThan(1);
      expect([...new Int32Array(GET_ROWS.inputs!(c, 1)[1])]).toEqual([...v]);
      expect(() => GET_ROWS.oracle(c, [table, idx])).not.toThrow();
    }
  });
});

describe('GET_ROWS native and generated', () => {
  it('native: one thread per dst element; table, indices and dst as the shared Tensor uniform', () => {
    const c = GET_ROWS.makeCase([4093, 11, 7], 'src0-rows-strided');
    const k = GET_ROWS.native(c);
    expect(k.bindings.map((b) => b.role)).toEqual(['src0', 'src1', 'dst', 'params']);
    expect(k.dispatch).toEqual([Math.ceil((4093 * 7) / 256), 1, 1]);
    // Each Tensor: ne[4], element strides[4], offset, count, 2 words of padding.
    const u = [...k.uniforms!];
    expect(u.slice(0, 10)).toEqual([4093, 11, 1, 1, 1, 4096, 4096 * 11, 4096 * 11, 65, 4093 * 11]);
    expect(u.slice(12, 22)).toEqual([7, 1, 1, 1, 1, 7, 7, 7, 64, 7]);
    expect(u.slice(24, 34)).toEqual([4093, 7, 1, 1, 1, 4093, 4093 * 7, 4093 * 7, 64, 4093 * 7]);
    expect(GET_ROWS.bytes(c)).toEqual({ readBytes: 4093 * 7 * 4 + 28, writeBytes: 4093 * 7 * 4 });
  });

  it('generated: two gathers, the i32 index bound as array<i32>', () => {
    const c = GET_ROWS.makeCase([64, 29, 31, 4], 'src1-transposed');
    const s = schedulesFor('GET_ROWS', c, adapter)!;
    expect(s).toMatchObject({ family: 'elementwise', vectorWidth: 1 });
    const wgsl = GET_ROWS.generate(s, c).wgsl;
    expect(wgsl).toContain('var<storage, read> src1: array<i32>;');
    // Index [i1, i2] of the transposed [4, 31] tensor: nb10 = 4 elements, nb11 = 1.
    expect(wgsl).toContain('let row_v = src1[64u + i1 * 4u + i2];');
    expect(wgsl).toContain('let x_v = src0[64u + i0 + i2 * 1856u + u32(row_v) * 64u];');
    expect(GET_ROWS.fits({ family: 'elementwise', workgroupSize: 256, elementsPerThread: 1, vectorWidth: 4 }, c).join()).toMatch(/custom index \(use vectorWidth 1\)/);
  });
});
