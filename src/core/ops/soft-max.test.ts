import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../adapter';
import { alibi, alibiSlope, SOFT_MAX } from './soft-max';
import { bufferFor } from '../../../test/fixtures/buffers';
import { OpCaseError } from './types';

describe('SOFT_MAX makeCase', () => {
  it('defaults: no mask, scale 1, max_bias 0', () => {
    const c = SOFT_MAX.makeCase([4093, 13]);
    expect(c.srcs).toHaveLength(1);
    expect(c.params).toEqual({ scale: 1, max_bias: 0 });
  });
  it('mask shapes: broadcast, padded f16, per head; sinks one per head', () => {
    expect(SOFT_MAX.makeCase([256, 32, 4], 'mask').srcs[1].ne).toEqual([256, 32, 1, 1]);
    const f16 = SOFT_MAX.makeCase([200, 23, 5], 'mask-f16-padded').srcs[1];
    expect([f16.type, ...f16.ne]).toEqual(['f16', 200, 32, 1, 1]);
    expect(SOFT_MAX.makeCase([64, 64, 8], 'mask-heads').srcs[1].ne).toEqual([64, 64, 8, 1]);
    const s = SOFT_MAX.makeCase([160, 20, 6], 'mask-sinks');
    expect(s.srcs[2].ne).toEqual([6, 1, 1, 1]);
    const ip = SOFT_MAX.makeCase([300, 17, 2], 'mask-inplace');
    expect(ip.inplace).toBe(true);
    expect(ip.dst.offsetBytes).toBe(ip.srcs[0].offsetBytes);
  });
  it('errors name what is wrong', () => {
    expect(() => SOFT_MAX.makeCase([8, 2], 'contiguous', { max_bias: 8 })).toThrow(OpCaseError);
    expect(() => SOFT_MAX.makeCase([8, 2], 'contiguous', { max_bias: 8 })).toThrow(/max_bias 8 > 0 needs a mask \(ggml asserts it\)/);
    expect(() => SOFT_MAX.makeCase([8, 2], 'mask', { max_bias: -1 })).toThrow(/max_bias = -1 is out of range \(max_bias is a finite number, 0 ≤ max_bias ≤ 16\)/);
    expect(() => SOFT_MAX.makeCase([8, 2], 'mask', { eps: 1 })).toThrow(/SOFT_MAX has no param 'eps' \(params: scale, max_bias\)/);
    expect(() => SOFT_MAX.makeCase([8, 2], 'src0-rows-strided')).toThrow(/no layout 'src0-rows-strided'/);
  });
  it('every matrix case builds', () => {
    for (const m of SOFT_MAX.matrix) expect(() => SOFT_MAX.makeCase(m.dims, m.layout, m.params)).not.toThrow();
  });
});

describe('SOFT_MAX ALiBi', () => {
  it('12 heads: n_head_log2 8, m0 = 2^-1, m1 = 2^-0.5 at max_bias 8', () => {
    const { nHeadLog2, m0, m1 } = alibi(8, 12);
    expect(nHeadLog2).toBe(8);
    expect(m0).toBe(0.5);
    expect(m1).toBe(Math.fround(Math.SQRT1_2));
    expect(alibiSlope(8, 12, 0)).toBe(0.5);
    expect(alibiSlope(8, 12, 7)).toBe(2 ** -8);
    // h ≥ 8: m1^(2(h − 8) + 1); h = 9 → m1^3.
    expect(alibiSlope(8, 12, 9)).toBe(Math.fround(Math.fround(Math.SQRT1_2) ** 3));
    expect(alibiSlope(0, 12, 9)).toBe(1);
  });
});

