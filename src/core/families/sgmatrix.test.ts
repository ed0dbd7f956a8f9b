import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../adapter';
import { MUL_MAT } from '../ops/mul-mat';
import { limitsNeeded, parseSchedule, validateSchedule, type Schedule } from '../schedule/schedule';
import { checkOutput } from '../stats/correctness';
import { contiguous } from '../tensor';
import { GUARD_BYTES, sentinelBuffer, withGuards } from '../hostdata';
import { SGMATRIX, sgmatrixTile } from './sgmatrix';

const sg = (knobs: Record<string, number | string> = {}): Schedule =>
  parseSchedule({ family: 'sgmatrix', config: '16x8x16', subgroupsM: 2, subgroupsN: 2, matricesM: 2, matricesN: 2, tileK: 32, ...knobs });
const featured = { limits: DEFAULT_LIMITS, features: ['subgroups', 'shader-f16', 'chromium-experimental-subgroup-matrix'] };

describe('sgmatrix family (chromium-experimental-subgroup-matrix, f16→f32)', () => {
  it('sizes the tile and the workgroup from the knobs', () => {
    expect(sgmatrixTile(sg() as never)).toEqual({ BM: 64, BN: 32, threads: 128 });
    // (64 + 32) rows of (32 + 8 padding) f16
    expect(SGMATRIX.workgroupBytes(sg() as never)).toBe(96 * 40 * 2);
    // Double-buffered staging: two of each.
    expect(SGMATRIX.workgroupBytes(sg({ staging: 'double' }) as never)).toBe(2 * 96 * 40 * 2);
    // Above WebGPU's defaults: 256×128 tiles of 16x16x16 need (256 + 128)·40·2 B; 8 subgroups fit 256 threads.
    expect(limitsNeeded(sg({ config: '16x16x16', subgroupsM: 4, matricesM: 4, matricesN: 4 }))).toEqual({ maxComputeWorkgroupStorageSize: 30720 });
    expect(limitsNeeded(sg({ subgroupsM: 4, subgroupsN: 4 }))).toEqual({ maxComputeInvocationsPerWorkgroup: 512 });
    expect(limitsNeeded(sg())).toEqual({});
    // Schedules written before the staging knob meant single staging.
    expect(sg()).toMatchObject({ staging: 'single' });
  });

  it('stages K tiles single, prefetched into registers, or double-buffered with one barrier per tile', () => {
    const c = MUL_MAT.makeCase([64, 32, 96], 'contiguous', { type0: 1 });
    const barriers = (staging: string) => MUL_MAT.generate(sg({ staging }), c).wgsl.split('for (var k0')[1].match(/workgroupBarrier/g)?.length;
    expect([barriers('single'), barriers('prefetch'), barriers('double')]).toEqual([2, 2, 1]);
    const double = MUL_MAT.generate(sg({ staging: 'double' }), c);
    expect(double.wgsl).toContain('var<workgroup> sA: array<f16, 5120>;'); // 2 × 64 rows × 40
    // The next tile's loads come before the multiply, its stores into the other buffer after.
    const loop = double.wgsl.split('for (var k0')[1];
    expect(loop.indexOf('aw0 = src0[ag0 + (k0 + 32u) / 8u];')).toBeLessThan(loop.indexOf('subgroupMatrixMultiplyAccumulate'));
    expect(loop.indexOf('sA[(1u - cur) * 2560u + ao0 + 0u]')).toBeGreaterThan(loop.lastIndexOf('subgroupMatrixMultiplyAccumulate'));
    expect(`${double.label}\n${double.wgsl}`).toMatchSnapshot();
  });

  it('needs the features, and a tileK the config divides', () => {
    expect(validateSchedule(sg(), featured)).toEqual([]);
    expect(validateSchedule(sg(), { limits: DEFAULT_LIMITS, features: ['subgroups'] })).toEqual([
      "sgmatrix needs the 'chromium-experimental-subgroup-matrix' feature, which this adapter lacks",
      "sgmatrix needs the 'shader-f16' feature, which this adapter lacks",
    ]);
    expect(validateSchedule(sg({ config: '16x16x16', tileK: 12 }), featured)).toEqual(["tileK 12 is not a multiple of the config's K 16", 'tileK 12 must be a multiple of 8 (8 f16 per load)']);
  });

  it('takes whole tiles only, with rows aligned for its loads', () => {
    expect(MUL_MAT.fits(sg(), MUL_MAT.makeCase([128, 64, 64], 'contiguous', { type0: 1, type1: 1 }))).toEqual([]);
    expect(MUL_MAT.fits(sg(), MUL_MAT.makeCase([100, 40, 48], 'contiguous', { type0: 1, type1: 1 }))).toEqual([
      "M = 100 is not a multiple of the tile's 64 (subgroupsM·matricesM·16)",
      "N = 40 is not a multiple of the tile's 32 (subgroupsN·matricesN·8)",
      'K = 48 is not a multiple of tileK 32',
    ]);
    expect(MUL_MAT.fits(sg({ tileK: 16 }), MUL_MAT.makeCase([64, 32, 48], 'src0-odd-stride', { type0: 1 }))).toEqual([
      "sgmatrix loads 8 f16 at a time: src0's rows must start on 8-element boundaries (offset 128, row stride 49)",
    ]);
  });

  it('generates subgroup-matrix WGSL; f32 operands staged as f16 say so in the label and in inputRounding', () => {
    const f16 = MUL_MAT.generate(sg(), MUL_MAT.makeCase([128, 64, 64], 'contiguous', { type0: 1, type1: 1 }));
    expect(f16.inputRounding).toBeUndefined();
    expect(f16.features).toEqual(['shader-f16', 'subgroups', 'chromium-experimental-subgroup-matrix']);
    expect(f16.dispatch).toEqual([2, 2, 1]);
    expect(`${f16.label}\n${f16.wgsl}`).toMatchSnapshot();
    const mixed = MUL_MAT.generate(sg(), MUL_MAT.makeCase([64, 32, 32], 'contiguous', { type0: 1 }));
    expect(mixed.inputRounding).toBe('f16');
    expect(mixed.label).toMatch(/\[f32 operands staged as f16\]$/);
    expect(mixed.wgsl).toMatch(/let bh = vec4<f16>\(bw0\);/);
    // f32 × f32 stays exact f32 on every rule; staged as f16 only when asked, and labelled so.
    const f32 = MUL_MAT.generate(sg(), MUL_MAT.makeCase([64, 32, 32]));
    expect(f32.inputRounding).toBe('f16');
    expect(f32.label).toBe('generated:MUL_MAT sgmatrix{"config":"16x8x16","matricesM":2,"matricesN":2,"staging":"single","storeOrder":"plain","subgroupSize":32,"subgroupsM":2,"subgroupsN":2,"tileK":32} [f32 operands staged as f16]');
  });

  it("holds a kernel that rounds its inputs to f16's eps, not f32's", () => {
    // One output, K = 4 terms of 1: the bound is sqrt(4)·8·eps·(1 + floor) with floor Σ|ab|/sqrt(4) = 2.
    const dst = contiguous('f32', [1]);
    const oracle = { ref: new Float64Array([4]), epsFloor: new Float64Array([2]), terms: 4 };
    const before = sentinelBuffer(GUARD_BYTES * 2 + 16);
    const after = withGuards(new Float32Array([4 + 2 ** -9]).buffer);
    expect(checkOutput(dst, oracle, before, after).correct).toBe(false); // 16·2^-23·6 ≈ 1.1e-5 < 2^-9
    expect(checkOutput(dst, oracle, before, after, 'f16').correct).toBe(true); // 16·2^-10·6 ≈ 0.094
  });
});
