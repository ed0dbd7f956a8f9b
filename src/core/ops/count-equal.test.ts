import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../adapter';
import { COUNT_EQUAL, i64Words } from './count-equal';
import { bufferFor } from '../../../test/fixtures/buffers';
import { OpCaseError } from './types';

describe('COUNT_EQUAL makeCase', () => {
  it('i32 sources; dst is the 8 bytes of ggml’s I64 scalar, as two i32 words', () => {
    const c = COUNT_EQUAL.makeCase([1000, 11, 3]);
    expect(c.srcs.map((t) => t.type)).toEqual(['i32', 'i32']);
    expect(c.dst.type).toBe('i32');
    expect(c.dst.ne).toEqual([2, 1, 1, 1]);
    expect(c.dst.bufferSizeBytes).toBe(8);
    expect(COUNT_EQUAL.bytes(c).writeBytes).toBe(8);
  });
  it('views: src0 transposed reads through nb00', () => {
    const c = COUNT_EQUAL.makeCase([3, 2], 'src0-transposed');
    expect(c.srcs[0].nb).toEqual([8, 4, 24, 24]);
  });
  it('errors name what is wrong', () => {
    expect(() => COUNT_EQUAL.makeCase([8], 'inplace')).toThrow(OpCaseError);
    expect(() => COUNT_EQUAL.makeCase([8], 'inplace')).toThrow(/no in-place count_equal/);
    expect(() => COUNT_EQUAL.makeCase([8], 'contiguous', { n: 1 })).toThrow(/COUNT_EQUAL takes no params, got n/);
  });
  it('every matrix case builds', () => {
    for (const m of COUNT_EQUAL.matrix) expect(() => COUNT_EQUAL.makeCase(m.dims, m.layout, m.params)).not.toThrow();
  });
});

describe('COUNT_EQUAL oracle', () => {
  it('counts equal positions through both views (gaps never count)', () => {
    const c = COUNT_EQUAL.makeCase([3, 2], 'src1-rows-strided');
    // a = [1, 2, 3 | -4, 5, 6], b = [1, 0, 3 | -4, 5, 7]: positions 0, 2, 3, 4 agree.
    const r = COUNT_EQUAL.oracle(c, [bufferFor(c.srcs[0], [1, 2, 3, -4, 5, 6]), bufferFor(c.srcs[1], [1, 0, 3, -4, 5, 7], 2)]);
    expect([...r.ref]).toEqual([4, 0]);
    expect(r.terms).toBe(1);
  });
  it('the I64 words: low word as the signed i32 the readback shows, then the high word', () => {
    expect(i64Words(5)).toEqual([5, 0]);
    expect(i64Words(2 ** 31)).toEqual([-(2 ** 31), 0]);
    expect(i64Words(2 ** 32 + 7)).toEqual([7, 1]);
    expect(i64Words(3 * 2 ** 32 + 2 ** 32 - 1)).toEqual([-1, 3]);
  });
  it('inputs are labels in [-2, 2)', () => {
    const c = COUNT_EQUAL.makeCase([512]);
    const bufs = COUNT_EQUAL.inputs!(c, 1);
    const a = [...new Int32Array(bufs[0])];
    expect(a.every((v) => v >= -2 && v < 2)).toBe(true);
    expect(new Set(a).size).toBe(4);
  });
});

describe('COUNT_EQUAL native', () => {
  it('one workgroup; the uniform is both sources and dst as Tensor descriptors (all their strides)', () => {
    const c = COUNT_EQUAL.makeCase([3, 2], 'src0-transposed');
    const k = COUNT_EQUAL.native(c);
    expect(k.dispatch).toEqual([1, 1, 1]);
    // src0 (transposed: strides 2, 1), src1 packed, dst the two u32 words: ne | strides | off, n, padding
    expect([...k.uniforms!.slice(0, 36)]).toEqual([3, 2, 1, 1, 2, 1, 6, 6, 64, 6, 0, 0, 3, 2, 1, 1, 1, 3, 6, 6, 64, 6, 0, 0, 2, 1, 1, 1, 1, 2, 2, 2, 64, 2, 0, 0]);
    expect(k.label).toBe('native:COUNT_EQUAL (row/row.wgsl)');
    expect(k.wgsl).toMatch(/var<storage, read_write> dst: array<u32>;/);
  });
});

describe('COUNT_EQUAL generated (row family)', () => {
  const s = { family: 'norm' as const, workgroupSize: 64, vectorWidth: 1, reduction: 'shared' as const, unroll: 1 };
  it('both packed tensors as one row of i32, an f32 count, the I64 words written as (count, 0) (WGSL snapshot)', () => {
    const k = COUNT_EQUAL.generate(s, COUNT_EQUAL.makeCase([7, 5, 3, 2]));
    expect(k.dispatch).toEqual([1, 1, 1]);
    expect(k.wgsl).toMatch(/var<storage, read> src0: array<i32>;/);
    expect(k.wgsl).toMatch(/var<storage, read_write> dst: array<i32>;/);
    expect(k.wgsl).toMatch(/dst\[dst_row\] = i32\(count\);\n\s*dst\[dst_row \+ 1u\] = 0;/);
    expect(k.wgsl).toMatchSnapshot();
  });
  it('declared rejections: views, and counts f32 cannot hold exactly; vectors are a fits reason', () => {
    const adapter = { limits: DEFAULT_LIMITS, features: [] as string[] };
    expect(COUNT_EQUAL.require(COUNT_EQUAL.makeCase([8, 3], 'src0-transposed'), adapter)?.code).toBe('not-contiguous');
    expect(COUNT_EQUAL.require(COUNT_EQUAL.makeCase([4096, 4096]), adapter)?.code).toBe('count-over-2^24');
    expect(COUNT_EQUAL.require(COUNT_EQUAL.makeCase([4096, 4095]), adapter)).toBeNull();
    expect(COUNT_EQUAL.fits({ ...s, vectorWidth: 4 }, COUNT_EQUAL.makeCase([512]))).toEqual(["vectorWidth 4: COUNT_EQUAL's comparison map is scalar (vectorWidth 1)"]);
  });
});