describe('SOFT_MAX oracle', () => {
  it('a hand-computed row: scale 2, no mask', () => {
    const c = SOFT_MAX.makeCase([3], 'contiguous', { scale: 2 });
    // s = [0, ln2, −ln2]·… use x = [0, ln2/2, 0]: s = [0, ln 2, 0] → e^s = [1, 2, 1] / 4.
    const x = [0, Math.fround(Math.LN2 / 2), 0];
    const r = SOFT_MAX.oracle(c, [bufferFor(c.srcs[0], x)]);
    expect(r.ref[0]).toBeCloseTo(0.25, 7);
    expect(r.ref[1]).toBeCloseTo(0.5, 7);
    expect(r.ref[2]).toBeCloseTo(0.25, 7);
    expect(r.terms).toBe(3);
  });
  it('mask: -inf gives exactly 0 (and a floor of 0); broadcast over heads; the mask row is i1', () => {
    const c = SOFT_MAX.makeCase([2, 2, 2], 'mask');
    // mask rows: [0, -inf], [0, 0]; x all 0 → row 0 of each head [1, 0], row 1 [0.5, 0.5].
    const r = SOFT_MAX.oracle(c, [bufferFor(c.srcs[0], [0, 0, 0, 0, 0, 0, 0, 0]), bufferFor(c.srcs[1], [0, -Infinity, 0, 0])]);
    expect([...r.ref]).toEqual([1, 0, 0.5, 0.5, 1, 0, 0.5, 0.5]);
    expect(r.epsFloor[1]).toBe(0);
  });
  it('ALiBi: the mask is scaled by the head’s slope', () => {
    // 2 heads, max_bias 2: n_head_log2 2, m0 = 2^-1; slopes 0.5 (h0) and 0.25 (h1).
    const c = SOFT_MAX.makeCase([2, 1, 2], 'mask', { max_bias: 2 });
    const m = -4 * Math.LN2; // slope·m = −2 ln2 (h0) → weights [1, 1/4]; −ln2 (h1) → [1, 1/2]
    const r = SOFT_MAX.oracle(c, [bufferFor(c.srcs[0], [0, 0, 0, 0]), bufferFor(c.srcs[1], [0, Math.fround(m)])]);
    expect(r.ref[0]).toBeCloseTo(0.8, 6);
    expect(r.ref[1]).toBeCloseTo(0.2, 6);
    expect(r.ref[2]).toBeCloseTo(2 / 3, 6);
    expect(r.ref[3]).toBeCloseTo(1 / 3, 6);
  });
  it('sinks join the max and the sum, per head, and take no output', () => {
    const c = SOFT_MAX.makeCase([2, 1, 2], 'mask-sinks');
    // x = 0, mask 0; sink h0 = 0 → e^0/(1+1+1) = 1/3 each; sink h1 = ln 2 → 1/(1+1+2) = 1/4.
    const r = SOFT_MAX.oracle(c, [bufferFor(c.srcs[0], [0, 0, 0, 0]), bufferFor(c.srcs[1], [0, 0]), bufferFor(c.srcs[2], [0, Math.LN2])]);
    expect(r.ref[0]).toBeCloseTo(1 / 3, 7);
    expect(r.ref[2]).toBeCloseTo(1 / 4, 6);
    expect(r.terms).toBe(3);
  });
  it('inputs: a causal -inf mask with every row keeping key 0', () => {
    const c = SOFT_MAX.makeCase([8, 4], 'mask');
    const [, mask] = SOFT_MAX.inputs!(c, 1);
    const m = new Float32Array(mask);
    // shift = ne0 − ne1 = 4: row i1 keeps keys i0 ≤ i1 + 4.
    for (let i1 = 0; i1 < 4; i1++)
      for (let i0 = 0; i0 < 8; i0++) expect(m[i1 * 8 + i0] === -Infinity).toBe(i0 > i1 + 4);
  });
});

