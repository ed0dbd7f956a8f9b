import { describe, it, expect } from 'vitest';
import { bufferFor } from '../../../test/fixtures/buffers';
import { adapter, generatedSnapshots, norm } from '../../../test/fixtures/norm';
import { f32Bits } from '../kernel';
import { schedulesFor } from './registry';
import { RMS_NORM } from './rms-norm';
import { RMS_NORM_BACK } from './rms-norm-back';
import { OpCaseError } from './types';

/** Deterministic values on a 2^-8 grid in [-1, 1): exact in f32, and x ± 2^-12 stays exact. */
function gridValues(n: number, seed: number): number[] {
  return Array.from({ length: n }, (_, i) => (((i * 37 + seed * 101) % 256) - 128) / 128);
}

describe('RMS_NORM_BACK makeCase', () => {
  it('src0 = dz, src1 = x, dst = dx, all one shape; eps defaults to 1e-6', () => {
    const c = RMS_NORM_BACK.makeCase([4093, 37]);
    expect(c.srcs.map((t) => t.ne)).toEqual([
      [4093, 37, 1, 1],
      [4093, 37, 1, 1],
    ]);
    expect(c.dst.ne).toEqual([4093, 37, 1, 1]);
    expect(c.params).toEqual({ eps: 1e-6 });
    expect(c.inplace).toBe(false);
  });

  it('src1-rows-strided makes x the view; src0-permuted makes dz the view', () => {
    const s = RMS_NORM_BACK.makeCase([4096, 128], 'src1-rows-strided');
    expect(s.srcs[0].layout).toBe('contiguous');
    expect(s.srcs[1].nb[1]).toBe(4099 * 4);
    const p = RMS_NORM_BACK.makeCase([128, 32, 16], 'src0-permuted');
    expect(p.srcs[0].nb).toEqual([4, 128 * 16 * 4, 128 * 4, 128 * 16 * 32 * 4]);
    expect(p.srcs[1].layout).toBe('contiguous');
  });

  it('errors name what is wrong', () => {
    expect(() => RMS_NORM_BACK.makeCase([8], 'inplace')).toThrow(OpCaseError);
    expect(() => RMS_NORM_BACK.makeCase([8], 'inplace')).toThrow(/no 'inplace' layout: ggml has no in-place rms_norm_back/);
    expect(() => RMS_NORM_BACK.makeCase([8], 'transposed')).toThrow(/no layout 'transposed' \(layouts: contiguous, src1-rows-strided, src0-permuted\)/);
    expect(() => RMS_NORM_BACK.makeCase([8], 'contiguous', { eps: -1e-6 })).toThrow(/RMS_NORM_BACK: eps = -0.000001 is out of range \(eps is a finite number, 0 ≤ eps\)/);
    expect(() => RMS_NORM_BACK.makeCase([8], 'contiguous', { eps: 1e-6, alpha: 2 })).toThrow(/RMS_NORM_BACK has no param 'alpha' \(params: eps\)/);
  });
});

