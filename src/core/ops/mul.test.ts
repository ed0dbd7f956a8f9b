import { describe, expect, it } from 'vitest';
import type { ElementwiseSchedule } from '../families/elementwise';
import { DEFAULT_LIMITS } from '../adapter';
import { parseSchedule } from '../schedule/schedule';
import { schedulesFor } from './registry';
import { MUL } from './mul';

const vec4 = parseSchedule({ family: 'elementwise', workgroupSize: 64, elementsPerThread: 2, vectorWidth: 4 });
const scalar = parseSchedule({ family: 'elementwise', workgroupSize: 64, elementsPerThread: 1, vectorWidth: 1 });
const adapter = { limits: DEFAULT_LIMITS, features: [] as string[] };

const f32 = (xs: number[]) => new Float32Array(xs).buffer;

describe('MUL (ggml_mul)', () => {
  it('multiplies elementwise, epsFloor 0 (one rounding of an exact product)', () => {
    const c = MUL.makeCase([3, 2]);
    const r = MUL.oracle(c, [f32([1, 2, 3, 4, 5, 6]), f32([0.5, -2, 10, 1, 0, -1])]);
    expect([...r.ref]).toEqual([0.5, -4, 30, 4, 0, -6]);
    expect(r.terms).toBe(1);
    expect([...r.epsFloor]).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('broadcasts one row over every row (an RMS_NORM weight) and one value per row', () => {
    const row = MUL.makeCase([2, 3], 'broadcast-row');
    expect(row.srcs[1].ne).toEqual([2, 1, 1, 1]);
    expect([...MUL.oracle(row, [f32([1, 2, 3, 4, 5, 6]), f32([10, -1])]).ref]).toEqual([10, -2, 30, -4, 50, -6]);
    const col = MUL.makeCase([2, 3], 'broadcast-col');
    expect([...MUL.oracle(col, [f32([1, 2, 3, 4, 5, 6]), f32([2, 3, -1])]).ref]).toEqual([2, 4, 9, 12, -5, -6]);
  });

  it('reads views through their strides', () => {
    const strided = MUL.makeCase([2, 2], 'src0-rows-strided');
    expect([...MUL.oracle(strided, [f32([9, 1, 2, 9, 9, 9, 3, 4, 9, 9]), f32([1, 1, 2, 2])]).ref]).toEqual([1, 2, 6, 8]);
    const transposed = MUL.makeCase([2, 2], 'src1-transposed');
    expect([...MUL.oracle(transposed, [f32([1, 1, 1, 1]), f32([1, 2, 3, 4])]).ref]).toEqual([1, 3, 2, 4]);
  });

  it('in place: dst is src0, bound once; the uniform is the binary template\'s three Tensor descriptors', () => {
    const c = MUL.makeCase([8, 2], 'inplace');
    expect(c.inplace).toBe(true);
    const k = MUL.native(c);
    expect(k.bindings.map((b) => b.role)).toEqual(['dst', 'src1', 'params']);
    expect(k.wgsl).toContain('let a = dst[d];');
    expect(k.wgsl).toContain('return a * b;');
    expect(k.wgsl).toContain('dst[d] = op(a, b);');
    const bk = MUL.native(MUL.makeCase([4, 3], 'broadcast-col'));
    // src0, src1, dst as Tensor descriptors: ne, element strides, offset (guards: 64 elements), count, 2 words of padding.
    expect([...bk.uniforms!]).toEqual([4, 3, 1, 1, 1, 4, 12, 12, 64, 12, 0, 0, 1, 3, 1, 1, 1, 1, 3, 3, 64, 3, 0, 0, 4, 3, 1, 1, 1, 4, 12, 12, 64, 12, 0, 0]);
  });

  it('refuses what ggml refuses, naming it', () => {
    expect(() => MUL.makeCase([3, 2], 'diagonal')).toThrow("MUL has no layout 'diagonal'");
    expect(() => MUL.makeCase([3], 'contiguous', { s: 1 })).toThrow('MUL takes no params, got s');
    expect(() => MUL.makeCase([])).toThrow('MUL takes 1 to 4 dims');
  });

  it('counts bytes that must move', () => {
    const c = MUL.makeCase([1024, 4], 'broadcast-row');
    expect(MUL.bytes(c)).toEqual({ readBytes: (4096 + 1024) * 4, writeBytes: 4096 * 4 });
    expect(MUL.flops(c)).toBeNull();
  });
  it('generated: a * b over the family, a transposed src1 read at vectorWidth 1 (no declared fallback)', () => {
    expect(MUL.generate(vec4, MUL.makeCase([1024, 4], 'broadcast-row')).wgsl).toContain('dst[16u + i0 + i1 * 256u] = a_v * b_v;');
    const t = MUL.makeCase([256, 64], 'src1-transposed');
    expect(MUL.require(t, adapter)).toBeNull();
    expect(MUL.fits(vec4, t)).toEqual(["vectorWidth 4 needs b's rows contiguous (nb0 = 256 B)"]);
    expect((schedulesFor('MUL', t, adapter) as ElementwiseSchedule | null)?.vectorWidth).toBe(1);
    expect(MUL.generate(scalar, t).wgsl).toContain('src1[64u + i0 * 64u + i1 * 1u]');
  });
});
