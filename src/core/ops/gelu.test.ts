import { describe, expect, it } from 'vitest';
import { f16BitsToF32, f32ToF16Bits } from '../hostdata';
import { GELU, GELU_COEF_A, SQRT_2_OVER_PI, gelu } from './gelu';

const f32 = (xs: number[]) => new Float32Array(xs).buffer;
const toF16 = (x: number) => f16BitsToF32(f32ToF16Bits(x));

/** ggml's CPU f32 GELU (GGML_GELU_FP16): ±10 cut-offs, else the f16 table of ggml_gelu_f32 at f16(x). */
function ggmlCpuTableGelu(x: number): number {
  if (x <= -10) return 0;
  if (x >= 10) return x;
  const xh = toF16(x);
  const t = Math.fround(0.5 * xh * (1 + Math.tanh(Math.fround(SQRT_2_OVER_PI * xh * (1 + GELU_COEF_A * xh * xh)))));
  return toF16(t);
}

describe('GELU (ggml_gelu, tanh form)', () => {
  it("uses ggml's f32 constants", () => {
    expect(GELU_COEF_A).toBe(Math.fround(0.044715));
    expect(SQRT_2_OVER_PI).toBe(Math.fround(Math.sqrt(2 / Math.PI)));
  });

  it('computes 0.5·x·(1 + tanh(√(2/π)·x·(1 + 0.044715·x²)))', () => {
    expect(gelu(0).y).toBe(0);
    // Published values of the tanh approximation (f64 constants); ggml's f32 constants move them by < 1e-8.
    expect(gelu(1).y).toBeCloseTo(0.8411919906082768, 7);
    expect(gelu(-1).y).toBeCloseTo(-0.15880800939172324, 7);
    expect(gelu(2).y).toBeCloseTo(1.954597694087775, 7);
    expect(gelu(-3).y).toBeCloseTo(-0.0036373920817729943, 7);
  });

  it('oracle: epsFloor is the size of the two terms that meet, widened for tanh', () => {
    const c = GELU.makeCase([3]);
    const r = GELU.oracle(c, [f32([0, 1, -6])]);
    expect(r.ref[0]).toBe(0);
    expect(r.ref[1]).toBeCloseTo(0.8411919966, 9);
    expect(r.epsFloor[0]).toBe(0);
    // x = -6: 1 + tanh(u) cancels to ~1e-9, the terms are 0.5·6·(1 + ~1) = ~6, widened by 1 + 2·|u|/4.
    const u = gelu(-6).u;
    expect(u).toBeCloseTo(-12.4936, 3);
    expect(r.epsFloor[2]).toBeCloseTo(0.5 * 6 * (1 + Math.abs(Math.tanh(u))) * (1 + (2 * Math.abs(u)) / 4), 9);
    expect(Math.abs(r.ref[2])).toBeLessThan(1e-8);
  });

  it("differs from ggml's CPU f16-table GELU by at most 2⁻¹¹·(1.13·|x| + |gelu(x)|) + 2⁻²⁵ (the bound gelu.ts states)", () => {
    let worst = 0;
    for (let k = -140000; k <= 140000; k++) {
      const x = Math.fround(k / 10000);
      const exact = gelu(x).y;
      const bound = 2 ** -11 * (1.13 * Math.abs(x) + Math.abs(exact)) + 2 ** -25;
      const diff = Math.abs(ggmlCpuTableGelu(x) - exact);
      worst = Math.max(worst, diff / bound);
    }
    expect(worst).toBeLessThanOrEqual(1);
    // Not a loose bound: some x come within a factor of 2 of it.
    expect(worst).toBeGreaterThan(0.5);
    // At the cut-offs the table path returns x and 0; the formula agrees to f32 precision there.
    expect(Math.abs(ggmlCpuTableGelu(10) - gelu(10).y)).toBeLessThan(1e-6);
    expect(Math.abs(ggmlCpuTableGelu(-10) - gelu(-10).y)).toBeLessThan(1e-6);
  });

  it('has every unary layout and the in-place native kernel', () => {
    expect(GELU.layouts.map((l) => l.name)).toEqual(['contiguous', 'inplace', 'src0-rows-strided', 'src0-permuted']);
    const inplace = GELU.native(GELU.makeCase([8], 'inplace'));
    expect(inplace.label).toBe('native:GELU (unary/unary.wgsl) [INPLACE]');
    expect(inplace.bindings.map((b) => b.role)).toEqual(['dst', 'params']);
    const wgsl = GELU.native(GELU.makeCase([8])).wgsl;
    expect(wgsl).toContain('const gelu_k: f32 = 0.797884583;\nconst gelu_a: f32 = 0.0447149985;');
    expect(wgsl).toContain('return x / (1.0 + exp(-2.0 * (gelu_k * x * (1.0 + gelu_a * x * x))));');
  });

  it('computes the tanh form as x / (1 + exp(-2u)): equal, and finite where tanh would overflow', () => {
    for (const x of [-9, -3, -0.5, 0.25, 1, 4]) {
      const { u, y } = gelu(x);
      expect(x / (1 + Math.exp(-2 * u))).toBeCloseTo(y, 14);
    }
    // f32 exp(-2u) overflows to +inf for x ≪ 0: the quotient is -0, not NaN.
    expect(-60 / (1 + Math.fround(Math.exp(2 * 60 ** 3 * 0.0357)))).toBe(-0);
    const k = GELU.generate({ family: 'elementwise', workgroupSize: 64, elementsPerThread: 1, vectorWidth: 4 }, GELU.makeCase([64]));
    expect(k.wgsl).toContain('const gelu_k: f32 = 0.797884583;');
    expect(k.wgsl).toContain('x_v / (1.0 + exp(-2.0 * (gelu_k * x_v * (1.0 + gelu_a * x_v * x_v))))');
  });

  it('refuses params and unknown layouts by name', () => {
    expect(() => GELU.makeCase([4], 'contiguous', { approximate: 1 })).toThrow('GELU takes no params, got approximate');
    expect(() => GELU.makeCase([4], 'broadcast-row')).toThrow("GELU has no layout 'broadcast-row'");
  });
});