describe('RMS_NORM_BACK oracle', () => {
  it('a hand-computed row: x = [1, 2, 3, 4], dz = [1, 0, 0, 0], eps = 0.5', () => {
    // sum_xx = 30, sum_xdz = 1, mean_eps = 30/4 + 0.5 = 8, sum_eps = 30 + 0.5·4 = 32, rrms = 1/√8
    // dx = (x·(−1/32) + dz)/√8 = [31/32, −2/32, −3/32, −4/32]/√8
    //    = [0.3425048, −0.0220971, −0.0331456, −0.0441942]
    const c = RMS_NORM_BACK.makeCase([4], 'contiguous', { eps: 0.5 });
    const r = RMS_NORM_BACK.oracle(c, [bufferFor(c.srcs[0], [1, 0, 0, 0]), bufferFor(c.srcs[1], [1, 2, 3, 4])]);
    const rrms = 1 / Math.sqrt(8);
    [31 / 32, -2 / 32, -3 / 32, -4 / 32].forEach((v, i) => expect(r.ref[i]).toBeCloseTo(v * rrms, 15));
    expect(r.ref[0]).toBeCloseTo(0.3425048, 7);
    expect(r.terms).toBe(4);
    // epsFloor = (|dz| + |x|·Σ|x·dz|/sum_eps)·rrms, Σ|x·dz| = 1: [1 + 1/32, 2/32, 3/32, 4/32]/√8
    [33 / 32, 2 / 32, 3 / 32, 4 / 32].forEach((v, i) => expect(r.epsFloor[i]).toBeCloseTo(v * rrms, 15));
  });

  it('the floor counts the products inside sum_xdz, not their cancelled sum', () => {
    // x = [1, 1], dz = [1, −1], eps = 0: sum_xdz = 0 but Σ|x·dz| = 2; sum_xx = sum_eps = 2, rrms = 1.
    // dx = dz = [1, −1]; floor = (|dz| + |x|·2/2)·1 = 2 (|sum_xdz| in its place would say 1).
    const c = RMS_NORM_BACK.makeCase([2], 'contiguous', { eps: 0 });
    const r = RMS_NORM_BACK.oracle(c, [bufferFor(c.srcs[0], [1, -1]), bufferFor(c.srcs[1], [1, 1])]);
    expect(Array.from(r.ref)).toEqual([1, -1]);
    expect(Array.from(r.epsFloor)).toEqual([2, 2]);
  });

  it('the floor stays positive where the two terms cancel', () => {
    // x = [1, 1], dz = [1, 1], eps = 0: k = −sum_xdz/sum_eps = −1, so dx = (−1 + 1)·rrms = 0 exactly.
    const c = RMS_NORM_BACK.makeCase([2], 'contiguous', { eps: 0 });
    const r = RMS_NORM_BACK.oracle(c, [bufferFor(c.srcs[0], [1, 1]), bufferFor(c.srcs[1], [1, 1])]);
    expect(Array.from(r.ref)).toEqual([0, 0]);
    expect(Array.from(r.epsFloor)).toEqual([2, 2]);
  });

  it('matches a finite-difference gradient of the RMS_NORM oracle', () => {
    // L(x) = Σ dz·rms_norm(x); ∂L/∂x_j by central differences must equal RMS_NORM_BACK's dx_j.
    // Inputs on a 2^-8 grid and h = 2^-12 keep every x ± h exact in f32.
    const dims = [5, 3];
    const eps = 0.01;
    const fwd = RMS_NORM.makeCase(dims, 'contiguous', { eps });
    const back = RMS_NORM_BACK.makeCase(dims, 'contiguous', { eps });
    const x = gridValues(15, 1);
    const dz = gridValues(15, 2);
    const dx = RMS_NORM_BACK.oracle(back, [bufferFor(back.srcs[0], dz), bufferFor(back.srcs[1], x)]).ref;
    const loss = (xs: number[]) => RMS_NORM.oracle(fwd, [bufferFor(fwd.srcs[0], xs)]).ref.reduce((acc, y, i) => acc + y * dz[i], 0);
    const h = 2 ** -12;
    for (let j = 0; j < x.length; j++) {
      const plus = x.slice();
      const minus = x.slice();
      plus[j] += h;
      minus[j] -= h;
      const numeric = (loss(plus) - loss(minus)) / (2 * h);
      expect(Math.abs(numeric - dx[j])).toBeLessThan(1e-5);
    }
    expect(dx.some((v) => Math.abs(v) > 0.1)).toBe(true); // the check is not vacuous
  });

  it('eps ≫ mean(x²) leaves dx ≈ dz/√eps', () => {
    const c = RMS_NORM_BACK.makeCase([4], 'contiguous', { eps: 1e6 });
    const r = RMS_NORM_BACK.oracle(c, [bufferFor(c.srcs[0], [1, -2, 3, -4]), bufferFor(c.srcs[1], [0.5, 0.25, -1, 1])]);
    expect(r.ref[1]).toBeCloseTo(-2 / 1000, 8);
  });

  it('src1-rows-strided and src0-permuted read through their strides: the same dx as contiguous', () => {
    const dims = [3, 2, 2];
    const dz = gridValues(12, 3);
    const x = gridValues(12, 4);
    const ref = (layout: string) => {
      const c = RMS_NORM_BACK.makeCase(dims, layout);
      return RMS_NORM_BACK.oracle(c, [bufferFor(c.srcs[0], dz), bufferFor(c.srcs[1], x)]).ref;
    };
    const want = ref('contiguous');
    expect(ref('src1-rows-strided')).toEqual(want);
    expect(ref('src0-permuted')).toEqual(want);
  });
});

