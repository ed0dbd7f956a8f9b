// One (op, shape) over time on this adapter: each lane run's speedup (median with min–max) and
// each Level 1 run's median time. Every point comes from inside one run; points from code other
// than this build's (stale) are drawn grey and hollow.
import { Show } from 'solid-js';
import type uPlot from 'uplot';
import type { RunRecord } from '../../../storage/db';
import { latencySeries, speedupSeries } from '../../../storage/history';
import { DEFAULT_TOLERANCE } from '../../../core/stats/verdict';
import { parityBand } from '../../charts/speedup-chart';
import { UPlot, type ChartOptions } from '../../charts/UPlot';

const STALE = '#8c959f';

function points(stroke: string, size: number, hollow = false): Partial<uPlot.Series> {
  return { stroke, width: 0, paths: () => null, points: { show: true, size, stroke, fill: hollow ? '#ffffff' : stroke, width: 2 } };
}

/**
 * Time in seconds fitted to the data itself (uPlot widens a single point by 1000 days): 5% of
 * the span on each side, at least 30 s, so two runs a minute apart fill the chart.
 */
export const timeRange: uPlot.Range.Function = (u) => {
  const xs = u.data[0] as number[];
  const lo = xs[0] ?? 0;
  const hi = xs[xs.length - 1] ?? lo;
  const pad = Math.max(30, (hi - lo) * 0.05);
  return [lo - pad, hi + pad];
};

/** The y axis: room for its title and tick values, so neither is clipped. */
const Y_AXIS = { size: 64, labelSize: 20, labelGap: 4 } as const;



function SpeedupChart(props: { runs: readonly RunRecord[]; opShape: string }) {
  const series = () => speedupSeries(props.runs, props.opShape);
  const data = (): uPlot.AlignedData => {
    const s = series();
    return [s.map((p) => p.tSec), s.map((p) => (p.stale ? null : p.median)), s.map((p) => (p.stale ? p.median : null)), s.map((p) => p.min), s.map((p) => p.max), s.map(() => 1)];
  };
  const options = (): ChartOptions => ({
    // Linear, always showing 1× (parity) with a margin around the whiskers.
    // Fitted to the whiskers and the band, always showing 1× (parity), with a small margin.
    scales: {
      x: { time: true, range: timeRange },
      y: {
        range: (_u, lo, hi) => {
          const a = Math.min(lo ?? 1, 1 - DEFAULT_TOLERANCE);
          const b = Math.max(hi ?? 1, 1);
          const pad = Math.max(0.02, (b - a) * 0.1);
          return [Math.max(0, a - pad), b + pad];
        },
      },
    },
    axes: [{}, { label: 'speedup (native ÷ generated)', ...Y_AXIS, values: (_u, ticks) => ticks.map((t) => (t === null ? '' : `${+t.toFixed(2)}×`)) }],
    // Labels only: a live legend shows '—' wherever the cursor is not on a point.
    legend: { live: false },
    series: [
      {},
      { label: 'median', ...points('#0b5cad', 9) },
      { label: 'median (stale code)', ...points(STALE, 9, true) },
      { label: 'min', ...points('#a8b3bf', 5) },
      { label: 'max', ...points('#a8b3bf', 5) },
      { label: `parity 1× (band: ${DEFAULT_TOLERANCE * 100}% tolerance)`, stroke: '#b3261e', width: 1, dash: [4, 4], points: { show: false } },
    ],
    hooks: { drawAxes: [parityBand(DEFAULT_TOLERANCE, false)] },
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
    // From 0 to just above the slowest run (not to 1 µs when every run is faster).
    scales: { x: { time: true, range: timeRange }, y: { range: (_u, _lo, hi) => [0, (hi > 0 ? hi : 1) * 1.1] } },
    axes: [{}, { label: 'median µs (Level 1)', ...Y_AXIS }],
    legend: { live: false },
    series: [
      {},
      { label: 'native', ...points('#1a7f37', 8) },
      { label: 'generated', ...points('#0b5cad', 8) },
      { label: 'stale code', ...points(STALE, 8, true) },
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
