import { describe, expect, it } from 'vitest';
import { formatsFrontier } from './formats-frontier';
import type { FormatRow } from './formats';

/** A timed row: weightBytes / medianNs is its GB/s, as the runner computes it. */
function row(format: string, bitsPerWeight: number, medianNs: number | null, nmse: number | null, reason: string | null = null): FormatRow {
  const weightBytes = (4096 * 4096 * bitsPerWeight) / 8;
  return { format, bitsPerWeight, variant: medianNs === null ? null : 'generated', scheduleKey: null, correct: medianNs === null ? null : true, medianNs, p20Ns: medianNs, p80Ns: medianNs, weightBytes, weightGBps: medianNs === null ? null : weightBytes / medianNs, gflops: null, pctPeakBw: null, pctPeakFlops: null, bottleneck: null, nmse, maxRelError: nmse === null ? null : 0.1, reason };
}

const ROWS: FormatRow[] = [
  row('q4_0', 4.5, 6000, 1.4e-2),
  row('mxfp4', 4.25, 6500, 2.1e-2), // slower and less accurate than q4_0: dominated
  row('q8_0', 8.5, 9000, 9.8e-5),
  row('int8', 8.5, 9000, 2.0e-4), // as fast as q8_0, less accurate: dominated
  row('f16', 16, 15000, null),
  row('q6_k', 6.5625, 8000, null),
  row('int8_f16', 8.25, 12000, 0),
  row('q4_k', 4.5, null, null, 'MUL_MAT 32x2x64: q4_k: K = 64 is not a multiple of its block size 256'),
];

describe('formatsFrontier', () => {
  it('places every format with a time and an error, and marks the ones no other beats on both', () => {
    const f = formatsFrontier(ROWS, 'time');
    expect(f.points.map((p) => [p.format, p.x, p.nmse, p.onFront])).toEqual([
      ['q4_0', 6, 1.4e-2, true],
      ['mxfp4', 6.5, 2.1e-2, false],
      ['q8_0', 9, 9.8e-5, true],
      ['int8', 9, 2.0e-4, false],
    ]);
    expect(f.front).toEqual(['q4_0', 'q8_0']);
  });

  it('says why a format is not on the chart: no time (with its reason), no error, an exact error', () => {
    expect(formatsFrontier(ROWS, 'time').unplaced).toEqual([
      { format: 'f16', why: 'no quantization error (the f32/f16 reference, or a format the lab cannot encode)' },
      { format: 'q6_k', why: 'no quantization error (the f32/f16 reference, or a format the lab cannot encode)' },
      { format: 'int8_f16', why: 'NMSE 0: exact on these weights, below any log scale' },
      { format: 'q4_k', why: 'MUL_MAT 32x2x64: q4_k: K = 64 is not a multiple of its block size 256' },
    ]);
  });

  it('on the bandwidth axis x is GB/s of the stored weights; the frontier stays by time', () => {
    const f = formatsFrontier(ROWS, 'bandwidth');
    const q4 = f.points.find((p) => p.format === 'q4_0')!;
    // 4096² weights at 4.5 bits = 9437184 bytes in 6000 ns.
    expect(q4.x).toBeCloseTo(9437184 / 6000, 9);
    expect(f.points.find((p) => p.format === 'q8_0')!.x).toBeCloseTo(17825792 / 9000, 9);
    expect(f.front).toEqual(['q4_0', 'q8_0']);
  });

  it('two formats with the same time and error are both on the frontier (neither is strictly better)', () => {
    const f = formatsFrontier([row('a', 4, 100, 1e-3), row('b', 4, 100, 1e-3)], 'time');
    expect(f.front).toEqual(['a', 'b']);
  });
});
