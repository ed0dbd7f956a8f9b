// The metric columns' header and body cells, and the toggle between compact and detailed.
import { For } from 'solid-js';
import type { Metrics } from '../../core/metrics/roofline';
import type { MetricColumn } from './metric-columns';

export function MetricHeaders(props: { columns: readonly MetricColumn[]; prefix?: string }) {
  return (
    <For each={props.columns}>
      {(c) => (
        <th class={c.numeric ? 'num' : undefined} title={c.doc}>
          {props.prefix ? `${props.prefix} ${c.header}` : c.header}
        </th>
      )}
    </For>
  );
}

/** One cell per column; every cell reads — when the kernel was not timed. */
export function MetricCells(props: { columns: readonly MetricColumn[]; metrics: Metrics | null }) {
  return (
    <For each={props.columns}>
      {(c) => (
        <td class={c.numeric ? 'num' : 'mono'} data-metric={c.id}>
          {props.metrics ? c.cell(props.metrics) : '—'}
        </td>
      )}
    </For>
  );
}

export function MetricsToggle(props: { detail: boolean; onChange: (detail: boolean) => void; testid?: string }) {
  return (
    <label class="toggle" title="Show every metric: latencies, GB/s, GFLOP/s, AI, %BW, %FLOP, the source of the peaks">
      <input type="checkbox" data-testid={props.testid ?? 'metrics-details'} checked={props.detail} onChange={(e) => props.onChange(e.currentTarget.checked)} />
      metric details
    </label>
  );
}
