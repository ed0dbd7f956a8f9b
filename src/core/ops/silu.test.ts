import { describe, expect, it } from 'vitest';
import type { ElementwiseSchedule } from '../families/elementwise';
import { DEFAULT_LIMITS } from '../adapter';
import { parseSchedule } from '../schedule/schedule';
import { schedulesFor } from './registry';
import { SILU, silu } from './silu';

const vec4 = parseSchedule({ family: 'elementwise', workgroupSize: 64, elementsPerThread: 2, vectorWidth: 4 });
const adapter = { limits: DEFAULT_LIMITS, features: [] as string[] };

const f32 = (xs: number[]) => new Float32Array(xs).buffer;

describe('SILU (ggml_silu)', () => {
  it('computes x / (1 + exp(-x))', () => {
    expect(silu(0)).toBe(0);
    expect(silu(1)).toBeCloseTo(0.7310585786300049, 15);
    expect(silu(-1)).toBeCloseTo(-0.2689414213699951, 15);
    expect(silu(2)).toBeCloseTo(1.7615941559557646, 15);
    // The negative tail: -20 / (1 + e^20).
    expect(silu(-20)).toBeCloseTo(-4.122307236380407e-8, 20);
  });

  it('oracle: ggml order, dst of src0 shape, bound widened with |x| for exp', () => {
    const c = SILU.makeCase([2, 2]);
    const r = SILU.oracle(c, [f32([0, 1, -1, 8])]);
    expect(r.ref[0]).toBe(0);
    expect(r.ref[1]).toBeCloseTo(0.7310585786300049, 7);
    expect(r.terms).toBe(1);
    // epsFloor = |silu(x)|·|x|/4: 0 at x = 0, 2·|silu(8)| at x = 8.
    expect(r.epsFloor[0]).toBe(0);
    expect(r.epsFloor[3]).toBeCloseTo(2 * silu(8), 12);
  });

  it('reads a permuted or row-strided src0 through its strides', () => {
    const strided = SILU.makeCase([2, 2], 'src0-rows-strided');
    // rows 5 apart, one element in: [9, a, b, 9, 9, 9, c, d, 9, 9]
    const r = SILU.oracle(strided, [f32([9, 0, 1, 9, 9, 9, -1, 2, 9, 9])]);
    expect([...r.ref].map((v) => +v.toFixed(6))).toEqual([0, 0.731059, -0.268941, 1.761594]);
    const permuted = SILU.makeCase([1, 2, 2], 'src0-permuted');
    // permute(0,2,1,3) of a packed [1, 2, 2]: dst (i1, i2) reads parent (i2, i1).
    const p = SILU.oracle(permuted, [f32([0, 1, 2, -1])]);
    expect([...p.ref].map((v) => +v.toFixed(6))).toEqual([0, 1.761594, 0.731059, -0.268941]);
  });

  it('in place: dst is src0 itself, bound once read-write in the native kernel', () => {
    const c = SILU.makeCase([8, 3], 'inplace');
    expect(c.inplace).toBe(true);
    expect(c.dst.nb).toEqual(c.srcs[0].nb);
    const k = SILU.native(c);
    expect(k.bindings.map((b) => b.role)).toEqual(['dst', 'params']);
    expect(k.label).toBe('native:SILU (unary/unary.wgsl) [INPLACE]');
    expect(k.wgsl).toContain('let x = dst[d];');
    expect(SILU.native(SILU.makeCase([8, 3])).bindings.map((b) => b.role)).toEqual(['src0', 'dst', 'params']);
  });

  it('packs the native uniform: src0 and dst as Tensor descriptors (ne, element strides, offset, count)', () => {
    const k = SILU.native(SILU.makeCase([5, 3], 'src0-rows-strided'));
    // src0 rows are 8 elements apart, one element in past the 256 B guard (64 elements).
    expect([...k.uniforms!]).toEqual([5, 3, 1, 1, 1, 8, 24, 24, 65, 15, 0, 0, 5, 3, 1, 1, 1, 5, 15, 15, 64, 15, 0, 0]);
    expect(k.wgsl).toContain('struct Params {\n  src0: Tensor,\n  dst: Tensor,\n};');
    expect(k.dispatch).toEqual([1, 1, 1]);
  });

  it('refuses what ggml refuses, naming it', () => {
    expect(() => SILU.makeCase([4], 'contiguous', { alpha: 1 })).toThrow('SILU takes no params, got alpha');
    expect(() => SILU.makeCase([4], 'transposed')).toThrow("SILU has no layout 'transposed'");
    expect(() => SILU.makeCase([1, 2, 3, 4, 5])).toThrow('SILU takes 1 to 4 dims');
  });

  it('draws inputs in [-8, 8) so both tails are checked', () => {
    const [buf] = SILU.inputs!(SILU.makeCase([4096]), 1);
    const xs = new Float32Array(buf);
    expect(Math.min(...xs)).toBeLessThan(-7.9);
    expect(Math.max(...xs)).toBeGreaterThan(7.9);
  });

  it('is memory-bound: bytes read and written, no flop count', () => {
    const c = SILU.makeCase([1024, 4]);
    expect(SILU.bytes(c)).toEqual({ readBytes: 4096 * 4, writeBytes: 4096 * 4 });
    expect(SILU.flops(c)).toBeNull();
    expect(SILU.features(c)).toEqual({ ne0: 1024, rows: 4, n: 4096 });
  });
  it('generated: the elementwise family with x / (1 + exp(-x)); vec4 where rows align', () => {
    const k = SILU.generate(vec4, SILU.makeCase([1024, 4]));
    expect(k.wgsl).toContain('dst[16u + v] = x_v / (1.0 + exp(-x_v));');
    expect(k.bindings.map((b) => b.role)).toEqual(['src0', 'dst']);
    expect(SILU.generate(vec4, SILU.makeCase([64, 4], 'inplace')).bindings.map((b) => b.role)).toEqual(['dst']);
    expect(SILU.fits(vec4, SILU.makeCase([64, 4], 'src0-rows-strided'))).toEqual(["vectorWidth 4 needs x's rows to start on 4-element boundaries"]);
    expect((schedulesFor('SILU', SILU.makeCase([4096, 16]), adapter) as ElementwiseSchedule | null)?.vectorWidth).toBe(4);
    expect((schedulesFor('SILU', SILU.makeCase([4096, 8], 'src0-rows-strided'), adapter) as ElementwiseSchedule | null)?.vectorWidth).toBe(1);
    expect((schedulesFor('SILU', SILU.makeCase([4093, 7]), adapter) as ElementwiseSchedule | null)?.vectorWidth).toBe(1);
  });
});
