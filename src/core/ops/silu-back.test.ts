import { describe, expect, it } from 'vitest';
import { parseSchedule } from '../schedule/schedule';
import { SILU_BACK } from './silu-back';

const vec4 = parseSchedule({ family: 'elementwise', workgroupSize: 64, elementsPerThread: 2, vectorWidth: 4 });

const f32 = (xs: number[]) => new Float32Array(xs).buffer;

describe('SILU_BACK (ggml_silu_back(dy, x))', () => {
  it('src0 is dy, src1 is x (ggml_compute_backward calls ggml_silu_back(grad, src0))', () => {
    const c = SILU_BACK.makeCase([4]);
    // dy = [1, 2, 1, 0.5], x = [0, 1, -1, 3]
    const r = SILU_BACK.oracle(c, [f32([1, 2, 1, 0.5]), f32([0, 1, -1, 3])]);
    // x = 0: s = 1/2, dx = dy·(1/2)·(1 + 0) = 0.5.
    expect(r.ref[0]).toBe(0.5);
    // x = 1: s = 0.7310586, dx = 2·s·(1 + 1·(1 − s)) = 1.8553410.
    expect(r.ref[1]).toBeCloseTo(1.8553410237429737, 12);
    expect(r.ref[2]).toBeCloseTo(0.07232948812851325, 12);
    expect(r.ref[3]).toBeCloseTo(0.5440520530075846, 12);
    // Swapping the sources gives another answer: the order matters.
    const swapped = SILU_BACK.oracle(c, [f32([0, 1, -1, 3]), f32([1, 2, 1, 0.5])]);
    expect(swapped.ref[0]).toBe(0);
  });

  it('keeps a bound where 1 + x·(1 − s) cancels (x ≈ −1.278)', () => {
    const r = SILU_BACK.oracle(SILU_BACK.makeCase([1]), [f32([1]), f32([-1.2784645])]);
    expect(Math.abs(r.ref[0])).toBeLessThan(1e-7);
    // The terms dy·s·1 and dy·s·x·(1 − s) have size ~0.218 each.
    expect(r.epsFloor[0]).toBeGreaterThan(0.4);
  });

  it('takes row-strided views of either source (ggml_is_contiguous_1), dst packed', () => {
    const c = SILU_BACK.makeCase([2, 2], 'src1-rows-strided');
    expect(c.srcs[1].nb).toEqual([4, 20, 40, 40]);
    const r = SILU_BACK.oracle(c, [f32([1, 1, 1, 1]), f32([9, 0, 0, 9, 9, 9, 0, 0, 9, 9])]);
    expect([...r.ref]).toEqual([0.5, 0.5, 0.5, 0.5]);
    expect(c.dst.layout).toBe('contiguous');
    expect(SILU_BACK.native(c).bindings.map((b) => b.role)).toEqual(['src0', 'src1', 'dst', 'params']);
  });

  it('has no in-place form, as ggml', () => {
    expect(() => SILU_BACK.makeCase([4], 'inplace')).toThrow("SILU_BACK has no 'inplace' layout: ggml has no in-place silu_back");
    expect(() => SILU_BACK.makeCase([4], 'src0-permuted')).toThrow("SILU_BACK has no layout 'src0-permuted'");
    expect(() => SILU_BACK.makeCase([4], 'contiguous', { eps: 1 })).toThrow('SILU_BACK takes no params');
  });

  it('draws dy in [-1, 1) and x in [-8, 8)', () => {
    const [dy, x] = SILU_BACK.inputs!(SILU_BACK.makeCase([4096]), 1).map((b) => new Float32Array(b));
    expect(Math.max(...dy.map(Math.abs))).toBeLessThan(1);
    expect(Math.max(...x.map(Math.abs))).toBeGreaterThan(7.9);
  });
  it("generated: ggml_silu_backward_f32's expression over dy and x", () => {
    const k = SILU_BACK.generate(vec4, SILU_BACK.makeCase([1024, 4]));
    expect(k.wgsl).toContain('dy_v * (1.0 / (1.0 + exp(-x_v))) * (1.0 + x_v * (1.0 - 1.0 / (1.0 + exp(-x_v))))');
    expect(k.bindings.map((b) => b.role)).toEqual(['src0', 'src1', 'dst']);
    expect(SILU_BACK.fits(vec4, SILU_BACK.makeCase([64, 4], 'src1-rows-strided'))).toEqual(["vectorWidth 4 needs x's rows to start on 4-element boundaries"]);
  });
});
