import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../adapter';
import { powiUnrolled, ROPE, ROPE_BACK, ropeConstants, PARAMS } from './rope';
import { bufferFor } from '../../../test/fixtures/buffers';
import { OpCaseError, type OpCase } from './types';

const F = Math.fround;
const defaults = Object.fromEntries(PARAMS.map((p) => [p.name, p.default]));

/** Runs an op's oracle on given x (ggml order), positions and optional freq factors. */
function run(op: typeof ROPE, c: OpCase, x: number[], pos: number[], ff?: number[]): number[] {
  const bufs = [bufferFor(c.srcs[0], x), bufferFor(c.srcs[1], pos)];
  if (ff) bufs.push(bufferFor(c.srcs[2], ff));
  return Array.from(op.oracle(c, bufs).ref);
}

describe('ROPE makeCase', () => {
  it('defaults: llama params, n_dims = ne0, positions an i32 vector of ne2', () => {
    const c = ROPE.makeCase([128, 8, 32]);
    expect(c.layout).toBe('contiguous');
    expect(c.params).toEqual({ mode: 0, n_dims: 0, n_offs: 0, n_ctx_orig: 4096, freq_base: 10000, freq_scale: 1, ext_factor: 0, attn_factor: 1, beta_fast: 32, beta_slow: 1 });
    expect(c.srcs).toHaveLength(2);
    expect(c.srcs[1].type).toBe('i32');
    expect(c.srcs[1].ne).toEqual([32, 1, 1, 1]);
    expect(c.dst.ne).toEqual([128, 8, 32, 1]);
    expect(ROPE.features(c)).toEqual({ ne0: 128, rows: 256, n: 32768, nDims: 128 });
  });

  it('inplace: dst is src0 itself', () => {
    const c = ROPE.makeCase([64, 2, 3], 'inplace');
    expect(c.inplace).toBe(true);
    expect(c.dst.nb).toEqual(c.srcs[0].nb);
    expect(c.dst.offsetBytes).toBe(c.srcs[0].offsetBytes);
  });

  it('src0-qkv-view: the K slice of a fused [3·ne0·ne1, tokens] tensor', () => {
    const c = ROPE.makeCase([96, 5, 19], 'src0-qkv-view');
    expect(c.srcs[0].nb).toEqual([4, 96 * 4, 3 * 96 * 5 * 4, 3 * 96 * 5 * 19 * 4]);
    expect(c.srcs[0].offsetBytes).toBe(96 * 5 * 4);
  });

  it('freq-factors: src2 is n_dims/2 f32', () => {
    const c = ROPE.makeCase([128, 3, 23], 'freq-factors', { n_dims: 64 });
    expect(c.srcs[2].ne).toEqual([32, 1, 1, 1]);
    expect(c.srcs[2].type).toBe('f32');
  });

  it("errors name ggml's asserts and the hazards it does not assert", () => {
    const bad = (dims: number[], params: Record<string, number>, re: RegExp, layout = 'contiguous') => {
      expect(() => ROPE.makeCase(dims, layout, params)).toThrow(OpCaseError);
      expect(() => ROPE.makeCase(dims, layout, params)).toThrow(re);
    };
    bad([8, 2, 2], { n_dims: 3 }, /n_dims must be even \(ggml asserts n_dims % 2 == 0\), got 3/);
    bad([8, 2, 2], { n_dims: 10 }, /n_offs \+ n_dims = 10 exceeds ne0 = 8/);
    bad([8, 2, 2], { n_dims: 4, n_offs: 6 }, /n_offs \+ n_dims = 10 exceeds ne0 = 8/);
    bad([8, 2, 2], { n_dims: 4, n_offs: 1 }, /n_offs must be even/);
    bad([9, 2, 2], { n_dims: 4 }, /ne0 must be even, got 9 \(ggml copies the unrotated elements in pairs/);
    bad([8, 2, 2], { mode: 1 }, /mode = 1 is out of range \(mode one of 0 \(normal\), 2 \(neox\)\)/);
    bad([8, 2, 2], { mode: 8 }, /mode = 8 is out of range/);
    bad([8, 2, 2], { freq_scale: 0 }, /freq_scale = 0 is out of range \(freq_scale is a finite number > 0\)/);
    bad([8, 2, 2], { freq_base: -2 }, /freq_base = -2 is out of range/);
    bad([8, 2, 2], { ext_factor: -1 }, /ext_factor = -1 is out of range \(ext_factor is a finite number, 0 ≤ ext_factor\)/);
    bad([8, 2, 2], { n_ctx_orig: 1.5 }, /n_ctx_orig = 1.5 is out of range \(n_ctx_orig is an integer ≥ 0\)/);
    bad([8, 2, 2], { theta: 1 }, /ROPE has no param 'theta' \(params: mode, n_dims/);
    bad([8, 2, 2], { ext_factor: 1, n_ctx_orig: 0 }, /YaRN correction dims are \[.*\].*ggml would compute NaN angles/);
    bad([8, 2, 2], { ext_factor: 1, beta_fast: 0 }, /ggml would compute NaN angles/);
    bad([8, 2, 2], {}, /no layout 'diagonal'/, 'diagonal');
    bad([8, 2, 2, 1, 1], {}, /1 to 4 dims/);
    expect(() => ROPE_BACK.makeCase([8, 2, 2], 'inplace')).toThrow(/ROPE_BACK has no layout 'inplace'/);
  });
});

describe('ROPE constants (ggml computes them once per op, in f32)', () => {
  it('theta_scale = powf(freq_base, -2/n_dims)', () => {
    expect(ropeConstants(defaults, 4).thetaScale).toBe(F(0.01));
    expect(ropeConstants({ ...defaults, n_dims: 2 }, 8).thetaScale).toBe(F(1e-4));
  });

  it("YaRN corr dims for llama's defaults (n_dims 128, n_ctx_orig 4096, beta 32/1): floor 20.94 → 20, ceil 45.03 → 46", () => {
    expect(ropeConstants(defaults, 128).corrDims).toEqual([20, 46]);
    // n_dims 8: 1.31 → 1 and 2.81 → 3; clamped to [0, n_dims − 1] (n_ctx_orig 16: −1.10 → −2 → 0, 0.41 → 1).
    expect(ropeConstants(defaults, 8).corrDims).toEqual([1, 3]);
    expect(ropeConstants({ ...defaults, n_ctx_orig: 16 }, 8).corrDims).toEqual([0, 1]);
  });

  it('mscale = attn_factor, times 1 + 0.1·ln(1/freq_scale) only when ext_factor ≠ 0', () => {
    expect(ropeConstants({ ...defaults, freq_scale: 0.25, attn_factor: 2 }, 8).mscale).toBe(2);
    expect(ropeConstants({ ...defaults, freq_scale: 0.25, ext_factor: 1 }, 8).mscale).toBe(F(1.1386294));
  });
});

describe('ROPE oracle', () => {
  // ne0 = n_dims = 4, base 10000: theta_scale 0.01, so at position 1 pair 0 turns by 1 rad and
  // pair 1 by 0.01 rad; position 0 is the identity.
  it('normal mode: pairs (0,1), (2,3)', () => {
    const c = ROPE.makeCase([4, 1, 2]);
    const out = run(ROPE, c, [1, 2, 3, 4, 1, 2, 3, 4], [0, 1]);
    expect(out.slice(0, 4)).toEqual([1, 2, 3, 4]);
    // 1·cos 1 − 2·sin 1, 1·sin 1 + 2·cos 1, 3·cos .01 − 4·sin .01, 3·sin .01 + 4·cos .01
    const want = [-1.1426396637476532, 1.922075596544176, 2.9598506679133294, 4.029799501669161];
    out.slice(4).forEach((v, i) => expect(v).toBeCloseTo(want[i], 6)); // theta_scale is f32
  });

  it('neox mode: pairs (0,2), (1,3)', () => {
    const c = ROPE.makeCase([4, 1, 1], 'contiguous', { mode: 2 });
    const out = run(ROPE, c, [1, 2, 3, 4], [1]);
    // pair 0 (θ 1): x0 = 1, x1 = 3 → elements 0 and 2; pair 1 (θ .01): x0 = 2, x1 = 4 → 1 and 3.
    const want = [-1.9841106485555495, 1.959900667496664, 2.4623779024123156, 4.019799668334994];
    out.forEach((v, i) => expect(v).toBeCloseTo(want[i], 6));
  });

  it('ROPE_BACK turns the other way (sin negated) and undoes ROPE', () => {
    const c = ROPE_BACK.makeCase([4, 1, 1]);
    const out = run(ROPE_BACK, c, [1, 2, 3, 4], [1]);
    expect(out[0]).toBeCloseTo(2.2232442754839328, 12); // cos 1 + 2·sin 1
    expect(out[1]).toBeCloseTo(0.23913362692838303, 12); // −sin 1 + 2·cos 1
    for (const mode of [0, 2]) {
      const params = { mode, n_dims: 6, ext_factor: 1, freq_scale: 0.5, n_ctx_orig: 64 };
      const fwd = ROPE.makeCase([8, 2, 3], 'freq-factors', params);
      const back = ROPE_BACK.makeCase([8, 2, 3], 'freq-factors', params);
      const x = Array.from({ length: 48 }, (_, i) => Math.sin(i));
      const y = run(ROPE, fwd, x, [5, 900, 17], [1, 2, 4]);
      const again = run(ROPE_BACK, back, y, [5, 900, 17], [1, 2, 4]);
      // mscale = 1 + 0.1·ln 2 scales each way: back(fwd(x)) = mscale²·x.
      const m2 = ropeConstants(fwd.params, 8).mscale ** 2;
      // y went through an f32 buffer: agreement to its rounding.
      again.forEach((v, i) => expect(v).toBeCloseTo(i % 8 < 6 ? m2 * x[i] : x[i], 6));
    }
  });

  it('n_dims < ne0 rotates the first n_dims and copies the rest; n_offs shifts the rotated span', () => {
    const x = [1, 2, 3, 4, 5, 6];
    const head = ROPE.makeCase([6, 1, 1], 'contiguous', { n_dims: 2 });
    const a = run(ROPE, head, x, [1]);
    expect(a[0]).toBeCloseTo(Math.cos(1) - 2 * Math.sin(1), 12);
    expect(a.slice(2)).toEqual([3, 4, 5, 6]);
    const mid = ROPE.makeCase([6, 1, 1], 'contiguous', { n_dims: 2, n_offs: 2 });
    const b = run(ROPE, mid, x, [1]);
    expect([b[0], b[1], b[4], b[5]]).toEqual([1, 2, 5, 6]);
    expect(b[2]).toBeCloseTo(3 * Math.cos(1) - 4 * Math.sin(1), 12);
    expect(b[3]).toBeCloseTo(3 * Math.sin(1) + 4 * Math.cos(1), 12);
  });

  it('freq factors divide θ_j; freq_scale multiplies it; attn_factor scales the result', () => {
    const c = ROPE.makeCase([4, 1, 1], 'freq-factors', { freq_scale: 0.5, attn_factor: 3 });
    const out = run(ROPE, c, [1, 0, 1, 0], [4], [2, 1]);
    // θ0 = 0.5 · 4/2 = 1, θ1 = 0.5 · 4·0.01/1 = 0.02 (theta_scale in f32)
    expect(out[0]).toBeCloseTo(3 * Math.cos(1), 12);
    expect(out[1]).toBeCloseTo(3 * Math.sin(1), 12);
    expect(out[2]).toBeCloseTo(3 * Math.cos(0.02), 7);
    expect(out[3]).toBeCloseTo(3 * Math.sin(0.02), 7);
  });

  it('YaRN: ext_factor 1 keeps pairs below the low corr dim unscaled (θ_extrap) and scales those past the high one', () => {
    // n_dims 8, n_ctx_orig 4096, beta 32/1: corr dims [1, 3], ramp 1 − clamp((j − 1)/2): 1, 1, ½, 0.
    const p = { ext_factor: 1, freq_scale: 0.25 };
    const c = ROPE.makeCase([8, 1, 1], 'contiguous', p);
    const x = [1, 0, 1, 0, 1, 0, 1, 0];
    const out = run(ROPE, c, x, [100]);
    const { thetaScale, mscale } = ropeConstants(c.params, 8);
    for (let j = 0; j < 4; j++) {
      const extrap = 100 * thetaScale ** j;
      const mix = [1, 1, 0.5, 0][j];
      const theta = 0.25 * extrap * (1 - mix) + extrap * mix;
      expect(out[2 * j]).toBeCloseTo(mscale * Math.cos(theta), 12);
      expect(out[2 * j + 1]).toBeCloseTo(mscale * Math.sin(theta), 12);
    }
    expect(out[0]).toBeCloseTo(mscale * Math.cos(100), 12); // j = 0: pure extrapolation
  });

  it('reads src0 through its view strides; epsFloor scales with |θ|, k = n_dims', () => {
    const c = ROPE.makeCase([4, 2, 2], 'src0-permuted');
    const x = Array.from({ length: 16 }, (_, i) => i + 1);
    const r = ROPE.oracle(c, [bufferFor(c.srcs[0], x), bufferFor(c.srcs[1], [0, 1000])]);
    expect(Array.from(r.ref.slice(0, 8))).toEqual(x.slice(0, 8)); // position 0
    expect(r.terms).toBe(4);
    expect(r.epsFloor[8]).toBeCloseTo((9 + 10) * 1001, 6);
    expect(r.epsFloor[0]).toBe((1 + 2) * 1);
  });
});

describe('ROPE inputs', () => {
  it('positions in [0, 8192), freq factors in [1, 8), seeded', () => {
    const c = ROPE.makeCase([128, 3, 23], 'freq-factors');
    const [, pos, ff] = ROPE.inputs!(c, 1);
    const p = new Int32Array(pos);
    const f = new Float32Array(ff);
    expect(p).toHaveLength(23);
    expect(Math.min(...p)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...p)).toBeLessThan(8192);
    expect(Math.min(...f)).toBeGreaterThanOrEqual(1);
    expect(Math.max(...f)).toBeLessThan(8);
    expect(new Int32Array(ROPE.inputs!(c, 1)[1])).toEqual(p);
  });
});

describe('ROPE native kernel', () => {
  it('one thread per pair; the freq factors bound only when present; in place dst alone', () => {
    const k = ROPE.native(ROPE.makeCase([128, 8, 32]));
    expect(k.label).toBe('native:ROPE/rope.wgsl');
    expect(k.bindings.map((b) => `${b.role}:${b.access}`)).toEqual(['src0:read', 'src1:read', 'dst:read_write', 'params:uniform']);
    expect(k.dispatch).toEqual([64, 1, 1]); // 128·8·32 / 2 pairs / 256
    expect(k.wgsl).not.toMatch(/var<storage, read> ff/);
    const ff = ROPE.native(ROPE.makeCase([128, 3, 23], 'freq-factors'));
    expect(ff.label).toBe('native:ROPE/rope.wgsl [FF]');
    expect(ff.bindings.map((b) => b.role)).toEqual(['src0', 'src1', 'src2', 'dst', 'params']);
    expect(ff.wgsl).toMatch(/extrap = extrap \/ ff\[p.off_ff \+ j\];/);
    const inplace = ROPE.native(ROPE.makeCase([128, 4, 17], 'inplace'));
    expect(inplace.label).toBe('native:ROPE/rope.wgsl [INPLACE]');
    expect(inplace.bindings.map((b) => `${b.role}:${b.access}`)).toEqual(['dst:read_write', 'src1:read', 'params:uniform']);
    expect(inplace.wgsl).not.toMatch(/src0\[|var<storage, read> src0/);
    expect(inplace.wgsl).toMatch(/let x0 = dst\[b0 \+ e0\];/);
  });

  it('uniform: shapes, neox flag, f32 constants; ROPE_BACK differs only in sin_sign', () => {
    const c = ROPE.makeCase([8, 2, 3], 'contiguous', { mode: 2, n_dims: 4, n_offs: 2 });
    const u = ROPE.native(c).uniforms!;
    const f = new Float32Array(u.buffer);
    // src0 and dst as Tensor descriptors (12 words each), then npairs and the constants.
    expect([u[12], u[13], u[14], u[24]]).toEqual([8, 2, 3, 24]); // dst ne0..2, npairs
    expect([u[27], u[28], u[29]]).toEqual([1, 4, 2]); // neox, n_dims, n_offs
    expect(f[31]).toBe(F(0.01)); // theta_scale
    expect(f[37]).toBe(1); // sin_sign
    const b = ROPE_BACK.native(ROPE_BACK.makeCase([8, 2, 3], 'contiguous', { mode: 2, n_dims: 4, n_offs: 2 })).uniforms!;
    expect(new Float32Array(b.buffer)[37]).toBe(-1);
    expect(Array.from(b.slice(0, 37))).toEqual(Array.from(u.slice(0, 37)));
  });
});

describe('ROPE generated (elementwise family)', () => {
  const s = { family: 'elementwise', workgroupSize: 256, elementsPerThread: 1, vectorWidth: 1 } as const;
  it('reads x, its partner, the position (i32) and the freq factor; turns with the baked constants', () => {
    const k = ROPE.generate(s, ROPE.makeCase([8, 2, 3], 'freq-factors', { mode: 2, n_dims: 4, n_offs: 2 }));
    expect(k.bindings.map((b) => b.role)).toEqual(['src0', 'src1', 'src2', 'dst']);
    expect(k.wgsl).toMatch(/var<storage, read> src1: array<i32>;/);
    expect(k.wgsl).toMatch(/fn cos_sin\(t: f32\)/); // taken from rope.wgsl
    expect(k.wgsl).toMatch(/let xp_v = src0\[64u \+ select\(i0, select\(i0 - 2u, i0 \+ 2u, i0 < 4u\), i0 >= 2u && i0 < 6u\) \+ i1 \* 8u/);
    expect(k.wgsl).toMatch(/dst\[[^\]]+\] = rope\(x_v, xp_v, f32\(pos_v\), ff_v, i0\);/);
    // n_dims 4: pairs j < 2, one bit: θ-scale^j without powi's loop.
    expect(k.wgsl).toContain('  tp = select(tp, tp * 0.00999999978, (j & 1u) != 0u);\n  var extrap = pos * tp;');
  });

  it("powi unrolled: bit for bit the native loop's value for every j < n (products in the same order)", () => {
    const powi = (b: number, e: number) => {
      let r = 1;
      let x = Math.fround(b);
      for (let k = e; k; k >>= 1) {
        if (k & 1) r = Math.fround(r * x);
        x = Math.fround(x * x);
      }
      return r;
    };
    const b = Math.fround(Math.pow(10000, -2 / 128));
    const lines = powiUnrolled(b, 64, 'tp');
    expect(lines).toHaveLength(2 + 6);
    const factors = lines.slice(2).map((l) => Number(/tp \* ([\d.e-]+),/.exec(l)![1]));
    for (let j = 0; j < 64; j++) {
      let tp = 1;
      factors.forEach((c, i) => (tp = j & (1 << i) ? Math.fround(tp * Math.fround(c)) : tp));
      expect(tp, `j = ${j}`).toBe(powi(b, j));
    }
    expect(powiUnrolled(b, 1, 'tp')).toHaveLength(3); // j = 0 only: one (never taken) bit
  });

  it('the sign of sin is the only difference backward; vectorWidth 2 is refused by name', () => {
    const fwd = ROPE.generate(s, ROPE.makeCase([8, 2, 3]));
    const back = ROPE_BACK.generate(s, ROPE_BACK.makeCase([8, 2, 3]));
    expect(back.wgsl.replace(/ROPE_BACK/g, 'ROPE').replace('* -1.00000000', '* 1.00000000')).toBe(fwd.wgsl);
    expect(ROPE.fits({ ...s, vectorWidth: 2 }, ROPE.makeCase([8, 2, 3]))).toEqual([expect.stringMatching(/vectorWidth 2 needs strided addressing, but xp, pos have a custom index/)]);
  });

  it('the contract: every matrix case, in place declined with its code', () => {
    for (const op of [ROPE, ROPE_BACK]) {
      for (const m of op.matrix) {
        const r = op.require(op.makeCase(m.dims, m.layout, m.params), { limits: DEFAULT_LIMITS, features: [] });
        expect(r?.code ?? null).toBe(m.layout === 'inplace' ? 'inplace-pairs' : null);
      }
    }
  });
});
