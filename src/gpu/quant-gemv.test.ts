// The quantized GEMV kernels on SwiftShader through Dawn (run with scripts/with-gpu-env.mjs):
// ggml's 32-weight block types through the block-at-a-time decode — the native template and the
// generated gemv family — against the oracle of the dequantized weights, at odd N = 1…7, with f32
// and f16 activations; the mmvq family (two passes, fused and shared) and the registry's pick. Checks only
// (SwiftShader times are never GPU numbers).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNodeEngine } from '../cli/runtime-node';
import { weightFormat } from '../core/quant/weights';

let lab: Awaited<ReturnType<typeof openNodeEngine>>;

beforeAll(async () => {
  lab = await openNodeEngine();
}, 120_000);
afterAll(async () => lab?.close());

const BLOCK_FORMATS = ['q4_0', 'q4_1', 'q5_0', 'q5_1', 'q8_0', 'mxfp4'];

/** The generated gemv family's block decode (the registry picks mmvq for the integer formats where dot4I8Packed is offered). */
const GEMV_BLOCKS = { family: 'gemv', workgroupSize: 64, rowsPerWorkgroup: 4, columnsPerPass: 4, vectorWidth: 4, unroll: 1, reduction: 'subgroup' } as const;

describe('quantized GEMV, block-at-a-time decode (SwiftShader)', () => {
  for (const variant of [{ kind: 'native' as const }, { kind: 'schedule' as const, schedule: GEMV_BLOCKS }]) {
    it(`${variant.kind}: every 32-weight block type at N = 1, 3, 5 (f32) and 7 (f16), odd M, K with odd block counts`, async () => {
      const wrong: string[] = [];
      // Two of the four shapes per format, every shape twice or more over the six formats (SwiftShader compiles slowly).
      const shapes = [[37, 1, 96, 0], [9, 3, 160, 0], [5, 5, 32, 0], [13, 7, 224, 1]];
      for (const [fi, name] of BLOCK_FORMATS.entries()) {
        const type0 = weightFormat(name).id;
        for (const [M, N, K, type1] of [shapes[fi % 4], shapes[(fi + 2) % 4]]) {
          const r = await lab.time({ op: 'MUL_MAT', dims: [M, N, K], params: { type0, type1 }, variant, skipTiming: true });
          if (!r.correct || r.variant !== (variant.kind === 'native' ? 'native' : 'generated')) wrong.push(`${name} ${M}x${N}x${K} type1=${type1}: ${r.variant} maxErr ${r.maxErr} bound ${r.bound}`);
          expect(r.wgsl, name).toContain('fn wq_block(blk: u32) -> WqBlock');
          // Four threads to a 32-weight chunk (wq_part), in the generated gemv and the native template alike.
          expect(r.wgsl, name).toContain(variant.kind === 'schedule' ? 'let wp0 = wq_part(ab + kb, qp);' : 'let blk = wq_part(m * nb + b, qp);');
        }
      }
      expect(wrong).toEqual([]);
    }, 600_000);
  }

  // The generated side on the block-decode gemv (the registry now picks mmvq for nvfp4, mxfp4_t1, mxint8 here).
  for (const variant of [{ kind: 'native' as const }, { kind: 'schedule' as const, schedule: GEMV_BLOCKS }]) {
    it(`${variant.kind}: K-quants and Track-1 formats decode 32 weights a call (ragged block 64 at K = 96; a ragged row end one weight a call)`, async () => {
      const wrong: string[] = [];
      const cases: [string, number, number, number, number][] = [
        ['q4_k', 7, 3, 512, 0],
        ['q5_k', 5, 1, 256, 1],
        ['q6_k', 9, 2, 256, 0],
        ['nvfp4', 37, 1, 96, 0],
        ['mxfp4_t1', 9, 5, 64, 1],
        ['int3', 13, 3, 96, 0],
        ['mxint8', 5, 1, 160, 0],
        ['fp8_e4m3_f16', 11, 7, 64, 1],
        ['nvfp8', 6, 2, 32, 0],
      ];
      for (const [name, M, N, K, type1] of cases) {
        const r = await lab.time({ op: 'MUL_MAT', dims: [M, N, K], params: { type0: weightFormat(name).id, type1 }, variant, skipTiming: true });
        if (!r.correct || r.variant !== (variant.kind === 'native' ? 'native' : 'generated')) wrong.push(`${name} ${M}x${N}x${K} type1=${type1}: ${r.variant} maxErr ${r.maxErr} bound ${r.bound}`);
        expect(r.wgsl, name).toContain('fn wq_block(blk: u32) -> WqBlock');
      }
      // int5 at K = 70: its rows end mid-word, so the one-weight decode (still exact against the oracle).
      const ragged = await lab.time({ op: 'MUL_MAT', dims: [5, 2, 70], params: { type0: weightFormat('int5').id }, variant: variant.kind === 'native' ? variant : { kind: 'auto' }, skipTiming: true });
      expect(ragged.correct).toBe(true);
      expect(ragged.wgsl).not.toContain('fn wq_block');
      expect(wrong).toEqual([]);
    }, 600_000);
  }

  it('gemv schedules: parts with an unrolled main loop and a tail, and whole chunks where a row has fewer than four threads', async () => {
    const wrong: string[] = [];
    const schedules = [
      { family: 'gemv', workgroupSize: 64, rowsPerWorkgroup: 2, columnsPerPass: 2, vectorWidth: 4, unroll: 4, reduction: 'shared' },
      { family: 'gemv', workgroupSize: 64, rowsPerWorkgroup: 32, columnsPerPass: 1, vectorWidth: 4, unroll: 1, reduction: 'subgroup' },
    ] as const;
    for (const [name, M, N, K] of [['q5_0', 9, 3, 224], ['q6_k', 5, 2, 512], ['int6', 7, 1, 160]] as const) {
      for (const schedule of schedules) {
        const r = await lab.time({ op: 'MUL_MAT', dims: [M, N, K], params: { type0: weightFormat(name).id }, variant: { kind: 'schedule', schedule }, skipTiming: true });
        if (!r.correct) wrong.push(`${name} ${M}x${N}x${K} R${schedule.rowsPerWorkgroup}: maxErr ${r.maxErr} bound ${r.bound}`);
        expect(r.wgsl, name).toContain(schedule.rowsPerWorkgroup === 32 ? 'let wb = wq_block(ab + kb);' : 'let wp3 = wq_part(');
      }
    }
    expect(wrong).toEqual([]);
  }, 600_000);

  it('mmvq (q8_1 activations, dot4I8Packed): the integer block types, ggml mxfp4 and the Track-1 E2M1/int4/int8 formats against the f32 oracle with the declared q8_1 bound; q4_k refused by name', async () => {
    const wrong: string[] = [];
    for (const name of ['q4_0', 'q4_1', 'q5_0', 'q5_1', 'q8_0', 'mxfp4', 'nvfp4', 'mxfp4_t1', 'fp4_f16', 'int4', 'int8', 'mxint4']) {
      for (const [schedule, [M, N, K, type1]] of [
        [{ family: 'mmvq', workgroupSize: 64, rowsPerWorkgroup: 4, reduction: 'subgroup' }, [37, 1, 96, 0]],
        [{ family: 'mmvq', workgroupSize: 64, rowsPerWorkgroup: 2, reduction: 'shared' }, [9, 5, 160, 1]],
        [{ family: 'mmvq', workgroupSize: 64, rowsPerWorkgroup: 64, reduction: 'shared' }, [13, 7, 64, 0]],
      ] as const) {
        const r = await lab.time({ op: 'MUL_MAT', dims: [M, N, K], params: { type0: weightFormat(name).id, type1 }, variant: { kind: 'schedule', schedule }, skipTiming: true });
        if (!r.correct) wrong.push(`${name} ${M}x${N}x${K} type1=${type1} ${schedule.reduction}: maxErr ${r.maxErr} bound ${r.bound} ${r.correctness.failures[0] ?? ''}`);
        expect(r.scheduleKey).toMatch(/^mmvq/);
        // Level 1 shows the GEMV pass (the quantize pass runs before it in the same compute pass).
        expect(r.wgsl).toContain('mmvq pass 2');
        expect(r.wgsl).toContain(name === 'nvfp4' ? 'let sj0 = dot4I8Packed(w0.q[4], x.qb.x)' : 'dot4I8Packed(w0.q[7], x.qb.w)');
      }
    }
    expect(wrong).toEqual([]);
    await expect(lab.time({ op: 'MUL_MAT', dims: [8, 1, 256], params: { type0: weightFormat('q4_k').id }, variant: { kind: 'schedule', schedule: { family: 'mmvq', workgroupSize: 64, rowsPerWorkgroup: 4, reduction: 'shared' } }, skipTiming: true })).rejects.toThrow(/mmvq takes weights whose codes are integers/);
  }, 600_000);

  it('mmvq fused (activations quantized inside the GEMV, one pass) rounds as the quantize pass does: the same outputs bit for bit as its prequantized twin', async () => {
    const wrong: string[] = [];
    // Same mapping (rows per workgroup and per thread, threads per row group) in both: each thread sums the same terms in the same order.
    // blocksPerThread only changes when loads are issued, not the order of the sums: the fused side takes 2 on two cases (full steps and a tail).
    for (const [name, [M, N, K, type1], rowsPerThread, blocksPerThread, reduction] of [
      ['q4_0', [37, 1, 2080, 0], 2, 2, 'subgroup'], // 65 blocks over 32 threads: a full step and a tail
      ['q5_0', [9, 5, 160, 1], 4, 1, 'shared'],
      ['q4_1', [13, 1, 64, 0], 1, 1, 'subgroup'],
      ['q8_0', [21, 2, 2048, 1], 2, 2, 'shared'],
      ['nvfp4', [11, 3, 96, 1], 2, 1, 'subgroup'], // two scales a block, activations in nibble order
      ['mxfp4', [7, 1, 128, 0], 1, 2, 'shared'],
    ] as const) {
      const run = (activations: 'prequantized' | 'fused', blocks: number) =>
        lab.time({ op: 'MUL_MAT', dims: [M, N, K], params: { type0: weightFormat(name).id, type1 }, variant: { kind: 'schedule', schedule: { family: 'mmvq', workgroupSize: 64, rowsPerWorkgroup: 4, rowsPerThread, blocksPerThread: blocks, activations, reduction } }, skipTiming: true });
      const [pre, fused] = [await run('prequantized', 1), await run('fused', blocksPerThread)];
      for (const r of [pre, fused]) if (!r.correct) wrong.push(`${name} ${r.scheduleKey}: maxErr ${r.maxErr} bound ${r.bound} ${r.correctness.failures[0] ?? ''}`);
      expect(fused.wgsl, name).toContain('mmvq fused');
      expect(fused.wgsl, name).toContain('let x = q8_1_block(xb0 + kb * 8u);');
      // Equal to the last bit: the largest error, where it is, and its ratio to the bound.
      expect([fused.maxErr, fused.correctness.worstIndex, fused.correctness.worstRatio], name).toEqual([pre.maxErr, pre.correctness.worstIndex, pre.correctness.worstRatio]);
    }
    expect(wrong).toEqual([]);
  }, 600_000);

  it("mmvq shared (activations quantized once per workgroup into workgroup memory, one pass): correct, and its outputs bit for bit its prequantized twin's", async () => {
    const wrong: string[] = [];
    // Same mapping in both (rows per workgroup and thread, threads per row group): the same sums in the same order. M not a multiple of
    // rowsPerWorkgroup, block counts not a multiple of a row group's threads, N·K/32 over the 64 threads (the quantize loop goes round).
    for (const [name, [M, N, K, type1], rowsPerWorkgroup, rowsPerThread, blocksPerThread, reduction, extra] of [
      ['q4_0', [37, 1, 2080, 0], 16, 2, 2, 'subgroup'], // 8 threads a row group over 65 blocks; 65 blocks for 64 quantizing threads
      ['q8_0', [21, 3, 224, 1], 4, 1, 1, 'shared'], // 16 threads over 7 blocks, f16 activations
      ['nvfp4', [11, 4, 96, 1], 32, 2, 1, 'subgroup'], // two scales a block, nibble order; 4 threads over 3 blocks
      ['mxfp4', [7, 5, 128, 0], 8, 1, 1, 'shared'],
      ['q4_0', [70, 6, 160, 0], 64, 1, 1, 'subgroup'], // one thread a row: no partials
      ['q8_0', [9, 8, 64, 0], 2, 2, 1, 'subgroup'],
      ['mxfp4_t1', [13, 7, 96, 1], 16, 4, 1, 'shared'],
      // Four threads a block in the quantize (max and Σq by shuffles) and the first weight step loaded before it: still bit for bit.
      ['q4_0', [37, 1, 2080, 0], 16, 2, 2, 'subgroup', { quantizeThreads: 4, preload: 'weights' }], // 260 lanes over 64 threads: ragged
      ['q8_0', [21, 3, 224, 1], 4, 1, 1, 'shared', { quantizeThreads: 4 }],
      ['nvfp4', [11, 4, 96, 1], 32, 2, 1, 'subgroup', { quantizeThreads: 4, preload: 'weights' }], // nibble order
      ['q4_0', [70, 6, 160, 0], 64, 1, 1, 'subgroup', { preload: 'weights' }],
      ['q8_0', [33, 1, 4096, 0], 8, 2, 4, 'subgroup', { quantizeThreads: 4, preload: 'weights' }],
      // Blocks in 4-aligned pairs (wq_pair_c8) on both sides: 33 pairs over 8 threads (a tail), N = 3 with f16 activations.
      ['q4_0', [37, 1, 2112, 0], 16, 2, 2, 'subgroup', { blocksPerLoad: 2, quantizeThreads: 4, preload: 'weights' }],
      ['q8_0', [21, 3, 256, 1], 4, 1, 1, 'shared', { blocksPerLoad: 2 }],
    ] as const) {
      const { blocksPerLoad, ...knobs }: { blocksPerLoad?: number; quantizeThreads?: number; preload?: string } = extra ?? {};
      const run = (activations: 'prequantized' | 'shared') =>
        lab.time({ op: 'MUL_MAT', dims: [M, N, K], params: { type0: weightFormat(name).id, type1 }, variant: { kind: 'schedule', schedule: { family: 'mmvq', workgroupSize: 64, rowsPerWorkgroup, rowsPerThread, blocksPerThread, activations, reduction, ...(blocksPerLoad ? { blocksPerLoad } : {}), ...(activations === 'shared' ? knobs : {}) } }, skipTiming: true });
      const [pre, shared] = [await run('prequantized'), await run('shared')];
      for (const r of [pre, shared]) if (!r.correct) wrong.push(`${name} ${M}x${N}x${K} ${r.scheduleKey}: maxErr ${r.maxErr} bound ${r.bound} ${r.correctness.failures[0] ?? ''}`);
      expect(shared.wgsl, name).toContain('mmvq shared');
      expect(shared.wgsl, name).toContain('var<workgroup> xq: array<vec4<u32>,');
      if ('quantizeThreads' in knobs) expect(shared.wgsl, name).toContain('let amax = max(max(m2, subgroupShuffleXor(m2, 2u)), 0.0);');
      if (blocksPerLoad) expect(shared.wgsl, name).toContain('wq_pair_c8(ab0 + 2u * (kb))');
      if ('preload' in knobs && name !== 'nvfp4') expect(shared.wgsl.indexOf('let p0'), name).toBeLessThan(shared.wgsl.indexOf('workgroupBarrier'));
      // Equal to the last bit: the largest error, where it is, its ratio to the bound, how many elements are out of it.
      const bits = (r: typeof pre) => [r.maxErr, r.correctness.worstIndex, r.correctness.worstRatio, r.correctness.outOfBound];
      expect(bits(shared), `${name} ${M}x${N}x${K}`).toEqual(bits(pre));
    }
    expect(wrong).toEqual([]);
  }, 600_000);

  /** Each case's mmvq schedule (prequantized, W64, subgroup) with knobs a then b: both correct, b's outputs bit for bit a's (largest error, where, its ratio, how many out of bound). */
  type Twin = readonly [string, readonly [number, number, number, number], number, number, number];
  async function mmvqTwins(cases: readonly Twin[], a: Record<string, string | number>, b: Record<string, string | number>, wgsl: (a: string, b: string, name: string) => void) {
    const wrong: string[] = [];
    for (const [name, [M, N, K, type1], rowsPerWorkgroup, rowsPerThread, blocksPerThread] of cases) {
      const run = (knobs: Record<string, string | number>) =>
        lab.time({ op: 'MUL_MAT', dims: [M, N, K], params: { type0: weightFormat(name).id, type1 }, variant: { kind: 'schedule', schedule: { family: 'mmvq', workgroupSize: 64, rowsPerWorkgroup, rowsPerThread, blocksPerThread, activations: 'prequantized', reduction: 'subgroup', ...knobs } }, skipTiming: true });
      const [ra, rb] = [await run(a), await run(b)];
      for (const r of [ra, rb]) if (!r.correct) wrong.push(`${name} ${M}x${N}x${K} ${r.scheduleKey}: maxErr ${r.maxErr} bound ${r.bound} ${r.correctness.failures[0] ?? ''}`);
      wgsl(ra.wgsl ?? '', rb.wgsl ?? '', name);
      const bits = (r: typeof ra) => [r.maxErr, r.correctness.worstIndex, r.correctness.worstRatio, r.correctness.outOfBound];
      expect(bits(rb), `${name} ${M}x${N}x${K}`).toEqual(bits(ra));
    }
    expect(wrong).toEqual([]);
  }

  it("mmvq codeLoads 'vec4' (src0 as vec4<u32>, a block's codes one 16-byte load): correct, and its outputs bit for bit codeLoads 'words'", async () => {
    // M not a multiple of rowsPerWorkgroup, N = 1 and 3 (f16 activations once), block counts not a multiple of a row group's threads.
    const cases: Twin[] = [
      ['nvfp4', [37, 1, 224, 0], 8, 2, 2],
      ['nvfp4', [13, 3, 96, 1], 4, 1, 1],
      ['mxfp4_t1', [37, 1, 224, 0], 8, 2, 2],
      ['mxfp4_t1', [13, 3, 160, 0], 4, 2, 1],
      ['int4', [37, 1, 224, 0], 8, 1, 2],
      ['int4', [13, 3, 96, 1], 4, 2, 2],
      ['int8', [21, 3, 96, 0], 8, 2, 1],
    ];
    await mmvqTwins(cases, { codeLoads: 'words' }, { codeLoads: 'vec4' }, (words, vec4, name) => {
      expect(words, name).toContain('var<storage, read> src0: array<u32>;');
      expect(vec4, name).toContain('var<storage, read> src0: array<vec4<u32>>;');
    });
  }, 600_000);

  it("mmvq blocksPerLoad 8 with codeLoads 'vec4' (eight q4_0 / q8_0 blocks from whole vec4s): correct, and 'shared' bit for bit its prequantized twin", async () => {
    // M not a multiple of rowsPerWorkgroup; 5 eights over 16 or 8 threads a row group (the one-unit tail loop); N = 1 and 3 (f16 activations once).
    const cases: Twin[] = [['q4_0', [37, 1, 1280, 0], 8, 2, 2], ['q4_0', [13, 3, 512, 1], 16, 1, 1], ['q8_0', [37, 1, 1280, 0], 16, 2, 1], ['q8_0', [13, 3, 512, 0], 8, 1, 2]];
    const oct = { codeLoads: 'vec4', blocksPerLoad: 8 };
    await mmvqTwins(cases, oct, { ...oct, activations: 'shared' }, (pre, shared, name) => {
      expect(pre, name).toContain('let w0 = wq_oct_c8(ab0 + 8u * (kb));');
      expect(shared, name).toContain('mmvq shared');
    });
  }, 600_000);

  it("mmvq dotFloat 'mantissa' (the dot read from an f32's mantissa, no conversion): correct, and its outputs bit for bit 'convert''s; blocksPerLoad 4 (ggml mxfp4 in fours, 17 words): correct", async () => {
    // nvfp4's two halves, ggml mxfp4, q4_0's bias through Σq, q8_0's widest sums; N = 1 and 3 (f16 activations once).
    const cases: Twin[] = [
      ['nvfp4', [37, 1, 224, 0], 8, 2, 2],
      ['nvfp4', [13, 3, 96, 1], 4, 1, 1],
      ['mxfp4', [13, 3, 160, 0], 4, 2, 1],
      ['q4_0', [21, 3, 96, 0], 8, 2, 1],
      ['q8_0', [9, 1, 128, 0], 4, 1, 2],
    ];
    await mmvqTwins(cases, { dotFloat: 'convert' }, { dotFloat: 'mantissa' }, (a, b, name) => {
      expect(a, name).toContain('f32(si0)');
      expect(b, name).toContain('(bitcast<f32>(si0) - 12582912.0)');
    });
    // Four blocks a load: 16 (4 fours) and 12 (3 fours over 2 threads a row group) blocks a row, M not a multiple of the rows a workgroup.
    const quads: Twin[] = [['mxfp4', [37, 1, 512, 0], 8, 2, 2], ['mxfp4', [13, 3, 384, 1], 4, 1, 1]];
    await mmvqTwins(quads, { blocksPerLoad: 4 }, { blocksPerLoad: 4, dotFloat: 'mantissa' }, (a, b, name) => {
      expect(a, name).toContain('let w0 = wq_quad_c8(ab0 + 4u * (kb));');
      expect(b, name).toContain('let w0 = wq_quad_c8(ab0 + 4u * (kb));');
    });
  }, 600_000);

  it("mmvq e2m1Decode 'table' (E2M1 code bytes looked up in a per-lane workgroup table, activations in its order): correct, and its outputs bit for bit 'bits'", async () => {
    // SwiftShader offers 32 KiB of workgroup memory, all of it the table: one thread a row (rowsPerWorkgroup = 64·rowsPerThread, no partials).
    // Ragged M (37, 13 against 64 or 128 rows a workgroup), N = 1 and 3 (f16 activations twice), two blocks a step with a tail.
    const cases: Twin[] = [
      ['nvfp4', [37, 1, 96, 0], 64, 1, 1],
      ['nvfp4', [13, 3, 160, 1], 128, 2, 2],
      ['mxfp4_t1', [37, 3, 96, 0], 64, 1, 2],
      ['mxfp4', [37, 1, 128, 0], 64, 1, 1],
      ['mxfp4', [13, 3, 96, 1], 128, 2, 1],
    ];
    await mmvqTwins(cases, { e2m1Decode: 'bits' }, { e2m1Decode: 'table' }, (bits, table, name) => {
      expect(bits, name).not.toContain('wq_lut');
      expect(table, name).toContain('var<workgroup> wq_lut: array<u32, 8192>;');
    });
    // With the activations fused, and Track-1 codes as vec4 loads.
    const more: Twin[] = [['mxfp4_t1', [13, 3, 160, 1], 64, 1, 1]];
    await mmvqTwins(more, { codeLoads: 'vec4' }, { codeLoads: 'vec4', e2m1Decode: 'table', activations: 'fused' }, (_bits, table, name) => expect(table, name).toContain('mmvq fused'));
    // ggml mxfp4 four blocks a load (8 and 12 blocks a row), each code word through the table.
    const quads: Twin[] = [['mxfp4', [37, 1, 256, 0], 64, 1, 1], ['mxfp4', [13, 3, 384, 1], 64, 1, 1]];
    await mmvqTwins(quads, { blocksPerLoad: 4 }, { blocksPerLoad: 4, e2m1Decode: 'table' }, (_bits, table, name) => expect(table, name).toContain('wq_e2m1x2_lut((W0 >> 8u)'));
  }, 600_000);

  it("the registry's pick: mmvq for the integer-dot formats at N ≤ 8 (this runtime offers dot4I8Packed), the block-decode gemv for the others", async () => {
    for (const [name, dims, family] of [['q4_0', [37, 1, 96], 'mmvq'], ['q8_0', [9, 8, 64], 'mmvq'], ['mxfp4', [13, 2, 64], 'mmvq'], ['nvfp4', [13, 3, 64], 'mmvq'], ['mxfp8_e4m3', [13, 2, 64], 'gemv']] as const) {
      const r = await lab.time({ op: 'MUL_MAT', dims: [...dims], params: { type0: weightFormat(name).id }, variant: { kind: 'auto' }, skipTiming: true });
      expect(r.correct, `${name}: maxErr ${r.maxErr} bound ${r.bound}`).toBe(true);
      expect(r.variant).toBe('generated');
      expect(r.scheduleKey?.split('{')[0], name).toBe(family);
    }
  }, 600_000);
});

