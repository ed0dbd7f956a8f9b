// The quantized GEMV kernels on SwiftShader through Dawn (run with scripts/with-gpu-env.mjs):
// every format through the block-at-a-time decode (ggml's 32-weight types, the K-quants, Track-1)
// — the native template and the generated gemv family — against the oracle of the dequantized
// weights, at odd N = 1…7, with f32 and f16 activations. Checks only (SwiftShader times are never GPU numbers).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNodeEngine } from '../cli/runtime-node';
import { weightFormat } from '../core/quant/weights';

let lab: Awaited<ReturnType<typeof openNodeEngine>>;

beforeAll(async () => {
  lab = await openNodeEngine();
}, 120_000);
afterAll(async () => lab?.close());

const BLOCK_FORMATS = ['q4_0', 'q4_1', 'q5_0', 'q5_1', 'q8_0', 'mxfp4'];

describe('quantized GEMV, block-at-a-time decode (SwiftShader)', () => {
  for (const variant of [{ kind: 'native' as const }, { kind: 'auto' as const }]) {
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
          expect(r.wgsl, name).toContain(variant.kind === 'auto' ? 'let wp0 = wq_part(ab + kb, qp);' : 'let blk = wq_part(m * nb + b, qp);');
        }
      }
      expect(wrong).toEqual([]);
    }, 600_000);
  }

  for (const variant of [{ kind: 'native' as const }, { kind: 'auto' as const }]) {
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
      const ragged = await lab.time({ op: 'MUL_MAT', dims: [5, 2, 70], params: { type0: weightFormat('int5').id }, variant, skipTiming: true });
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

  it('mmvq (q8_1 activations, dot4I8Packed): the integer block types against the f32 oracle with the declared q8_1 bound; mxfp4 refused by name', async () => {
    const wrong: string[] = [];
    for (const name of ['q4_0', 'q4_1', 'q5_0', 'q5_1', 'q8_0']) {
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
        expect(r.wgsl).toContain('dot4I8Packed(wb.q[7], xq[o + 7u])');
      }
    }
    expect(wrong).toEqual([]);
    await expect(lab.time({ op: 'MUL_MAT', dims: [8, 1, 64], params: { type0: weightFormat('mxfp4').id }, variant: { kind: 'schedule', schedule: { family: 'mmvq', workgroupSize: 64, rowsPerWorkgroup: 4, reduction: 'shared' } }, skipTiming: true })).rejects.toThrow(/mmvq takes ggml block weights with integer quants/);
  }, 600_000);
});

