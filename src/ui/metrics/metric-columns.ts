// The metric columns every results table shows (DESIGN.md "Metrics"): compact by default (the
// rate that matters for the op, its %-of-peak, the bottleneck), every number with details on.
import type { Metrics } from '../../core/metrics/roofline';
import { fmtGBps, fmtGflops, fmtPctOfPeak } from '../../core/report/format';

export interface MetricColumn {
  readonly id: string;
  readonly header: string;
  /** What the column holds, for the header's tooltip. */
  readonly doc: string;
  readonly cell: (m: Metrics) => string;
  /** Monospace, right-aligned. */
  readonly numeric: boolean;
}

const pct = fmtPctOfPeak;
const us = (x: number) => x.toFixed(x < 100 ? 2 : 1);

/** GFLOP/s where the op has a flop formula, else GB/s: the rate its roofline is judged on. */
export function rateText(m: Metrics): string {
  return m.gflops !== null ? fmtGflops(m.gflops) : fmtGBps(m.gbps);
}

export function ratePctOfPeak(m: Metrics): number | null {
  return m.gflops !== null ? m.pctPeakFlops : m.pctPeakBw;
}

const BOTTLENECK: MetricColumn = {
  id: 'bottleneck',
  header: 'bottleneck',
  doc: 'compute-, memory-, launch- or latency-bound against the peaks in use; — when the adapter it ran on had no peaks',
  cell: (m) => m.bottleneck ?? '—',
  numeric: false,
};

export const COMPACT_COLUMNS: readonly MetricColumn[] = [
  { id: 'rate', header: 'rate', doc: 'GFLOP/s where the op has flops, else GB/s (median time)', cell: rateText, numeric: true },
  { id: 'pct', header: '% peak', doc: '%FLOP where the op has flops, else %BW, against the peaks in use', cell: (m) => pct(ratePctOfPeak(m)), numeric: true },
  BOTTLENECK,
];

export const DETAIL_COLUMNS: readonly MetricColumn[] = [
  { id: 'min-us', header: 'min µs', doc: 'latency: the smallest sample', cell: (m) => us(m.latencyMinUs), numeric: true },
  { id: 'median-us', header: 'median µs', doc: 'latency: the median sample (rates use it)', cell: (m) => us(m.latencyMedianUs), numeric: true },
  { id: 'gbps', header: 'GB/s', doc: 'bytes that must move ÷ median time', cell: (m) => fmtGBps(m.gbps), numeric: true },
  { id: 'gflops', header: 'GFLOP/s', doc: "the op's flop formula ÷ median time; — for memory-only ops", cell: (m) => (m.gflops === null ? '—' : fmtGflops(m.gflops)), numeric: true },
  { id: 'ai', header: 'AI', doc: 'arithmetic intensity, flop per byte moved', cell: (m) => (m.arithmeticIntensity === null ? '—' : m.arithmeticIntensity.toFixed(2)), numeric: true },
  { id: 'pct-bw', header: '%BW', doc: 'GB/s against the peak bandwidth in use', cell: (m) => pct(m.pctPeakBw), numeric: true },
  { id: 'pct-flop', header: '%FLOP', doc: 'GFLOP/s against the f32 peak in use', cell: (m) => pct(m.pctPeakFlops), numeric: true },
  BOTTLENECK,
  { id: 'peaks', header: 'peaks', doc: 'where the peaks come from: the spec table, a measured calibration, or none', cell: (m) => m.peakSource ?? 'none', numeric: false },
];

export function metricColumns(detail: boolean): readonly MetricColumn[] {
  return detail ? DETAIL_COLUMNS : COMPACT_COLUMNS;
}