describe('RMS_NORM_BACK metrics, contract and fits', () => {
  it('memory-only: no flops; both sources read once, dst written once', () => {
    const c = RMS_NORM_BACK.makeCase([4096, 512]);
    expect(RMS_NORM_BACK.flops(c)).toBeNull();
    expect(RMS_NORM_BACK.bytes(c)).toEqual({ readBytes: 2 * 4096 * 512 * 4, writeBytes: 4096 * 512 * 4 });
    expect(RMS_NORM_BACK.features(c)).toEqual({ ne0: 4096, rows: 512, n: 4096 * 512 });
  });

  it('require takes every case makeCase builds; the matrix covers every layout', () => {
    for (const m of RMS_NORM_BACK.matrix) expect(RMS_NORM_BACK.require(RMS_NORM_BACK.makeCase(m.dims, m.layout), adapter)).toBeNull();
    expect(new Set(RMS_NORM_BACK.matrix.map((m) => m.layout))).toEqual(new Set(RMS_NORM_BACK.layouts.map((l) => l.name)));
  });

  it('vec4 refuses the strided x by name', () => {
    expect(RMS_NORM_BACK.fits(norm({ vectorWidth: 4 }), RMS_NORM_BACK.makeCase([4096, 128], 'src1-rows-strided'))).toEqual([
      "vectorWidth 4 needs src1 (x)'s rows to start on 4-element boundaries (offset 65 elements, nb1 = 4099 elements)",
    ]);
    expect(RMS_NORM_BACK.fits(norm({ vectorWidth: 4 }), RMS_NORM_BACK.makeCase([4096, 128], 'src0-permuted'))).toEqual([]);
    expect(schedulesFor('RMS_NORM_BACK', RMS_NORM_BACK.makeCase([4096, 128], 'src1-rows-strided'), adapter)).toMatchObject({ vectorWidth: 1 });
    expect(schedulesFor('RMS_NORM_BACK', RMS_NORM_BACK.makeCase([4096, 128]), adapter)).toMatchObject({ vectorWidth: 4 });
  });
});

describe('RMS_NORM_BACK kernels', () => {
  it('native params: dz, x and dx as Tensor descriptors (the row template), eps as f32 bits', () => {
    const c = RMS_NORM_BACK.makeCase([4093, 37], 'src1-rows-strided', { eps: 1e-5 });
    const k = RMS_NORM_BACK.native(c);
    // per tensor: ne | element strides | off, n, padding; then eps
    const n = 4093 * 37;
    expect(Array.from(k.uniforms!.slice(0, 37))).toEqual([
      4093, 37, 1, 1, 1, 4093, n, n, 64, n, 0, 0, // dz
      4093, 37, 1, 1, 1, 4096, 4096 * 37, 4096 * 37, 65, n, 0, 0, // x, rows 4096 apart
      4093, 37, 1, 1, 1, 4093, n, n, 64, n, 0, 0, // dx
      f32Bits(1e-5),
    ]);
    expect(k.label).toBe('native:RMS_NORM_BACK (row/row.wgsl)');
    expect(k.dispatch).toEqual([37, 1, 1]);
    expect(k.bindings.map((b) => `${b.role}:${b.access}`)).toEqual(['src0:read', 'src1:read', 'dst:read_write', 'params:uniform']);
  });

  it('generated: both sums reduce together as a vec2', () => {
    const k = RMS_NORM_BACK.generate(norm({ reduction: 'subgroup' }), RMS_NORM_BACK.makeCase([1024, 4], 'contiguous', { eps: 0.5 }));
    expect(k.wgsl).toContain('var<workgroup> red: array<vec2<f32>, 64>;');
    expect(k.wgsl).toContain('acc0 += vec2<f32>(x0 * x0, x0 * dz0);');
    expect(k.wgsl).toContain('let k = -sum_xdz / (sum_xx + 512.000000);'); // eps·ne0 = 0.5·1024
    expect(k.features).toEqual(['subgroups']);
  });

  generatedSnapshots(RMS_NORM_BACK, [
    ['4096x512 contiguous, vec4 shared unroll 4 (the registry pick: row in registers)', { vectorWidth: 4, unroll: 4 }, [4096, 512]],
    ['4096x512 contiguous, vec4 shared unroll 2 (row re-read)', { vectorWidth: 4, unroll: 2 }, [4096, 512]],
    ['4093x37 src1-rows-strided, scalar subgroup unroll 2', { reduction: 'subgroup', unroll: 2 }, [4093, 37], 'src1-rows-strided'],
    ['128x32x16 src0-permuted, vec4 subgroup, 32 threads', { reduction: 'subgroup', vectorWidth: 4, workgroupSize: 32 }, [128, 32, 16], 'src0-permuted'],
  ]);
});
