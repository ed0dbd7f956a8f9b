import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../adapter';
import { parseSchedule, validateSchedule, type Schedule } from '../schedule/schedule';
import { contiguous, permute, stridedRows, transpose } from '../tensor';
import { MUL_MAT, operandProblems } from './mul-mat';
import { registryEntry, schedulesFor } from './registry';
import type { OpCase } from './types';
import { bufferFor } from '../../../test/fixtures/buffers';

const f32 = (xs: number[]) => new Float32Array(xs).buffer;
const adapter = { limits: DEFAULT_LIMITS, features: [] as string[] };
const mm = (knobs: Partial<Record<string, number | string>>): Schedule =>
  parseSchedule({ family: 'matmul', tileM: 64, tileN: 64, tileK: 16, threadM: 4, threadN: 4, vectorWidth: 4, staging: 'single', ...knobs });
const vec4 = mm({});
const scalar = mm({ vectorWidth: 1 });

describe('MUL_MAT (ggml_mul_mat)', () => {
  it('takes dot products of K-contiguous rows: dst[m, n] = src0 row m · src1 row n', () => {
    const c = MUL_MAT.makeCase([2, 2, 3]);
    expect(c.srcs[0].ne).toEqual([3, 2, 1, 1]);
    expect(c.srcs[1].ne).toEqual([3, 2, 1, 1]);
    expect(c.dst.ne).toEqual([2, 2, 1, 1]);
    // src0 rows [1,2,3], [4,5,6]; src1 rows [1,0,-1], [2,1,0.5]
    const r = MUL_MAT.oracle(c, [f32([1, 2, 3, 4, 5, 6]), f32([1, 0, -1, 2, 1, 0.5])]);
    expect([...r.ref]).toEqual([-2, -2, 5.5, 16]);
    expect(r.terms).toBe(3);
    // Σ|a·b| / sqrt(K): the cancelling [0,0] is held to its terms' size, not to |ref|.
    expect([...r.epsFloor].map((x) => x * Math.sqrt(3))).toEqual([4, 10, 5.5, 16]);
    expect(r.indices).toBeUndefined();
  });

  it('broadcasts src0 over batches as ggml does: i02 = i2 / (ne12/ne02), not a modulo', () => {
    const c = MUL_MAT.makeCase([1, 1, 2, 4], 'batched-broadcast');
    expect(c.srcs[0].ne).toEqual([2, 1, 2, 1]);
    expect(c.srcs[1].ne).toEqual([2, 1, 4, 1]);
    // src0 batches [1,0], [0,1]; src1 batches [1,2], [3,4], [5,6], [7,8]
    const r = MUL_MAT.oracle(c, [f32([1, 0, 0, 1]), f32([1, 2, 3, 4, 5, 6, 7, 8])]);
    expect([...r.ref]).toEqual([1, 3, 6, 8]);
  });

  it('broadcasts over dim 3 too (r3 = ne13/ne03)', () => {
    const base = MUL_MAT.makeCase([1, 1, 1]);
    const src0 = contiguous('f32', [1, 1, 1, 2]);
    const src1 = contiguous('f32', [1, 1, 2, 4]);
    const c: OpCase = { ...base, srcs: [src0, src1], dst: contiguous('f32', [1, 1, 2, 4]) };
    const r = MUL_MAT.oracle(c, [f32([10, 100]), f32([1, 2, 3, 4, 5, 6, 7, 8])]);
    // dst[i2, i3] = src0[i3 / 2] · src1[i2, i3]
    expect([...r.ref]).toEqual([10, 20, 30, 40, 500, 600, 700, 800]);
  });

  it('reads views through their strides', () => {
    // src0 rows are the middle third of [3K]-wide rows: [9,9,a,b,9,9, 9,9,c,d,9,9]
    const strided = MUL_MAT.makeCase([2, 1, 2], 'src0-rows-strided');
    expect(strided.srcs[0].nb).toEqual([4, 24, 48, 48]);
    expect(strided.srcs[0].offsetBytes).toBe(8);
    expect([...MUL_MAT.oracle(strided, [f32([9, 9, 1, 2, 9, 9, 9, 9, 3, 4, 9, 9]), f32([1, 10])]).ref]).toEqual([21, 43]);
    // src1 = permute(0,2,1,3) of packed [K=2, B=2, N=2]: src1[k, n, b] = packed[k + 2b + 4n]
    const permuted = MUL_MAT.makeCase([1, 2, 2, 2], 'src1-permuted');
    expect(permuted.srcs[1].ne).toEqual([2, 2, 2, 1]);
    expect(permuted.srcs[1].nb).toEqual([4, 16, 8, 32]);
    expect([...MUL_MAT.oracle(permuted, [f32([1, 0, 0, 1]), f32([0, 1, 2, 3, 4, 5, 6, 7])]).ref]).toEqual([0, 4, 3, 7]);
    // rows K+1 apart
    const odd = MUL_MAT.makeCase([2, 1, 3], 'src0-odd-stride');
    expect(odd.srcs[0].nb[1]).toBe(16);
    expect([...MUL_MAT.oracle(odd, [f32([1, 2, 3, 9, 4, 5, 6, 9]), f32([1, 1, 1])]).ref]).toEqual([6, 15]);
  });

  it('computes only the sampled elements when asked', () => {
    const c = MUL_MAT.makeCase([2, 2, 3]);
    const srcs = [f32([1, 2, 3, 4, 5, 6]), f32([1, 0, -1, 2, 1, 0.5])];
    const r = MUL_MAT.oracle(c, srcs, Int32Array.from([1, 3]));
    expect([...r.ref]).toEqual([-2, 16]);
    expect([...r.indices!]).toEqual([1, 3]);
  });

  it('refuses bad shapes and layouts, naming what is wrong', () => {
    expect(() => MUL_MAT.makeCase([2, 3])).toThrow(/MxNxK or MxNxKxB \(B batches\), got 2 dims/);
    expect(() => MUL_MAT.makeCase([2, 0, 3])).toThrow(/dimension N must be a positive integer, got 0/);
    expect(() => MUL_MAT.makeCase([2, 2, 2], 'diagonal')).toThrow(/MUL_MAT has no layout 'diagonal'/);
    expect(() => MUL_MAT.makeCase([2, 2, 2], 'contiguous', { eps: 1 })).toThrow(/MUL_MAT has no param 'eps' \(params: type0, type1\)/);
    // ggml ids 4 and 5 (Q4_2, Q4_3) are gone from ggml; 2 is Q4_0 now that type0 takes weight formats.
    expect(() => MUL_MAT.makeCase([2, 2, 2], 'contiguous', { type0: 4 })).toThrow(/type0 = 4 is out of range \(type0 one of 0 \(f32\), 1 \(f16\), 2 \(q4_0\), 3 \(q4_1\)/);
    expect(() => MUL_MAT.makeCase([2, 2, 2, 3], 'batched-broadcast')).toThrow(/B = 3 must be even/);
    expect(() => MUL_MAT.makeCase([2, 2, 2, 70000])).toThrow(/B = 70000 batches exceeds 65535/);
  });

  it("states ggml's operand asserts as reasons", () => {
    const a = contiguous('f32', [8, 4]);
    expect(operandProblems(a, contiguous('f32', [8, 3]))).toEqual([]);
    expect(operandProblems(a, contiguous('f32', [7, 3]))).toEqual(['src0 and src1 rows differ in length (K = 8 vs 7)']);
    expect(operandProblems(contiguous('f32', [8, 4, 3]), contiguous('f32', [8, 3, 4]))).toEqual(["src0 batches 3x1 do not divide src1's 4x1"]);
    expect(operandProblems(transpose(contiguous('f32', [4, 8])), contiguous('f32', [8, 3]))).toEqual([
      'src0 is transposed (ggml asserts !ggml_is_transposed(a))',
      'rows of src0 and src1 must be contiguous (nb00 == nb10 == the type size)',
    ]);
    expect(operandProblems(a, permute(contiguous('f32', [3, 8]), [1, 0, 2, 3]))).toEqual(['rows of src0 and src1 must be contiguous (nb00 == nb10 == the type size)']);
    expect(operandProblems(stridedRows('f32', [8, 4], 9), contiguous('f32', [8, 2]))).toEqual([]);
  });

  it('counts 2·M·N·K·batches flops and each unique source element once', () => {
    const c = MUL_MAT.makeCase([255, 130, 300]);
    expect(MUL_MAT.flops(c)).toBe(19_890_000);
    expect(MUL_MAT.bytes(c)).toEqual({ readBytes: (300 * 255 + 300 * 130) * 4, writeBytes: 255 * 130 * 4 });
    const b = MUL_MAT.makeCase([96, 40, 64, 4], 'batched-broadcast');
    expect(MUL_MAT.flops(b)).toBe(1_966_080);
    // src0 has 2 batches (broadcast), src1 4
    expect(MUL_MAT.bytes(b)).toEqual({ readBytes: (64 * 96 * 2 + 64 * 40 * 4) * 4, writeBytes: 96 * 40 * 4 * 4 });
    expect(MUL_MAT.features(b)).toEqual({ M: 96, N: 40, K: 64, batch: 4, type0: 0, type1: 0, f16: 0 });
    // A strided view is read for its elements, not its parent's gaps.
    expect(MUL_MAT.bytes(MUL_MAT.makeCase([256, 64, 128], 'src0-rows-strided')).readBytes).toBe((128 * 256 + 128 * 64) * 4);
  });

  it('takes every f32 case and f16 decode on the generated path; f16 past N = 8 needs subgroup matrices', () => {
    for (const l of MUL_MAT.layouts) expect(MUL_MAT.require(MUL_MAT.makeCase([33, 17, 9], l.name), adapter)).toBeNull();
    expect(MUL_MAT.require(MUL_MAT.makeCase([33, 8, 9], 'contiguous', { type0: 1 }), adapter)).toBeNull();
    const f16 = MUL_MAT.makeCase([128, 64, 128], 'contiguous', { type0: 1, type1: 1 });
    expect(MUL_MAT.require(f16, adapter)?.code).toBe('no-shader-f16');
    expect(MUL_MAT.require(f16, { ...adapter, features: ['shader-f16'] })?.code).toBe('no-subgroup-matrix');
    const full = { ...adapter, features: ['shader-f16', 'subgroups', 'chromium-experimental-subgroup-matrix'] };
    expect(MUL_MAT.require(f16, full)).toBeNull();
    expect(MUL_MAT.require(MUL_MAT.makeCase([100, 64, 128], 'contiguous', { type0: 1 }), full)).toEqual({
      code: 'sgmatrix-unfit',
      reason: "f16 MUL_MAT with N > 8 runs on whole subgroup-matrix tiles: M = 100 is not a multiple of the tile's 16 (subgroupsM·matricesM·16)",
    });
    expect(registryEntry('MUL_MAT').declaredRejections).toEqual(['no-shader-f16', 'no-subgroup-matrix', 'sgmatrix-unfit']);
  });

  it('reads f16 sources exactly: 2 bytes an element, the oracle on the halves', () => {
    const c = MUL_MAT.makeCase([1, 1, 2], 'contiguous', { type0: 1 });
    expect(c.label).toBe('1x1x2 type0=1');
    expect(c.srcs.map((t) => t.type)).toEqual(['f16', 'f32']);
    // 0x3c00 = 1, 0xc000 = -2 (f16); src1 [0.5, 3]
    const r = MUL_MAT.oracle(c, [new Uint16Array([0x3c00, 0xc000]).buffer, f32([0.5, 3])]);
    expect([...r.ref]).toEqual([0.5 - 6]);
    expect(MUL_MAT.bytes(MUL_MAT.makeCase([4096, 1, 4096], 'contiguous', { type0: 1 }))).toEqual({ readBytes: 4096 * 4096 * 2 + 4096 * 4, writeBytes: 4096 * 4 });
    expect(MUL_MAT.native(c).wgsl).toMatch(/var<storage, read> src0: array<u32>;[\s\S]*unpack2x16float/);
  });

  it('says why a schedule cannot take a case, naming the knob', () => {
    expect(MUL_MAT.fits(vec4, MUL_MAT.makeCase([255, 130, 300]))).toEqual([]);
    expect(MUL_MAT.fits(vec4, MUL_MAT.makeCase([129, 7, 33]))).toEqual(['vectorWidth 4 needs K % 4 == 0, got K = 33']);
    expect(MUL_MAT.fits(vec4, MUL_MAT.makeCase([128, 64, 96], 'src0-odd-stride'))).toEqual([
      "vectorWidth 4 needs src0's rows to start on 4-element boundaries (row stride 97 elements)",
    ]);
    expect(MUL_MAT.fits(scalar, MUL_MAT.makeCase([128, 64, 96], 'src0-odd-stride'))).toEqual([]);
    expect(MUL_MAT.fits(scalar, MUL_MAT.makeCase([129, 7, 33]))).toEqual([]);
    expect(MUL_MAT.fits(mm({ tileM: 32 }), MUL_MAT.makeCase([3_000_000, 1, 4]))).toEqual(['tileM 32 needs 93750 workgroups along x for M = 3000000, over 65535']);
    const norm = parseSchedule({ family: 'norm', workgroupSize: 64, vectorWidth: 1, reduction: 'shared', unroll: 1 });
    expect(MUL_MAT.fits(norm, MUL_MAT.makeCase([4, 4, 4]))).toEqual(['MUL_MAT takes a matmul, gemv, sgmatrix, mmvq schedule, not norm']);
    expect(MUL_MAT.fits(scalar, MUL_MAT.makeCase([64, 64, 64], 'contiguous', { type0: 1 }))).toEqual(['the tiled matmul reads f32 operands, src0 is f16']);
    expect(() => MUL_MAT.generate(vec4, MUL_MAT.makeCase([129, 7, 33]))).toThrow(/cannot take MUL_MAT 129x7x33: vectorWidth 4 needs K % 4 == 0/);
  });

  it('picks schedules by the registry rules, each valid under the default limits plus the ones it declares', () => {
    const featured = { ...adapter, features: ['shader-f16', 'subgroups', 'chromium-experimental-subgroup-matrix'], wgslFeatures: ['packed_4x8_integer_dot_product'] };
    for (const rule of registryEntry('MUL_MAT').rules) expect(validateSchedule(rule.schedule, { ...featured, limits: { ...featured.limits, ...rule.limits } })).toEqual([]);
    const pick = (dims: number[], layout = 'contiguous') => schedulesFor('MUL_MAT', MUL_MAT.makeCase(dims, layout), adapter);
    // H200 2026-12-02: 8×16 per thread at 4096³ (40.1 TFLOP/s against 38.1), 8×8 from N = 512 (33.0 against 26.3 for 64×64).
    expect(pick([4096, 4096, 4096])).toMatchObject({ tileM: 128, tileN: 128, threadM: 8, threadN: 16, vectorWidth: 4 });
    // Past the 16 KiB default (16.5 KiB): 128×128 tiles, K8 double padded, 8×8 a thread (H200 45.2 TFLOP/s against 41.6 for the 8×16 K16 rule in one call).
    const wide = { ...adapter, limits: { ...adapter.limits, maxComputeWorkgroupStorageSize: 49152 } };
    expect(schedulesFor('MUL_MAT', MUL_MAT.makeCase([4096, 4096, 4096]), wide)).toMatchObject({ tileM: 128, tileN: 128, tileK: 8, threadM: 8, threadN: 8, staging: 'double', padding: 'vec4', inner: 'pipelined' });
    expect(schedulesFor('MUL_MAT', MUL_MAT.makeCase([4096, 4224, 4096]), wide)).toMatchObject({ tileM: 128, tileN: 128, tileK: 8, threadN: 8 });
    expect(pick([4096, 512, 4096])).toMatchObject({ tileM: 128, tileN: 128, threadM: 8, threadN: 8, vectorWidth: 4 });
    expect(pick([1024, 1024, 1024])).toMatchObject({ tileM: 64, tileN: 64, vectorWidth: 4 });
    expect(pick([255, 130, 300])).toMatchObject({ tileM: 64, tileN: 64, vectorWidth: 4 });
    // N ≤ 8: gemv; without subgroups its shared-reduction rule, several columns per pass.
    expect(pick([1024, 1, 1024])).toMatchObject({ family: 'gemv', columnsPerPass: 8, vectorWidth: 4, reduction: 'shared' });
    expect(pick([129, 7, 33])).toMatchObject({ family: 'gemv', vectorWidth: 1 });
    const sub = { ...adapter, features: ['subgroups'] };
    expect(schedulesFor('MUL_MAT', MUL_MAT.makeCase([1024, 1, 1024]), sub)).toMatchObject({ family: 'gemv', columnsPerPass: 1, reduction: 'subgroup' });
    expect(schedulesFor('MUL_MAT', MUL_MAT.makeCase([1024, 3, 1024]), sub)).toMatchObject({ family: 'gemv', columnsPerPass: 4, reduction: 'subgroup', unroll: 4 });
    // Eight columns: unroll 1 (H200 4096x8x4096 37.8 µs against 43.2 at unroll 4).
    expect(schedulesFor('MUL_MAT', MUL_MAT.makeCase([4096, 8, 4096]), sub)).toMatchObject({ family: 'gemv', columnsPerPass: 8, reduction: 'subgroup', unroll: 1 });
    // N < 2048: 128×64 tiles of 16x16x16 within the 16 KiB default (15 KiB; 141.9 TFLOP/s at 4096x512x4096); with the H200's
    // 48 KiB, f16 × f16 takes 128×128 tiles of eight subgroups at K64 (36 KiB; gemm8 203.3 against 146 at K32 in one call).
    const h200 = { ...featured, limits: { ...featured.limits, maxComputeWorkgroupStorageSize: 49152 } };
    const narrow = MUL_MAT.makeCase([4096, 512, 4096], 'contiguous', { type0: 1, type1: 1 });
    expect(schedulesFor('MUL_MAT', narrow, featured)).toMatchObject({ family: 'sgmatrix', config: '16x16x16', subgroupsM: 2, subgroupsN: 2, matricesM: 4, matricesN: 2, staging: 'prefetch' });
    expect(schedulesFor('MUL_MAT', narrow, h200)).toMatchObject({ family: 'sgmatrix', config: '16x16x16', subgroupsM: 2, subgroupsN: 4, matricesM: 4, matricesN: 2, tileK: 64, staging: 'prefetch' });
    expect(validateSchedule(schedulesFor('MUL_MAT', narrow, h200)!, featured)).toEqual(['workgroup memory 36864 B exceeds maxComputeWorkgroupStorageSize 16384']);
    // K a multiple of 32 but not of 64: the K64 tile does not fit, so the K32 128×64 rule takes it.
    expect(schedulesFor('MUL_MAT', MUL_MAT.makeCase([4096, 512, 4128], 'contiguous', { type0: 1, type1: 1 }), h200)).toMatchObject({ family: 'sgmatrix', subgroupsM: 2, subgroupsN: 2, matricesM: 4, matricesN: 2, tileK: 32 });
    // f16 weights × f32 at N = 512 keeps 128×64 (the eight-subgroup tile is measured for f16 × f16 only).
    expect(schedulesFor('MUL_MAT', MUL_MAT.makeCase([4096, 512, 4096], 'contiguous', { type0: 1 }), h200)).toMatchObject({ subgroupsM: 2, subgroupsN: 2, matricesM: 4, matricesN: 2 });
    // N ≥ 2048, f16 × f16: 128×128 tiles of 2×2 subgroups, spread stores (20 KiB; H200 seventh session 244.6 TFLOP/s against 225 plain).
    const both = MUL_MAT.makeCase([4096, 4096, 4096], 'contiguous', { type0: 1, type1: 1 });
    expect(schedulesFor('MUL_MAT', both, h200)).toMatchObject({ config: '16x16x16', subgroupsM: 2, subgroupsN: 2, matricesM: 4, matricesN: 4, tileK: 32, staging: 'prefetch', storeOrder: 'spread' });
    expect(validateSchedule(schedulesFor('MUL_MAT', both, h200)!, featured)).toEqual(['workgroup memory 20480 B exceeds maxComputeWorkgroupStorageSize 16384']);
    expect(schedulesFor('MUL_MAT', both, featured)).toMatchObject({ config: '16x8x16', subgroupsM: 2, staging: 'prefetch' });
    // f16 weights × f32: the same 2×2 · 4×4 spread tiles (H200 618 µs against 656 for 256×128); f32 weights × f16
    // activations (not measured) keep 256×128 (30 KiB). At the 16 KiB default both are refused with the numbers.
    const big = MUL_MAT.makeCase([4096, 4096, 4096], 'contiguous', { type0: 1 });
    expect(schedulesFor('MUL_MAT', big, h200)).toMatchObject({ config: '16x16x16', subgroupsM: 2, subgroupsN: 2, matricesM: 4, matricesN: 4, staging: 'prefetch', storeOrder: 'spread' });
    expect(schedulesFor('MUL_MAT', big, featured)).toMatchObject({ config: '16x8x16', subgroupsM: 2, staging: 'prefetch' });
    expect(validateSchedule(schedulesFor('MUL_MAT', big, h200)!, featured)).toEqual(['workgroup memory 20480 B exceeds maxComputeWorkgroupStorageSize 16384']);
    const f32w = MUL_MAT.makeCase([4096, 4096, 4096], 'contiguous', { type1: 1 });
    expect(schedulesFor('MUL_MAT', f32w, h200)).toMatchObject({ config: '16x16x16', subgroupsM: 4, subgroupsN: 2, staging: 'prefetch', storeOrder: 'plain' });
    expect(validateSchedule(schedulesFor('MUL_MAT', f32w, h200)!, featured)).toEqual(['workgroup memory 30720 B exceeds maxComputeWorkgroupStorageSize 16384']);
    expect(schedulesFor('MUL_MAT', MUL_MAT.makeCase([48, 24, 32], 'contiguous', { type0: 1 }), featured)).toMatchObject({ family: 'sgmatrix', matricesM: 1 });
    // K % 4 == 0 but misaligned rows: the vec4 rules' fits() send it on to the scalar rule.
    expect(pick([128, 64, 96], 'src0-odd-stride')).toMatchObject({ vectorWidth: 1 });
  });

  it('passes shapes, strides and offsets to the native kernel in elements', () => {
    const c = MUL_MAT.makeCase([30, 20, 8, 4], 'batched-broadcast');
    const k = MUL_MAT.native(c);
    expect(k.dispatch).toEqual([1, 1, 4]);
    expect(k.bindings.map((b) => b.role)).toEqual(['src0', 'src1', 'dst', 'params']);
    // src0, src1, dst as the shared Tensor descriptors: ne | st | off n (pad); src0 has B/2 batches
    expect([...k.uniforms!]).toEqual([
      ...[8, 30, 2, 1, 1, 8, 240, 480, 64, 480, 0, 0],
      ...[8, 20, 4, 1, 1, 8, 160, 640, 64, 640, 0, 0],
      ...[30, 20, 4, 1, 1, 30, 600, 2400, 64, 2400, 0, 0],
    ]);
    const p = MUL_MAT.native(MUL_MAT.makeCase([30, 20, 8, 3], 'src1-permuted'));
    // src1 = permute of packed [K, B, N]: rows K·B apart, batches K apart
    expect([...p.uniforms!].slice(16, 20)).toEqual([1, 24, 8, 480]);
    // attention's K·Q: src0 = permute of packed [K, B0, M], rows K·B0 apart, batches K apart
    const kq = MUL_MAT.native(MUL_MAT.makeCase([30, 20, 8, 4, 2], 'both-permuted'));
    expect([...kq.uniforms!].slice(0, 8)).toEqual([8, 30, 2, 1, 1, 16, 8, 480]);
    expect(kq.dispatch).toEqual([1, 1, 4]);
    expect(MUL_MAT.native(MUL_MAT.makeCase([130, 65, 8])).dispatch).toEqual([3, 2, 1]);
  });

  it('generates a kernel specialized to the shape', () => {
    const aligned = MUL_MAT.generate(mm({ tileM: 128, tileN: 128, threadM: 8, threadN: 8, staging: 'prefetch' }), MUL_MAT.makeCase([256, 256, 256]));
    expect(aligned.dispatch).toEqual([2, 2, 1]);
    expect(aligned.bindings.map((b) => b.role)).toEqual(['src0', 'src1', 'dst']);
    expect(aligned.wgsl).toContain('// 16 K tile(s); bounds checks on none; vec4 dst stores');
    expect(aligned.wgsl).not.toMatch(/min\(|select\(|if \(n </);
    expect(aligned.wgsl).toContain('@workgroup_size(16, 16, 1)');
    const odd = MUL_MAT.generate(vec4, MUL_MAT.makeCase([255, 130, 300]));
    expect(odd.dispatch).toEqual([4, 3, 1]);
    expect(odd.wgsl).toContain('// 19 K tile(s) (K tail zero-filled); bounds checks on M, N; scalar dst stores');
    expect(odd.wgsl).toContain('min(mBase + ar0, 254u)');
    const batched = MUL_MAT.generate(vec4, MUL_MAT.makeCase([96, 40, 64, 4], 'batched-broadcast'));
    expect(batched.dispatch).toEqual([2, 1, 4]);
    expect(batched.wgsl).toContain('let base0 = 16u + (i2 / 2u) * 1536u;');
  });

  it('generates WGSL (snapshots)', () => {
    const big = mm({ tileM: 128, tileN: 128, threadM: 8, threadN: 8, staging: 'prefetch' });
    expect(MUL_MAT.generate(big, MUL_MAT.makeCase([256, 256, 256])).wgsl).toMatchSnapshot('128x128 vec4 prefetch, aligned');
    expect(MUL_MAT.generate(vec4, MUL_MAT.makeCase([255, 130, 300])).wgsl).toMatchSnapshot('64x64 vec4 single, edges and K tail');
    expect(MUL_MAT.generate(mm({ staging: 'double' }), MUL_MAT.makeCase([96, 40, 64, 4], 'batched-broadcast')).wgsl).toMatchSnapshot('64x64 vec4 double, batched broadcast');
    expect(MUL_MAT.generate(scalar, MUL_MAT.makeCase([129, 7, 33])).wgsl).toMatchSnapshot('64x64 scalar, odd');
    // Off the sweep's grid but valid: a vec4 K-slice of 3 vectors, scalar src1 in shared memory.
    const offGrid = mm({ tileM: 32, tileN: 16, tileK: 12, threadM: 4, threadN: 2, staging: 'prefetch' });
    expect(MUL_MAT.generate(offGrid, MUL_MAT.makeCase([128, 32, 64, 2], 'src1-permuted')).wgsl).toMatchSnapshot('32x16 k12 vec4, scalar Bs, src1 permuted');
  });
});

describe('MUL_MAT: the layouts the training graph sends (attention heads as views, grouped K/V heads)', () => {
  it('both-permuted is K·Q: src0 = permute of packed [K, B0, M], src1 of packed [K, B, N]; B0 broadcast', () => {
    const c = MUL_MAT.makeCase([128, 128, 8, 8, 4], 'both-permuted');
    // tiny's K·Q: K [8, 128, 4] with nb [4, 128, 32], Q [8, 128, 8] with nb [4, 256, 32] (bytes)
    expect(c.srcs[0].ne).toEqual([8, 128, 4, 1]);
    expect(c.srcs[0].nb.slice(0, 3)).toEqual([4, 128, 32]);
    expect(c.srcs[1].nb.slice(0, 3)).toEqual([4, 256, 32]);
    expect(c.dst.ne).toEqual([128, 128, 8, 1]);
    expect(MUL_MAT.features(c)).toMatchObject({ M: 128, N: 128, K: 8, batch: 8 });
    // B0 defaults to B; 4 dims are every layout's form
    expect(MUL_MAT.makeCase([4, 4, 8], 'both-permuted').srcs[0].ne).toEqual([8, 4, 2, 1]);
  });

  it('the oracle reads a view as its logical values: both-permuted equals the packed broadcast case', () => {
    const v = MUL_MAT.makeCase([3, 2, 4, 4, 2], 'both-permuted');
    const packed = MUL_MAT.makeCase([3, 2, 4, 4, 2], 'batched-broadcast');
    const a = Array.from({ length: 4 * 3 * 2 }, (_, i) => ((i * 7) % 11) - 5);
    const b = Array.from({ length: 4 * 2 * 4 }, (_, i) => ((i * 5) % 13) - 6);
    const ref = MUL_MAT.oracle(packed, [bufferFor(packed.srcs[0], a), bufferFor(packed.srcs[1], b)]).ref;
    expect([...MUL_MAT.oracle(v, [bufferFor(v.srcs[0], a), bufferFor(v.srcs[1], b)]).ref]).toEqual([...ref]);
    // dst[0, 0, batch 3] = src0 batch 1 (3 / 2) row 0 · src1 batch 3 row 0
    const dot = (x: number[], y: number[]) => x.reduce((acc, xi, i) => acc + xi * y[i], 0);
    expect(ref[3 * 6]).toBe(dot(a.slice(12, 16), b.slice(24, 28)));
  });

  it('B0 (src0 batches) must divide B; the plain layout has none', () => {
    expect(MUL_MAT.makeCase([8, 8, 8, 32, 8], 'batched-broadcast').srcs[0].ne).toEqual([8, 8, 8, 1]);
    expect(() => MUL_MAT.makeCase([8, 8, 8, 6, 4], 'both-permuted')).toThrow(/B0 = 4 must divide B = 6/);
    expect(() => MUL_MAT.makeCase([8, 8, 8, 8, 4])).toThrow(/contiguous: src0 has src1's B = 8 batches here, got B0 = 4 \(src0 broadcast over src1's batches is batched-broadcast\)/);
    expect(() => MUL_MAT.makeCase([8, 8, 8, 8, 0], 'both-permuted')).toThrow(/dimension B0 must be a positive integer, got 0/);
    expect(() => MUL_MAT.makeCase([8, 8, 8, 1, 1, 1])).toThrow(/got 6 dims/);
    expect(() => MUL_MAT.makeCase([64, 9, 64, 1, 1], 'contiguous', { type0: 2 })).toThrow(/quantized src0 \(q4_0\) takes one batch \(MxNxK\), got 5 dims/);
  });

  it('the native kernel and the generated families read it through its strides (vec4 where rows align)', () => {
    const c = MUL_MAT.makeCase([128, 128, 8, 8, 4], 'both-permuted');
    expect(MUL_MAT.fits(vec4, c)).toEqual([]);
    // in vec4s: batch i2 reads src0 batch i2 / 2, K = 8 elements (2 vec4s) in; rows K·B0 = 32 elements apart
    const g = MUL_MAT.generate(vec4, c).wgsl;
    expect(g).toContain('let base0 = 16u + (i2 / 2u) * 2u;');
    expect(g).toContain('let ag0 = base0 + (mBase + ar0) * 8u + ac0;');
    expect(MUL_MAT.native(c).wgsl).toContain('return ld0(base0 + m * p.src0.st.y + k);');
    expect(MUL_MAT.require(c, adapter)).toBeNull();
  });
});
