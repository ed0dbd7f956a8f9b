import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../adapter';
import { caseData } from '../inputs';
import { parseParamAssignments } from './types';
import { MUL_MAT } from './mul-mat';
import { schedulesFor } from './registry';
import { decodeWeights, weightFormat } from '../quant/weights';
import { dotOracle } from './dot-oracle';

describe('MUL_MAT with quantized src0', () => {
  it('type0 takes a format by name or ggml id; labels write the name', () => {
    expect(parseParamAssignments('type0=q4_0')).toEqual({ type0: 2 });
    expect(parseParamAssignments('type0=Q6_K,type1=f16')).toEqual({ type0: 14, type1: 1 });
    const c = MUL_MAT.makeCase([64, 3, 96], 'contiguous', { type0: 8 });
    expect(c.label).toBe('64x3x96 type0=q8_0');
    expect(MUL_MAT.makeCase([64, 3, 96], 'contiguous', { type0: 1 }).label).toBe('64x3x96 type0=1');
    expect(c.srcs.map((t) => [t.type, t.ne[0]])).toEqual([['i32', (64 * 3 * 34) / 4], ['f32', 96]]);
  });

  it('counts the weights as stored, flops as the dense product, features name the format', () => {
    const c = MUL_MAT.makeCase([64, 2, 256], 'contiguous', { type0: 12 });
    expect(MUL_MAT.bytes(c)).toEqual({ readBytes: 64 * 144 + 2 * 256 * 4, writeBytes: 64 * 2 * 4 });
    expect(MUL_MAT.flops(c)).toBe(2 * 64 * 2 * 256);
    expect(MUL_MAT.features(c)).toMatchObject({ M: 64, N: 2, K: 256, quant: 1, type0: 12 });
  });

  it('the oracle multiplies the dequantized weights; the rules pick gemv to N = 8, then the tiled matmul', () => {
    const c = MUL_MAT.makeCase([8, 2, 32], 'contiguous', { type0: 8 });
    const { inputs, oracle } = caseData(MUL_MAT, c, 3);
    expect(oracle.terms).toBe(32);
    expect(oracle.ref.every(Number.isFinite)).toBe(true);
    expect(inputs[0].byteLength).toBe(8 * 34);
    const a = { limits: DEFAULT_LIMITS, features: [] as string[] };
    expect(schedulesFor('MUL_MAT', c, a)?.family).toBe('gemv');
    expect(schedulesFor('MUL_MAT', MUL_MAT.makeCase([64, 16, 64], 'contiguous', { type0: 2 }), a)?.family).toBe('matmul');
    const wq = MUL_MAT.generate(schedulesFor('MUL_MAT', c, a)!, c).wgsl;
    // Every format decodes by block where K % 32 == 0 (block-wgsl.ts; 8-weight parts, four threads a chunk; the K-quants too since
    // issue 20's block decode for all formats); a Track-1 row with a ragged end one weight at a time.
    expect(wq).toContain('let wp0 = wq_part(ab + kb, qp);');
    expect(wq).not.toContain('fn wq(i: u32) -> f32');
    expect(MUL_MAT.generate(schedulesFor('MUL_MAT', c, a)!, MUL_MAT.makeCase([8, 2, 256], 'contiguous', { type0: 12 })).wgsl).toContain('let wp0 = wq_part(ab + kb, qp);');
    const ragged = MUL_MAT.makeCase([8, 2, 70], 'contiguous', { type0: weightFormat('int5').id });
    expect(MUL_MAT.generate(schedulesFor('MUL_MAT', ragged, a)!, ragged).wgsl).toContain('fn wq(i: u32) -> f32');
    expect(wq).toMatch(/var<storage, read> src0: array<u32>/);
  });

  it('past N = 8 the rules pick subgroup matrices where the adapter offers them (f32 or f16 activations), the tiled f32 matmul elsewhere', () => {
    const plain = { limits: DEFAULT_LIMITS, features: [] as string[] };
    const featured = { limits: DEFAULT_LIMITS, features: ['subgroups', 'shader-f16', 'chromium-experimental-subgroup-matrix'] };
    const h200 = { ...featured, limits: { ...DEFAULT_LIMITS, maxComputeWorkgroupStorageSize: 49152 } };
    const q = (name: string, dims: number[], type1 = 0) => MUL_MAT.makeCase(dims, 'contiguous', { type0: weightFormat(name).id, type1 });
    // issue 20's GEMM row: 4096×512×4096 of a 4-bit format, f32 src1 staged as f16 or f16 src1 (the formats of
    // matmul-tune.sh qgemm and h200.sh formatsgemm, whose `lab formats --op gemm` runs auto).
    for (const name of ['q4_0', 'q8_0', 'mxfp4', 'nvfp4', 'int4', 'mxint4']) {
      for (const type1 of [0, 1]) {
        // H200 (qgemm, qgemm2; q4_0): 128×128 tiles double-staged 148 µs, prefetch 176, 128×64's 217 — where the
        // adapter offers their 40 KiB (20 KiB prefetch); 128×64 at the 16 KiB default.
        expect(schedulesFor('MUL_MAT', q(name, [4096, 512, 4096], type1), h200), `${name} type1=${type1}`).toMatchObject({ family: 'sgmatrix', config: '16x16x16', subgroupsM: 2, subgroupsN: 2, matricesM: 4, matricesN: 4, tileK: 32, staging: 'double' });
        expect(schedulesFor('MUL_MAT', q(name, [4096, 512, 4096], type1), { ...featured, limits: { ...DEFAULT_LIMITS, maxComputeWorkgroupStorageSize: 32768 } })).toMatchObject({ matricesN: 4, staging: 'prefetch' });
        expect(schedulesFor('MUL_MAT', q(name, [4096, 512, 4096], type1), featured), `${name} type1=${type1}`).toMatchObject({ family: 'sgmatrix', config: '16x16x16', subgroupsM: 2, subgroupsN: 2, matricesM: 4, matricesN: 2, tileK: 32, staging: 'prefetch' });
      }
      expect(schedulesFor('MUL_MAT', q(name, [4096, 512, 4096]), plain)).toMatchObject({ family: 'matmul', tileM: 128, tileN: 128 });
    }
    // Tiles that do not divide the shape: the smallest whole-block tile, then (f32 src1) the tiled matmul.
    expect(schedulesFor('MUL_MAT', q('q4_k', [48, 24, 256], 1), featured)).toMatchObject({ family: 'sgmatrix', config: '16x8x16', matricesM: 1, tileK: 32 });
    expect(schedulesFor('MUL_MAT', q('q4_0', [40, 24, 64]), featured)).toMatchObject({ family: 'matmul' });
    expect(MUL_MAT.generate(schedulesFor('MUL_MAT', q('q4_0', [256, 64, 128]), featured)!, q('q4_0', [256, 64, 128])).label).toMatch(/\[weights decoded to f16, f32 src1 staged as f16\]$/);
  });

  it('the contract: f16 activations past N = 8 need subgroup matrices (the tiled matmul reads f32), named for the format', () => {
    const q = (name: string, dims: number[], type1 = 1) => MUL_MAT.makeCase(dims, 'contiguous', { type0: weightFormat(name).id, type1 });
    const a = { limits: DEFAULT_LIMITS, features: [] as string[] };
    expect(MUL_MAT.require(q('q4_0', [64, 16, 64]), a)).toEqual({ code: 'no-shader-f16', reason: "q4_0 weights × f16 activations with N = 16 > 8 run on subgroup matrices, which need 'shader-f16'; this adapter lacks it" });
    expect(MUL_MAT.require(q('q4_0', [64, 16, 64]), { ...a, features: ['shader-f16'] })?.code).toBe('no-subgroup-matrix');
    const full = { ...a, features: ['shader-f16', 'subgroups', 'chromium-experimental-subgroup-matrix'] };
    expect(MUL_MAT.require(q('q4_0', [64, 16, 64]), full)).toBeNull();
    // Whole tiles only: M % 16, and for block formats K % 32 (one block per tile row); K-quants and Track-1 formats K % 16.
    expect(MUL_MAT.require(q('q8_0', [40, 16, 64]), full)).toEqual({ code: 'sgmatrix-unfit', reason: "q8_0 weights × f16 activations with N > 8 run on whole subgroup-matrix tiles: M = 40 is not a multiple of the tile's 16 (subgroupsM·matricesM·16)" });
    expect(MUL_MAT.require(q('nvfp4', [64, 16, 48]), full)).toBeNull();
    expect(MUL_MAT.require(q('int4', [64, 16, 72]), full)?.reason).toMatch(/K = 72 is not a multiple of tileK 16/);
    // f32 activations and the decode ground are every adapter's.
    expect(MUL_MAT.require(q('q4_0', [40, 16, 64], 0), a)).toBeNull();
    expect(MUL_MAT.require(q('q4_0', [40, 8, 64]), a)).toBeNull();
  });

  it('the slab oracle equals the dot product of the whole decoded matrix, full and sampled (slabs span many rows)', () => {
    // 40 × 32768 q4_0 weights: 1.3M, two slabs of 32 rows; N = 3.
    const c = MUL_MAT.makeCase([40, 3, 32768], 'contiguous', { type0: 2 });
    const { inputs, oracle } = caseData(MUL_MAT, c, 5);
    const w = Float64Array.from(decodeWeights(weightFormat(2), new Uint32Array(inputs[0]), 40, 32768));
    const want = dotOracle(c.dst, 32768, [1, 1], w, { row: 32768, k: 1 }, Float64Array.from(new Float32Array(inputs[1])), { row: 32768, k: 1 });
    expect(oracle.ref).toEqual(want.ref);
    expect(oracle.epsFloor).toEqual(want.epsFloor);
    const sample = Int32Array.from([0, 7, 45, 81, 119]);
    const sampled = MUL_MAT.oracle(c, inputs, sample);
    expect(sampled.indices).toBe(sample);
    expect(Array.from(sampled.ref)).toEqual(Array.from(sample, (e) => want.ref[e]));
  }, 60_000);
});

