// A formats run: the CLI's table (one row per format, fastest first; a format that could not run
// is a row with its reason) and the accuracy/speed frontier. It renders the result JSON (the
// CLI's --json shape), so a fresh run, a stored run and a shared link look the same.
import { createMemo, createSignal, For, Show } from 'solid-js';
import { formatsFrontier, type FrontierAxis } from '../../../core/report/formats-frontier';
import { formatCells, FORMATS_HEADERS } from '../../../core/report/formats';
import type { FormatsJson } from '../../../core/report/json';
import { FRONTIER_X_LABEL, frontierChart } from '../../charts/formats-frontier-chart';
import { UPlot } from '../../charts/UPlot';
import { Select } from '../../components/Select';
import { SoftwareNote } from '../../components/SoftwareNote';

/** Columns that hold numbers (right-aligned): all but the format, bottleneck and kernel/reason. */
const NUMERIC = new Set([1, 2, 3, 4, 5, 6, 8, 9]);

export function FormatsResultView(props: { result: FormatsJson }) {
  const r = () => props.result;
  const timed = () => r().rows.filter((x) => x.medianNs !== null).length;
  return (
    <div class="formats-result" data-testid="formats-result">
      <section class="panel">
        <h2>
          Formats: {r().op} <span class="muted">
            {r().ggmlOp} {r().shape} · {r().rows.length} formats · {timed()} timed
          </span>
        </h2>
        <p class="note mono">{r().adapter} · started {r().startedAt}</p>
        <SoftwareNote adapter={r().adapterDescriptor} />
        <p class="note">Weights: {r().distribution}. NMSE = Σ(w − q)² / Σw² (ggml's test-backend-ops); max rel over |w| ≥ 1% of the largest. Fastest first.</p>
        <div class="table-scroll">
          <table class="data" data-testid="formats-table">
            <thead>
              <tr>
                <For each={FORMATS_HEADERS}>{(h, i) => <th classList={{ num: NUMERIC.has(i()) }}>{h}</th>}</For>
              </tr>
            </thead>
            <tbody>
              <For each={r().rows}>
                {(row) => (
                  <tr data-testid="formats-row" data-format={row.format} classList={{ refused: row.medianNs === null, wrong: row.correct === false }}>
                    <For each={formatCells(row)}>{(cell, i) => <td classList={{ num: NUMERIC.has(i()), mono: i() < 10, 'reason-cell': i() === 10 }}>{cell}</td>}</For>
                  </tr>
                )}
              </For>
            </tbody>
          </table>
        </div>
      </section>
      <FrontierPanel result={r()} />
    </div>
  );
}

const AXES = [
  { value: 'time', label: 'median µs' },
  { value: 'bandwidth', label: 'weight GB/s' },
] as const;

function FrontierPanel(props: { result: FormatsJson }) {
  const [axis, setAxis] = createSignal<FrontierAxis>('time');
  const frontier = createMemo(() => formatsFrontier(props.result.rows, axis()));
  const chart = createMemo(() => frontierChart(frontier()));
  return (
    <section class="panel" data-testid="formats-frontier-panel">
      <h2>
        Accuracy against speed
        <Select testid="formats-frontier-axis" ariaLabel="x axis" value={axis()} options={AXES} onChange={(v) => setAxis(v as FrontierAxis)} />
      </h2>
      <Show when={frontier().points.length} fallback={<p class="note">No format has both a time and a quantization error to place.</p>}>
        <UPlot options={chart().options} data={chart().data} heightPx={300} testid="formats-frontier" label={`formats of ${props.result.op} ${props.result.shape}: ${FRONTIER_X_LABEL[axis()]} against NMSE`} />
      </Show>
      <p class="note chart-legend" data-testid="formats-frontier-legend">
        <span class="swatch accepted" /> on the frontier (no format is both faster and more accurate): {frontier().front.join(', ') || 'none'} · rings: the rest · log scales
      </p>
      <Show when={frontier().unplaced.length}>
        <ul class="skipped" data-testid="formats-unplaced">
          <For each={frontier().unplaced}>
            {(u) => (
              <li>
                <span class="mono">{u.format}</span> not on the chart: {u.why}
              </li>
            )}
          </For>
        </ul>
      </Show>
    </section>
  );
}
