import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../adapter';
import { MUL_MAT } from '../ops/mul-mat';
import { parseOpSpace, parseSchedule, validateSchedule, type Schedule } from '../schedule/schedule';
import { GEMV } from './gemv';
import { weightFormat } from '../quant/weights';

const gemv = (knobs: Record<string, number | string> = {}): Schedule =>
  parseSchedule({ family: 'gemv', workgroupSize: 64, rowsPerWorkgroup: 2, columnsPerPass: 2, vectorWidth: 4, unroll: 2, reduction: 'subgroup', ...knobs });
const subgroups = { limits: DEFAULT_LIMITS, features: ['subgroups'] };

describe('gemv family (MUL_MAT with N ≤ 8)', () => {
  it('validates knobs and the subgroups feature, naming them', () => {
    expect(validateSchedule(gemv(), subgroups)).toEqual([]);
    expect(validateSchedule(gemv(), { limits: DEFAULT_LIMITS, features: [] })).toEqual(["reduction 'subgroup' needs the 'subgroups' feature, which this adapter lacks"]);
    expect(validateSchedule(gemv({ workgroupSize: 96, rowsPerWorkgroup: 128 }), subgroups)).toEqual([
      'workgroupSize 96 is not a power of two',
      'rowsPerWorkgroup 128 must be a power of two ≤ workgroupSize 96',
    ]);
    expect(validateSchedule(gemv({ columnsPerPass: 16, vectorWidth: 2 }), subgroups)).toEqual(['vectorWidth 2 is not offered for gemv (1 or 4)', 'columnsPerPass 16 exceeds 8 (registers; larger N is the tiled matmul\'s)']);
    // Workgroup memory: one partial per thread and column when a row has several threads.
    expect(GEMV.workgroupBytes(gemv() as never)).toBe(64 * 2 * 4);
    expect(GEMV.workgroupBytes(gemv({ rowsPerWorkgroup: 64 }) as never)).toBe(0);
  });

  it('says why a case does not fit (vec4 needs K % 4 and aligned rows; x workgroups)', () => {
    expect(MUL_MAT.fits(gemv(), MUL_MAT.makeCase([64, 3, 32]))).toEqual([]);
    expect(MUL_MAT.fits(gemv(), MUL_MAT.makeCase([64, 3, 33]))).toEqual(['vectorWidth 4 needs K % 4 == 0, got K = 33']);
    expect(MUL_MAT.fits(gemv(), MUL_MAT.makeCase([64, 3, 32], 'src0-odd-stride'))).toEqual(["vectorWidth 4 needs src0's rows to start on 4-element boundaries (offset 64, row stride 33)"]);
    expect(MUL_MAT.fits(gemv({ vectorWidth: 1, rowsPerWorkgroup: 1 }), MUL_MAT.makeCase([70000, 1, 4]))).toEqual(['rowsPerWorkgroup 1 needs 70000 workgroups along x for M = 70000, over 65535']);
  });

  it('generates the kernel: f16 weights widened from u32 words, subgroup butterfly then shared partials', () => {
    const k = MUL_MAT.generate(gemv(), MUL_MAT.makeCase([6, 3, 32], 'contiguous', { type0: 1 }));
    expect(k.dispatch).toEqual([3, 2, 1]);
    expect(k.features).toEqual(['subgroups']);
    expect(k.bindings.map((b) => b.role)).toEqual(['src0', 'src1', 'dst']);
    expect(`${k.label}\n${k.wgsl}`).toMatchSnapshot();
  });

  it('generates the shared-tree reduction with clamped overhanging rows and columns', () => {
    const k = MUL_MAT.generate(gemv({ reduction: 'shared', vectorWidth: 1, unroll: 1, columnsPerPass: 4, rowsPerWorkgroup: 4, workgroupSize: 16 }), MUL_MAT.makeCase([7, 3, 5, 2], 'batched-broadcast'));
    expect(k.dispatch).toEqual([2, 1, 2]);
    expect(k.features).toBeUndefined();
    expect(`${k.label}\n${k.wgsl}`).toMatchSnapshot();
  });

  it('block weights: four threads per 32-weight chunk (8-weight parts, U in flight, then a tail); fewer than four threads a row take whole chunks', () => {
    const nv = MUL_MAT.makeCase([8, 3, 256], 'contiguous', { type0: weightFormat('nvfp4').id });
    // 64 threads, 2 rows: 32 threads a row, 8 chunks per step, unroll 2.
    const w = MUL_MAT.generate(gemv(), nv).wgsl;
    expect(w).toContain('let qp = j % 4u;');
    expect(w).toContain('for (; kb + 8u < 8u; kb = kb + 16u) {');
    expect(w).toContain('let wp1 = wq_part(ab + kb + 8u, qp);');
    expect(w).toContain('acc1 = acc1 + wp1.d * (wp1.q[0] * x1_1a + wp1.q[1] * x1_1b);');
    expect(w).toContain('for (; kb < 8u; kb = kb + 8u) {');
    // q4_1's min: m · Σx per part.
    expect(MUL_MAT.generate(gemv(), MUL_MAT.makeCase([8, 3, 256], 'contiguous', { type0: weightFormat('q4_1').id })).wgsl).toContain(' + wp0.m * (x0_0a + x0_0b);');
    // 32 rows of 64 threads: 2 threads a row, whole chunks.
    const whole = MUL_MAT.generate(gemv({ rowsPerWorkgroup: 32 }), nv).wgsl;
    expect(whole).toContain('let wb = wq_block(ab + kb);');
    expect(whole).not.toContain('wq_part(ab');
  });

  it('a sweep space may name the family (MUL_MAT takes matmul, gemv and sgmatrix)', () => {
    const families = ['matmul', 'gemv', 'sgmatrix'] as const;
    expect(parseOpSpace('{"family":"gemv","unroll":[1,4]}', families)).toEqual({ family: 'gemv', restrict: { family: ['gemv'], unroll: [1, 4] } });
    expect(parseOpSpace('{"tileM":[64]}', families)).toEqual({ family: 'matmul', restrict: { tileM: [64] } });
    expect(() => parseOpSpace('{"family":"norm"}', families)).toThrow(/space.family "norm" is not one this op takes \(matmul, gemv, sgmatrix\)/);
    expect(() => parseOpSpace('{"family":"gemv","tileM":[64]}', families)).toThrow(/unknown knob 'tileM' for family gemv/);
  });
  it('rowsPerThread: a thread reads its rows side by side, one src1 load feeding them all; partials per row and column', () => {
    const s = gemv({ workgroupSize: 256, rowsPerWorkgroup: 8, columnsPerPass: 1, unroll: 4, rowsPerThread: 2 });
    expect(validateSchedule(s, subgroups)).toEqual([]);
    expect(validateSchedule(gemv({ rowsPerThread: 4 }), subgroups)).toEqual(['rowsPerThread 4 must be a power of two ≤ rowsPerWorkgroup 2']);
    expect(GEMV.workgroupBytes(s as never)).toBe(256 * 2 * 4);
    const wgsl = MUL_MAT.generate(s, MUL_MAT.makeCase([4100, 1, 4096])).wgsl;
    expect(wgsl).toContain('64 thread(s) per row over K (each reading 2 rows)');
    expect(wgsl).toContain('let mOut1 = wid.x * 8u + r * 2u + 1u;');
    expect(wgsl).toContain('let m1 = min(mOut1, 4099u);');
    // Four loads of each row in flight, then per load one src1 read for both rows.
    expect(wgsl).toContain('  let x3_1 = ld_src0(a1 + kk + 192u);');
    expect(wgsl).toMatch(/let y0 = ld_src1\(b0 \+ kk \+ 64u\);\n\s*acc0_0 = acc0_0 \+ x1_0 \* y0;\n\s*acc1_0 = acc1_0 \+ x1_1 \* y0;/);
    expect(wgsl).toContain('part[(r * 64u + j / w) * 2u + 1u] = s1_0;');
    expect(wgsl).toContain('if (j == 0u && mOut1 < 4100u) {');
    // Block weights keep one row a thread.
    expect(MUL_MAT.fits(gemv({ rowsPerThread: 2 }), MUL_MAT.makeCase([64, 1, 64], 'contiguous', { type0: weightFormat('q4_0').id }))).toContain('rowsPerThread 2 takes f32/f16 weights, not 32-weight blocks');
  });
});
