// One (op, shape) over time on this adapter: each lane run's speedup (median with min–max) and
// each Level 1 run's median time. Every point comes from inside one run; points from code other
// than this build's (stale) are drawn grey and hollow.
import { Show } from 'solid-js';
import type uPlot from 'uplot';
import type { RunRecord } from '../../../storage/db';
import { latencySeries, speedupSeries } from '../../../storage/history';
import { UPlot, type ChartOptions } from '../../charts/UPlot';

const STALE = '#8c959f';

function points(stroke: string, size: number, hollow = false): Partial<uPlot.Series> {
  return { stroke, width: 0, paths: () => null, points: { show: true, size, stroke, fill: hollow ? '#ffffff' : stroke, width: 2 } };
}

/**
 * Time in seconds from the data itself (uPlot widens a single point by 1000 days), padded so a
 * single run or runs minutes apart still sit inside the chart.
 */
const timeRange: uPlot.Range.Function = (u) => {
  const xs = u.data[0] as number[];
  const lo = xs[0] ?? 0;
  const hi = xs[xs.length - 1] ?? lo;
  const pad = Math.max(3600, (hi - lo) * 0.04);
  return [lo - pad, hi + pad];
};

const ratio = (_u: uPlot, v: number | null) => (v === null ? '—' : `${v.toFixed(2)}×`);
const micro = (_u: uPlot, v: number | null) => (v === null ? '—' : `${v.toFixed(2)} µs`);

function SpeedupChart(props: { runs: readonly RunRecord[]; opShape: string }) {
  const series = () => speedupSeries(props.runs, props.opShape);
  const data = (): uPlot.AlignedData => {
    const s = series();
    return [s.map((p) => p.tSec), s.map((p) => (p.stale ? null : p.median)), s.map((p) => (p.stale ? p.median : null)), s.map((p) => p.min), s.map((p) => p.max), s.map(() => 1)];
  };
  const options = (): ChartOptions => ({
    // Linear, always showing 1× (parity) with a margin around the whiskers.
    scales: { x: { time: true, range: timeRange }, y: { range: (_u, lo, hi) => [Math.max(0, Math.min(lo ?? 1, 1) - 0.1), Math.max(hi ?? 1, 1) + 0.1] } },
    axes: [{}, { label: 'speedup (native ÷ generated)', values: (_u, ticks) => ticks.map((t) => (t === null ? '' : `${+t.toFixed(2)}×`)) }],
    series: [
      {},
      { label: 'median', ...points('#0b5cad', 9), value: ratio },
      { label: 'median (stale code)', ...points(STALE, 9, true), value: ratio },
      { label: 'min', ...points('#a8b3bf', 5), value: ratio },
      { label: 'max', ...points('#a8b3bf', 5), value: ratio },
      { label: 'parity 1×', stroke: '#b3261e', width: 1, dash: [4, 4], points: { show: false } },
    ],
  });
  return (
    <Show when={series().length} fallback={<p class="note">No lane run timed {props.opShape} on this adapter: speedups come only from lane runs.</p>}>
      <h3>Speedup per lane run</h3>
      <UPlot options={options()} data={data()} heightPx={220} testid="history-speedup-chart" label={`speedup of ${props.opShape} per lane run over time`} />
    </Show>
  );
}

function LatencyChart(props: { runs: readonly RunRecord[]; opShape: string }) {
  const series = () => latencySeries(props.runs, props.opShape);
  const data = (): uPlot.AlignedData => {
    const s = series();
    const pick = (variant: string, stale: boolean) => s.map((p) => (p.variant === variant && p.stale === stale ? p.medianNs / 1e3 : null));
    return [s.map((p) => p.tSec), pick('native', false), pick('generated', false), s.map((p) => (p.stale ? p.medianNs / 1e3 : null))];
  };
  const options = (): ChartOptions => ({
    scales: { x: { time: true, range: timeRange }, y: { range: (_u, _lo, hi) => [0, Math.max(hi, 1) * 1.1] } },
    axes: [{}, { label: 'median µs (Level 1, alone)' }],
    series: [
      {},
      { label: 'native', ...points('#1a7f37', 8), value: micro },
      { label: 'generated', ...points('#0b5cad', 8), value: micro },
      { label: 'stale code', ...points(STALE, 8, true), value: micro },
    ],
  });
  return (
    <Show when={series().length}>
      <h3>Level 1 median time per run</h3>
      <UPlot options={options()} data={data()} heightPx={220} testid="history-latency-chart" label={`Level 1 median time of ${props.opShape} per run over time`} />
      <p class="note">Level 1 times are each alone in their run: their ratio is not a speedup (a speedup never leaves its run).</p>
    </Show>
  );
}

export function HistoryCharts(props: { runs: readonly RunRecord[]; opShape: string }) {
  return (
    <section class="panel" data-testid="history-charts">
      <h2>
        Over time · <span class="mono">{props.opShape}</span>
      </h2>
      <SpeedupChart runs={props.runs} opShape={props.opShape} />
      <LatencyChart runs={props.runs} opShape={props.opShape} />
    </section>
  );
}