describe('SOFT_MAX native variants', () => {
  it('one source: each variant binds only what it has', () => {
    const roles = (layout: string) => SOFT_MAX.native(SOFT_MAX.makeCase([8, 2, 2], layout)).bindings.map((b) => `${b.binding}:${b.role}`);
    expect(roles('contiguous')).toEqual(['0:src0', '1:dst', '2:params']);
    expect(roles('inplace')).toEqual(['0:dst', '1:params']);
    expect(roles('mask')).toEqual(['0:src0', '1:src1', '2:dst', '3:params']);
    expect(roles('mask-sinks')).toEqual(['0:src0', '1:src1', '2:src2', '3:dst', '4:params']);
    expect(roles('mask-inplace')).toEqual(['0:src1', '1:dst', '2:params']);
    // The WGSL declares exactly those bindings.
    const w = SOFT_MAX.native(SOFT_MAX.makeCase([8, 2, 2], 'mask-inplace')).wgsl;
    expect([...w.matchAll(/@binding\((\d+)\) var<(\w+)(?:, (\w+))?> (\w+)/g)].map((m) => `${m[1]}:${m[4]}`)).toEqual(['0:src1', '1:dst', '2:p']);
  });
  it('the f16 mask is read as u32 pairs (no shader-f16)', () => {
    const k = SOFT_MAX.native(SOFT_MAX.makeCase([8, 2, 2], 'mask-f16-padded'));
    expect(k.wgsl).toMatch(/var<storage, read> src1: array<u32>;/);
    expect(k.wgsl).toMatch(/unpack2x16float/);
    expect(k.wgsl).not.toMatch(/enable f16|#if|\{\{/);
    expect(k.label).toBe('native:SOFT_MAX (row/row.wgsl) [MASK, MASK_F16]');
  });
});

describe('SOFT_MAX generated (row family)', () => {
  const adapter = { limits: DEFAULT_LIMITS, features: [] as string[] };
  const norm = (vectorWidth: number, unroll = 1) => ({ family: 'norm' as const, workgroupSize: 64, vectorWidth, reduction: 'shared' as const, unroll });
  it('max, then Σexp(s − max), then exp(s − max)·(1/Σ); ALiBi by head i2 (WGSL snapshot)', () => {
    const c = SOFT_MAX.makeCase([8, 3, 12], 'mask-heads', { scale: 0.125, max_bias: 8 });
    const k = SOFT_MAX.generate(norm(4), c);
    expect(k.bindings.map((b) => b.role)).toEqual(['src0', 'src1', 'dst']);
    expect(k.wgsl).toMatch(/select\(pow\(0\.707106769, f32\(2u \* \(i2 - 8u\) \+ 1u\)\), pow\(0\.500000000, f32\(i2 \+ 1u\)\), i2 < 8u\)/);
    expect(k.wgsl).toMatchSnapshot();
  });
  it('one head or no ALiBi: the slope is a literal; no mask: no src1', () => {
    const one = SOFT_MAX.generate(norm(1), SOFT_MAX.makeCase([8, 3], 'mask', { max_bias: 8 }));
    expect(one.wgsl).toMatch(/x0 \* SCALE \+ 0\.00390625000 \* m0/); // m0^1 with n_head 1: 2^-8
    const plain = SOFT_MAX.generate(norm(1), SOFT_MAX.makeCase([8, 3], 'inplace'));
    expect(plain.bindings.map((b) => b.role)).toEqual(['dst']);
  });
  it('declared rejections: the f16 mask and the sinks run native; every other matrix case is taken', () => {
    expect(SOFT_MAX.require(SOFT_MAX.makeCase([8, 3, 2], 'mask-f16-padded'), adapter)?.code).toBe('f16-mask');
    expect(SOFT_MAX.require(SOFT_MAX.makeCase([8, 3, 2], 'mask-sinks'), adapter)?.code).toBe('sinks');
    for (const m of SOFT_MAX.matrix.filter((e) => !['mask-f16-padded', 'mask-sinks'].includes(e.layout))) {
      expect(SOFT_MAX.require(SOFT_MAX.makeCase(m.dims, m.layout, m.params), adapter)).toBeNull();
    }
  });
});
