import { describe, expect, it } from 'vitest';
import type { Metrics } from '../../core/metrics/roofline';
import { COMPACT_COLUMNS, DETAIL_COLUMNS, rateText } from './metric-columns';

const base: Metrics = { latencyMinUs: 10, latencyMedianUs: 12.5, gbps: 512, gflops: null, arithmeticIntensity: null, pctPeakBw: 64, pctPeakFlops: null, bottleneck: 'memory-bound', peakSource: 'spec' };
const cells = (cols: typeof COMPACT_COLUMNS, m: Metrics) => Object.fromEntries(cols.map((c) => [c.id, c.cell(m)]));

describe('metric columns', () => {
  it('compact: GB/s and %BW for a memory-only op, GFLOP/s and %FLOP where it has flops', () => {
    expect(cells(COMPACT_COLUMNS, base)).toEqual({ rate: '512.0 GB/s', pct: '64%', bottleneck: 'memory-bound' });
    const mm = { ...base, gflops: 27_490, arithmeticIntensity: 85.3, pctPeakFlops: 41.03 };
    expect(cells(COMPACT_COLUMNS, mm)).toEqual({ rate: '27.49 TFLOP/s', pct: '41%', bottleneck: 'memory-bound' });
    expect(rateText(mm)).toBe('27.49 TFLOP/s');
  });

  it('details: every metric, blanks where there are no flops or no peaks', () => {
    const none = { ...base, pctPeakBw: null, bottleneck: null, peakSource: null };
    expect(cells(DETAIL_COLUMNS, none)).toEqual({ 'min-us': '10.00', 'median-us': '12.50', gbps: '512.0 GB/s', gflops: '—', ai: '—', 'pct-bw': '—', 'pct-flop': '—', bottleneck: '—', peaks: 'none' });
  });
});
