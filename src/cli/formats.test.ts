// `lab formats` on SwiftShader: the JSON report — one row per format, fastest first, the error
// columns from the seeded weights, a format whose block does not divide K a row with the reason.
import { describe, expect, it } from 'vitest';
import { formats } from '../core/schema/results';
import { validateResult } from '../core/report/validate';
import { runCli } from './run-cli';

describe('lab formats', () => {
  it('ranks the formats of a GEMV: rows, order, error columns, a declared reason', () => {
    const r = runCli(['formats', '--op', 'gemv', '--shape', '32x2x64', '--format', 'q8_0,int4,q4_k,f16', '--min-runs', '1', '--json', '-']);
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ kind: 'formats', op: 'gemv', ggmlOp: 'MUL_MAT', shape: '32x2x64' });
    // The file is the result schema's JSON: it validates as it is, and its projection is itself, key for key.
    expect(validateResult(report)).toBe(report);
    expect(JSON.stringify(formats.project(report))).toBe(JSON.stringify(report));
    expect(report.distribution).toMatch(/Gaussian σ = 0.02 .* outliers/);
    const rows = report.rows as { format: string; medianNs: number | null; nmse: number | null; correct: boolean | null; reason: string | null; bitsPerWeight: number; weightBytes: number }[];
    expect(rows.map((x) => x.format).sort()).toEqual(['f16', 'int4', 'q4_k', 'q8_0']);
    // q4_k's super-block of 256 does not divide K = 64: a row with the reason, last, no time.
    const last = rows[rows.length - 1];
    expect(last).toMatchObject({ format: 'q4_k', medianNs: null, reason: 'MUL_MAT 32x2x64: q4_k: K = 64 is not a multiple of its block size 256, and q4_k forbids a ragged tail block' });
    const timed = rows.filter((x) => x.medianNs !== null);
    expect(timed).toHaveLength(3);
    for (let i = 1; i < timed.length; i++) expect(timed[i].medianNs!).toBeGreaterThanOrEqual(timed[i - 1].medianNs!);
    for (const x of timed) expect(x.correct).toBe(true);
    const by = Object.fromEntries(rows.map((x) => [x.format, x]));
    expect(by.f16.nmse).toBeNull();
    expect(by.q8_0.nmse!).toBeLessThan(by.int4.nmse!);
    expect(by.int4).toMatchObject({ bitsPerWeight: 4.5, weightBytes: (32 * 64) / 2 + 32 * 4 });
    expect(by.q8_0.weightBytes).toBe(32 * 2 * 34);
  }, 300_000);

  it('refuses an unknown format, listing the known ones, before any device work', () => {
    const r = runCli(['formats', '--format', 'q4_0,q9_0']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/unknown weight format 'q9_0' \(known: q4_0, q4_1, q5_0, .*int8_f16\)/);
  });

  it('--mmvq: a second row for each integer-dot format on the other GEMV path (here the registry picks mmvq, so the block-decode gemv), none for mxfp8_e4m3 or a K mmvq does not take; gemv only', () => {
    const r = runCli(['formats', '--op', 'gemv', '--shape', '16x3x64', '--format', 'q4_1,mxfp4,nvfp4,mxfp8_e4m3', '--mmvq', '--min-runs', '1', '--json', '-']);
    expect(r.status, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout).rows as { format: string; scheduleKey: string | null; correct: boolean | null; medianNs: number | null }[];
    expect(rows.map((x) => `${x.format} ${x.scheduleKey?.split('{')[0]}`).sort()).toEqual(['mxfp4 gemv', 'mxfp4 mmvq', 'mxfp8_e4m3 gemv', 'nvfp4 gemv', 'nvfp4 mmvq', 'q4_1 gemv', 'q4_1 mmvq']);
    for (const x of rows) expect(x, x.format).toMatchObject({ correct: true });
    // int4 at K = 70 (a ragged row end): mmvq does not take it, so one row.
    const ragged = runCli(['formats', '--op', 'gemv', '--shape', '8x1x70', '--format', 'int4', '--mmvq', '--min-runs', '1', '--json', '-']);
    expect(ragged.status, ragged.stderr).toBe(0);
    expect((JSON.parse(ragged.stdout).rows as { scheduleKey: string }[]).map((x) => x.scheduleKey.split('{')[0])).toEqual(['gemv']);
    const gemm = runCli(['formats', '--op', 'gemm', '--shape', '16x16x64', '--format', 'q4_0', '--mmvq']);
    expect(gemm.status).toBe(2);
    expect(gemm.stderr).toMatch(/--mmvq: the integer-dot schedule is a GEMV's \(--op gemv\), not gemm's/);
  }, 300_000);
});

