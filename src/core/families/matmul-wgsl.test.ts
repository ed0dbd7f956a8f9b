import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../adapter';
import { parseSchedule, validateSchedule, workgroupStorageBytes, type MatmulSchedule } from '../schedule/schedule';
import { generateMatmul, matmulFits, splitKScratch, vec4Aligned, type MatmulGeometry } from './matmul-wgsl';

const packed = (rows: number, cols: number, batches: number, offset = 64) => ({ offset, rowStride: cols, batchStride2: rows * cols, batchStride3: rows * cols * batches });
/** A packed M×N×K product with B batches, offsets as the device buffers' guards put them. */
const geometry = (M: number, N: number, K: number, B = 1): MatmulGeometry => ({
  label: `test ${M}x${N}x${K}`,
  M,
  N,
  K,
  ne12: B,
  ne13: 1,
  r2: 1,
  r3: 1,
  src0: packed(M, K, B),
  src1: packed(N, K, B),
  dst: packed(N, M, B),
});
const sched = (knobs: Partial<Record<string, number | string>>) =>
  parseSchedule({ family: 'matmul', tileM: 64, tileN: 64, tileK: 16, threadM: 4, threadN: 4, vectorWidth: 4, staging: 'single', ...knobs }) as MatmulSchedule;
const count = (text: string, what: string) => text.split(what).length - 1;

