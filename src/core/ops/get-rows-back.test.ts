import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../adapter';
import { GET_ROWS_BACK } from './get-rows-back';
import { registryEntry, schedulesFor } from './registry';
import { bufferFor } from '../../../test/fixtures/buffers';

describe('GET_ROWS_BACK makeCase', () => {
  it('dims ne0 x rows x nIdx: gradient [ne0, nIdx], i32 indices [nIdx], dst [ne0, rows] packed', () => {
    const c = GET_ROWS_BACK.makeCase([4096, 13, 9]);
    expect(c.srcs.map((t) => t.ne)).toEqual([
      [4096, 9, 1, 1],
      [9, 1, 1, 1],
    ]);
    expect(c.srcs[1].type).toBe('i32');
    expect(c.dst.ne).toEqual([4096, 13, 1, 1]);
    const s = GET_ROWS_BACK.makeCase([4093, 7, 11], 'src0-rows-strided');
    expect(s.srcs[0].nb[1]).toBe(4096 * 4);
  });

  it('errors name what is wrong', () => {
    expect(() => GET_ROWS_BACK.makeCase([64, 8])).toThrow(/GET_ROWS_BACK takes 3 dims \(ne0 x rows x nIdx/);
    expect(() => GET_ROWS_BACK.makeCase([64, 8, 2], 'src1-transposed')).toThrow(/no layout 'src1-transposed' \(layouts: contiguous, src0-rows-strided\)/);
    expect(() => GET_ROWS_BACK.makeCase([64, 8, 2], 'contiguous', { x: 1 })).toThrow(/GET_ROWS_BACK takes no params, got x/);
  });
});

describe('GET_ROWS_BACK oracle', () => {
  it('zeros, then each gradient row added at its index in order: rows 1, 3, 1 of 4', () => {
    const c = GET_ROWS_BACK.makeCase([2, 4, 3]);
    const r = GET_ROWS_BACK.oracle(c, [bufferFor(c.srcs[0], [1, 2, 3, 4, 5, -6.5]), bufferFor(c.srcs[1], [1, 3, 1])]);
    expect([...r.ref]).toEqual([0, 0, 6, -4.5, 0, 0, 3, 4]);
    // Row 1 gathers two terms: k = 2, floor Σ|terms|.
    expect(r.terms).toBe(2);
    expect([...r.epsFloor]).toEqual([0, 0, 6, 8.5, 0, 0, 3, 4]);
  });

  it('reads a strided gradient through its rows', () => {
    const c = GET_ROWS_BACK.makeCase([2, 2, 2], 'src0-rows-strided');
    const r = GET_ROWS_BACK.oracle(c, [bufferFor(c.srcs[0], [1, 2, 3, 4]), bufferFor(c.srcs[1], [0, 0])]);
    expect([...r.ref]).toEqual([4, 6, 0, 0]);
  });

  it('an index outside dst is refused (ggml would write outside dst)', () => {
    const c = GET_ROWS_BACK.makeCase([2, 2, 1]);
    expect(() => GET_ROWS_BACK.oracle(c, [bufferFor(c.srcs[0], [1, 2]), bufferFor(c.srcs[1], [2])])).toThrow(/index 2 at \[0\] is outside dst's 2 rows/);
  });

  it('inputs: indices are rows of dst, seeded; matrix cases with repeats', () => {
    for (const e of GET_ROWS_BACK.matrix) {
      const c = GET_ROWS_BACK.makeCase(e.dims, e.layout);
      const idx = new Int32Array(GET_ROWS_BACK.inputs!(c, 3)[1]);
      expect(idx.every((i) => i >= 0 && i < c.dst.ne[1])).toBe(true);
    }
    const c = GET_ROWS_BACK.makeCase([64, 5, 300]);
    expect(GET_ROWS_BACK.oracle(c, GET_ROWS_BACK.inputs!(c, 1)).terms).toBeGreaterThan(40);
  });
});

describe('GET_ROWS_BACK native', () => {
  it('one workgroup per dst row; gradient, indices and dst as the shared Tensor uniform', () => {
    const c = GET_ROWS_BACK.makeCase([4093, 7, 11], 'src0-rows-strided');
    const k = GET_ROWS_BACK.native(c);
    expect(k.bindings.map((b) => b.role)).toEqual(['src0', 'src1', 'dst', 'params']);
    expect(k.dispatch).toEqual([7, 1, 1]);
    // Each Tensor: ne[4], element strides[4], offset, count, 2 words of padding. The gradient's
    // rows sit 4096 elements apart, one element in.
    const u = [...k.uniforms!];
    expect(u.slice(0, 10)).toEqual([4093, 11, 1, 1, 1, 4096, 4096 * 11, 4096 * 11, 65, 4093 * 11]);
    expect(u.slice(12, 22)).toEqual([11, 1, 1, 1, 1, 11, 11, 11, 64, 11]);
    expect(u.slice(24, 34)).toEqual([4093, 7, 1, 1, 1, 4093, 4093 * 7, 4093 * 7, 64, 4093 * 7]);
    expect(k.wgsl).toContain('workgroupUniformLoad');
    expect(k.wgsl).toContain('var<workgroup> chunk: array<i32, 256>;');
  });

  it('native-only: the scatter-add has no family; fits, generate and the registry say why', () => {
    const c = GET_ROWS_BACK.makeCase([64, 5, 300]);
    const s = { family: 'elementwise', workgroupSize: 256, elementsPerThread: 4, vectorWidth: 1 } as const;
    expect(GET_ROWS_BACK.fits(s, c)[0]).toMatch(/^GET_ROWS_BACK has no generated kernel: a scatter-add/);
    expect(schedulesFor('GET_ROWS_BACK', c, { limits: DEFAULT_LIMITS, features: [] })).toBeNull();
    expect(() => GET_ROWS_BACK.generate(s, c)).toThrow(/64x5x300 has no generated kernel/);
    expect(registryEntry('GET_ROWS_BACK').state).toBe('native-only');
  });
});