describe('matmul codegen', () => {
  it('stages K in one, two (prefetch) or one (double) barrier pairs per tile', () => {
    const g = geometry(256, 256, 256);
    const single = generateMatmul(sched({ staging: 'single' }), g).wgsl;
    const prefetch = generateMatmul(sched({ staging: 'prefetch' }), g).wgsl;
    const double = generateMatmul(sched({ staging: 'double' }), g).wgsl;
    expect(count(single, 'workgroupBarrier()')).toBe(2);
    expect(count(prefetch, 'workgroupBarrier()')).toBe(2);
    // one before the loop (tile 0), one per tile: the loop takes two tiles, each half its own buffer at a constant offset
    expect(count(double, 'workgroupBarrier()')).toBe(3);
    expect(double).toContain('for (var t = 0u; t < 16u; t = t + 2u) {');
    expect(double).not.toMatch(/cur|t & 1u/);
    expect(double).toContain('var<workgroup> As: array<vec4<f32>, 512>;');
    const [first, second] = double.slice(double.indexOf('for (var t')).split('workgroupBarrier();');
    expect(first).toContain('let ak = kk * 16u + tx;');
    expect(first).toContain('As[256u + as0]');
    expect(second).toContain('let ak = 256u + kk * 16u + tx;');
    expect(second).toContain('if (t + 2u < 16u) {');
    expect(second).toMatch(/As\[as0\]/);
    // An odd number of tiles (K 48 = 3 of 16): one pair, the last tile computed from buffer 0 after the loop.
    const odd = generateMatmul(sched({ staging: 'double' }), geometry(256, 256, 48)).wgsl;
    expect(odd).toContain('for (var t = 0u; t < 2u; t = t + 2u) {');
    expect(odd.slice(odd.lastIndexOf('workgroupBarrier();'))).toContain('let ak = kk * 16u + tx;');
    expect(single).toContain('var<workgroup> As: array<vec4<f32>, 256>;');
    // prefetch: tile t+1's loads come after the barrier that publishes tile t, before its math
    const loop = prefetch.slice(prefetch.indexOf('for (var t'));
    expect(loop.indexOf('src0[ag0 + (t + 1u) * 4u]')).toBeGreaterThan(loop.indexOf('workgroupBarrier()'));
    expect(loop.indexOf('src0[ag0 + (t + 1u) * 4u]')).toBeLessThan(loop.indexOf('for (var kk'));
  });

  it("counts 'double' staging's second buffer against the workgroup memory limit", () => {
    const adapter = { limits: DEFAULT_LIMITS, features: [] as string[] };
    const big = { tileM: 128, tileN: 128, threadM: 8, threadN: 8 };
    expect(workgroupStorageBytes(sched({ ...big, staging: 'prefetch' }))).toBe(16384);
    expect(validateSchedule(sched({ ...big, staging: 'prefetch' }), adapter)).toEqual([]);
    expect(validateSchedule(sched({ ...big, staging: 'double' }), adapter)).toEqual(['workgroup memory 32768 B exceeds maxComputeWorkgroupStorageSize 16384']);
    expect(validateSchedule(sched({ ...big, tileK: 8, staging: 'double' }), adapter)).toEqual([]);
    expect(() => sched({ staging: 'triple' })).toThrow(/'staging' must be one of "single", "prefetch", "double"/);
    // Schedules written before the knob existed still parse, meaning what they meant then.
    expect(parseSchedule({ family: 'matmul', tileM: 64, tileN: 64, tileK: 16, threadM: 4, threadN: 4, vectorWidth: 4 })).toMatchObject({ staging: 'single' });
  });

  it('keeps the register block in named variables, unrolled', () => {
    const wgsl = generateMatmul(sched({ tileM: 128, tileN: 128, threadM: 8, threadN: 8 }), geometry(128, 128, 16)).wgsl;
    expect(count(wgsl, 'var c')).toBe(16); // 2 vec4 along m × 8 along n
    expect(wgsl).toContain('c1_7 = c1_7 + a1 * b1.w;');
    expect(wgsl).not.toContain('array<vec4<f32>, 16>');
  });

  it('emits bounds checks only where a tile overhangs the shape', () => {
    const inside = generateMatmul(sched({}), geometry(128, 64, 32)).wgsl;
    expect(inside).not.toMatch(/min\(|select\(|< 128u\)|< 64u\)/);
    const overM = generateMatmul(sched({}), geometry(100, 64, 32)).wgsl;
    expect(overM).toContain('min(mBase + ar0, 99u)');
    expect(overM).toContain('if (mt < 25u) {');
    expect(overM).not.toContain('if (n <');
    const overK = generateMatmul(sched({}), geometry(64, 64, 20)).wgsl;
    expect(overK).toContain('select(vec4<f32>(), src0[ag0 - ac0 + min(t * 4u + ac0, 4u)], t * 4u + ac0 < 5u)');
  });

  it('batches over workgroup z with src0 broadcast', () => {
    const g = { ...geometry(64, 64, 64, 6), ne13: 4, r2: 3, r3: 2, src0: { offset: 64, rowStride: 64, batchStride2: 4096, batchStride3: 8192 } };
    const k = generateMatmul(sched({}), g);
    expect(k.dispatch).toEqual([1, 1, 24]);
    expect(k.wgsl).toContain('let i2 = wid.z % 6u;');
    expect(k.wgsl).toContain('let base0 = 16u + (i2 / 3u) * 1024u + (i3 / 2u) * 2048u;');
    expect(k.wgsl).toContain('let base1 = 16u + i2 * 1024u + i3 * 6144u;');
  });

  it('says which operand keeps vec4 loads out', () => {
    const g = { ...geometry(64, 64, 64), src1: { offset: 66, rowStride: 64, batchStride2: 4096, batchStride3: 4096 } };
    expect(vec4Aligned(g.src1, 64, 1, 1)).toBe(false);
    expect(matmulFits(sched({}), g, 1, 1)).toEqual(["vectorWidth 4 needs src1's rows to start on 4-element boundaries (offset 66 elements)"]);
    expect(matmulFits(sched({ vectorWidth: 1 }), g, 1, 1)).toEqual([]);
  });

  it('a K stride (OUT_PROD: A[m, k] = src0[m + k·ld]) scales the k terms, takes scalar loads, and lanes walk rows', () => {
    // src0 stored [M = 64, K = 20]: m contiguous, k 64 apart.
    const g = { ...geometry(64, 64, 20), src0: { offset: 64, rowStride: 1, kStride: 64, batchStride2: 1280, batchStride3: 1280 } };
    expect(matmulFits(sched({}), g, 1, 1)).toEqual(['vectorWidth 4 needs K contiguous, but src0 has a K stride other than 1']);
    const k = generateMatmul(sched({ vectorWidth: 1 }), g).wgsl;
    expect(k).toContain('let ar0 = lid % 64u;'); // consecutive lanes, consecutive m
    expect(k).toContain('let ag0 = base0 + (mBase + ar0) * 1u + ac0 * 64u;');
    expect(k).toContain('src0[ag0 - ac0 * 64u + min(t * 16u + ac0, 19u) * 64u]');
    // src1 keeps K contiguous: its loads are unchanged.
    expect(k).toContain('src1[bg0 - bc0 + min(t * 16u + bc0, 19u)]');
  });

  it('splits K inside the workgroup: slices along z, each its share of every tile, summed by slice 0 in bounded rounds', () => {
    const s = sched({ tileM: 128, tileN: 64, threadM: 8, threadN: 8, staging: 'prefetch', splitK: 2 });
    // 16·8 threads a slice; one accumulator row (j) over the other slice is 128 threads · 8 floats · 4 B.
    expect(splitKScratch(s)).toEqual({ rowsPerRound: 4, bytes: 16384 });
    expect(splitKScratch(sched({ tileM: 128, tileN: 64, threadM: 8, threadN: 8, splitK: 4 }))).toEqual({ rowsPerRound: 1, bytes: 12288 });
    expect(splitKScratch(sched({}))).toEqual({ rowsPerRound: 0, bytes: 0 });
    expect(workgroupStorageBytes(s)).toBe((128 + 64) * 16 * 4 + 16384);
    const wgsl = generateMatmul(s, geometry(256, 128, 64)).wgsl;
    expect(wgsl).toContain('@compute @workgroup_size(16, 8, 2)');
    expect(wgsl).toContain('for (var kk = kz * 8u; kk < kz * 8u + 8u; kk = kk + 1u) {');
    expect(wgsl).toContain('var<workgroup> Rs: array<vec4<f32>, 1024>;'); // 4 rows · 2 vec4 · 1 slice · 128 threads
    // Two rounds: put, barrier, add — and a barrier between the rounds.
    expect(count(wgsl, 'if (kz != 0u) {')).toBe(2);
    expect(count(wgsl, 'workgroupBarrier()')).toBe(2 + 3);
    expect(wgsl).toContain('Rs[(7u + kz - 1u) * 128u + tid] = c1_3;');
    expect(wgsl).toContain('c1_7 = c1_7 + Rs[tid + 896u];');
    // Slice 0 alone stores.
    expect(wgsl.slice(wgsl.lastIndexOf('if (kz == 0u) {'))).toContain('dst[drow + mt] = c0_0;');
    const adapter = { limits: DEFAULT_LIMITS, features: [] as string[] };
    expect(validateSchedule(sched({ tileK: 8, splitK: 4, threadM: 8, threadN: 8 }), adapter)).toEqual([]);
    expect(validateSchedule(sched({ tileK: 8, splitK: 16, threadM: 8, threadN: 8 }), adapter)).toContain('tileK 8 is not a multiple of splitK 16');
  });
  it("pads each staged k row by 16 bytes ('vec4'): the transposing stores of a warp land on 32 distinct banks, row reads stay contiguous", () => {
    const s = sched({ tileM: 128, tileN: 128, threadM: 8, threadN: 16, staging: 'prefetch', padding: 'vec4' });
    expect(workgroupStorageBytes(s)).toBe((128 + 4 + 128 + 4) * 16 * 4);
    const wgsl = generateMatmul(s, geometry(256, 256, 64)).wgsl;
    expect(wgsl).toContain('var<workgroup> As: array<vec4<f32>, 528>;'); // 16 k rows of 33 vec4
    expect(wgsl).toContain('let as0 = ac0 * 132u + ar0 / 4u;');
    expect(wgsl).toContain('As[as0 + 33u][aq0] = ax0.y;');
    expect(wgsl).toContain('let ak = kk * 33u + tx;');
    // The first warp's stores of one k row (lanes 0…31: ar = lane / 2, ac = lane % 2), as f32 words.
    const banks = (rowLen: number) => new Set(Array.from({ length: 32 }, (_, l) => ((l % 2) * 4 * rowLen + (l >> 3)) * 4 + ((l >> 1) % 4)).map((w) => w % 32)).size;
    expect(banks(33)).toBe(32);
    expect(banks(32)).toBe(16); // unpadded: two lanes a bank
    // Scalar staging pads by 4 floats too.
    expect(generateMatmul(sched({ vectorWidth: 1, padding: 'vec4' }), geometry(128, 128, 32)).wgsl).toContain('var<workgroup> As: array<f32, 1088>;');
  });

  it("writes the inner loop out ('unrolled') or with the next k's fragments first ('pipelined'), at constant offsets", () => {
    const g = geometry(256, 256, 64);
    const knobs = { tileM: 128, tileN: 128, threadM: 8, threadN: 16, staging: 'prefetch' };
    const unrolled = generateMatmul(sched({ ...knobs, inner: 'unrolled' }), g).wgsl;
    expect(unrolled).not.toContain('for (var kk');
    expect(count(unrolled, ' = c0_0 + ')).toBe(16);
    expect(unrolled).toContain('let a1_15 = As[ak + 496u];'); // 15 · 32 + 16
    expect(unrolled.indexOf('c1_15 = c1_15 + a1_0 * b3_0.w;')).toBeLessThan(unrolled.indexOf('let a0_1 = As[ak + 32u];'));
    const pipelined = generateMatmul(sched({ ...knobs, inner: 'pipelined', padding: 'vec4' }), g).wgsl;
    expect(pipelined.indexOf('let a0_1 = As[ak + 33u];')).toBeLessThan(pipelined.indexOf('c0_0 = c0_0 + a0_0 * b0_0.x;'));
    expect(pipelined.indexOf('let a0_2 = As[ak + 66u];')).toBeGreaterThan(pipelined.indexOf('c1_15 = c1_15 + a1_0 * b3_0.w;'));
    expect(pipelined).not.toContain('a0_16');
    // Double staging: each half its own block, the second buffer at a constant offset.
    const double = generateMatmul(sched({ ...knobs, threadN: 8, staging: 'double', inner: 'unrolled' }), g).wgsl;
    expect(double).toContain('let ak = 512u + tx;');
    // Split K: each slice's share from its own base.
    const split = generateMatmul(sched({ tileM: 128, tileN: 64, threadM: 8, threadN: 8, splitK: 2, inner: 'pipelined' }), g).wgsl;
    expect(split).toContain('let ak = kz * 256u + tx;');
    expect(split).toContain('let a1_7 = As[ak + 240u];');
    expect(split).not.toContain('a0_8');
  });

  it("stores 'vec4': a thread stages 4×4 blocks (four vec4 along K from four consecutive rows) and writes them transposed as four vec4 along m", () => {
    const g = geometry(256, 256, 64);
    const knobs = { tileM: 128, tileN: 128, threadM: 8, threadN: 16, staging: 'prefetch', padding: 'vec4', inner: 'pipelined' };
    const scalar = generateMatmul(sched(knobs), g).wgsl;
    const vec = generateMatmul(sched({ ...knobs, stores: 'vec4' }), g).wgsl;
    // 128 threads, 128/4 row blocks · 4 vec4 along K = 128 blocks an operand: one block (four loads) a thread.
    expect(vec).toContain('let ar0 = (lid / 2u) % 32u;');
    expect(vec).toContain('let ac0 = lid % 2u + lid / 64u * 2u;');
    expect(vec).toContain('let ag3 = base0 + (mBase + ar0 * 4u + 3u) * 16u + ac0;');
    expect(vec).toContain('let as0 = ac0 * 132u + ar0;');
    expect(vec).toContain('As[as0 + 33u] = vec4<f32>(ax0.y, ax1.y, ax2.y, ax3.y);');
    expect(vec).toContain('Bs[bs0 + 99u] = vec4<f32>(bx0.w, bx1.w, bx2.w, bx3.w);');
    expect(vec).toContain('bx2 = src1[bg2 + (t + 1u) * 4u];');
    // 8 stores a tile instead of 32; the loads and the inner loop are the scalar stores' own.
    const storesOf = (w: string) => w.slice(w.indexOf('for (var t'), w.indexOf('workgroupBarrier()')).split('\n').filter((l) => /^\s*[AB]s\[/.test(l)).length;
    expect(storesOf(scalar)).toBe(32);
    expect(storesOf(vec)).toBe(8);
    expect(count(vec, '= src0[')).toBe(count(scalar, '= src0['));
    expect(vec.slice(vec.indexOf('let a0_0'))).toBe(scalar.slice(scalar.indexOf('let a0_0')));
    // Banks: a vec4 store goes 8 lanes a phase (128 B); lanes l = 0…7 store k row l % 2 of block l / 2.
    const banks = (rowLen: number) => new Set(Array.from({ length: 8 }, (_, l) => ((l % 2) * 4 * rowLen + (l >> 1)) * 4).map((w) => w % 32)).size;
    expect(banks(33)).toBe(8); // padded: conflict-free
    expect(banks(32)).toBe(4); // unpadded: two lanes a bank group
    // Ragged edges clamp each of the block's rows; the K tail clamps and zero-fills each load.
    const ragged = generateMatmul(sched({ ...knobs, stores: 'vec4' }), geometry(130, 36, 100)).wgsl;
    expect(ragged).toContain('let ag2 = base0 + min(mBase + ar0 * 4u + 2u, 129u) * 25u + ac0;');
    expect(ragged).toContain('ax2 = select(vec4<f32>(), src0[ag2 - ac0 + min((t + 1u) * 4u + ac0, 24u)], (t + 1u) * 4u + ac0 < 25u);');
    // Double staging: the second buffer at a constant offset.
    const double = generateMatmul(sched({ ...knobs, threadN: 8, tileN: 64, staging: 'double', stores: 'vec4' }), g).wgsl;
    expect(double).toContain('As[528u + as0 + 66u] = vec4<f32>(ax0.z, ax1.z, ax2.z, ax3.z);');
    // K32 at 128 threads: 32·8 blocks, two an operand a thread.
    const k32 = generateMatmul(sched({ ...knobs, tileK: 32, stores: 'vec4' }), g).wgsl;
    expect(k32).toContain('let ar1 = ((lid + 128u) / 2u) % 32u;');
    expect(k32).toContain('As[as1 + 99u] = vec4<f32>(ax4.w, ax5.w, ax6.w, ax7.w);');
  });

  it("refuses stores 'vec4' by name where the geometry has no whole 4×4 blocks a thread", () => {
    const adapter = { limits: { ...DEFAULT_LIMITS, maxComputeWorkgroupStorageSize: 49152 }, features: [] as string[] };
    const big = { tileM: 128, tileN: 128, threadM: 8, staging: 'prefetch', stores: 'vec4' };
    expect(validateSchedule(sched({ ...big, threadN: 16 }), adapter)).toEqual([]);
    expect(validateSchedule(sched({ ...big, threadN: 8, tileK: 32 }), adapter)).toEqual([]);
    expect(validateSchedule(sched({ ...big, threadN: 8 }), adapter)).toEqual([
      "stores vec4 needs whole 4×4 blocks a thread: src0's tileM/4·tileK/4 = 128 blocks over 256 threads",
      "stores vec4 needs whole 4×4 blocks a thread: src1's tileN/4·tileK/4 = 128 blocks over 256 threads",
    ]);
    expect(validateSchedule(sched({ ...big, threadN: 8, tileN: 64 }), adapter)).toEqual(["stores vec4 needs whole 4×4 blocks a thread: src1's tileN/4·tileK/4 = 64 blocks over 128 threads"]);
    expect(validateSchedule(sched({ ...big, tileM: 64, tileN: 64, threadM: 4, threadN: 4, vectorWidth: 1 }), adapter)).toContain('stores vec4 needs vectorWidth 4 (4×4 blocks of vec4 loads along K), got 1');
    expect(validateSchedule(sched({ tileM: 64, tileN: 32, threadM: 4, threadN: 2, tileK: 32, stores: 'vec4' }), adapter)).toContain('stores vec4 needs threadN a multiple of 4 (src1 staged as vec4 along n), got 2');
    // The default is today's scalar stores.
    expect(sched({})).toMatchObject({ stores: 'scalar' });
  });

  it("inner 'pipelined4': a loop over groups of 4 k, each written out with the next k's fragments first", () => {
    const g = geometry(256, 256, 64);
    const knobs = { tileM: 128, tileN: 128, threadM: 8, threadN: 16, staging: 'prefetch', padding: 'vec4' };
    const w = generateMatmul(sched({ ...knobs, inner: 'pipelined4' }), g).wgsl;
    expect(w).toContain('for (var k4 = 0u; k4 < 16u; k4 = k4 + 4u) {');
    expect(w).toContain('let ak = k4 * 33u + tx;');
    expect(count(w, ' = c0_0 + ')).toBe(4);
    expect(w).toContain('let a1_3 = As[ak + 115u];'); // 3 · 33 + 16
    expect(w).not.toContain('a0_4');
    expect(w.indexOf('let a0_1 = As[ak + 33u];')).toBeLessThan(w.indexOf('c0_0 = c0_0 + a0_0 * b0_0.x;'));
    // Split K: each slice's groups from its own range; double staging's second buffer in the base.
    const split = generateMatmul(sched({ tileM: 128, tileN: 64, threadM: 8, threadN: 8, splitK: 2, inner: 'pipelined4' }), g).wgsl;
    expect(split).toContain('for (var k4 = kz * 8u; k4 < kz * 8u + 8u; k4 = k4 + 4u) {');
    const double = generateMatmul(sched({ ...knobs, threadN: 8, tileN: 64, staging: 'double', inner: 'pipelined4' }), g).wgsl;
    expect(double).toContain('let ak = 528u + k4 * 33u + tx;');
    const adapter = { limits: DEFAULT_LIMITS, features: [] as string[] };
    expect(validateSchedule(sched({ tileK: 8, splitK: 4, threadM: 8, threadN: 8, inner: 'pipelined4' }), adapter)).toContain('inner pipelined4 needs tileK/splitK a multiple of 4, got 2');
  });
});
