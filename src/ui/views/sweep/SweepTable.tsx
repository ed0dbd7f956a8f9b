// The sweep's candidates, ranked best first: the status, the key with its reason, then per shape
// the median, its spread, the gain over the reference and the metrics. Refused ones are greyed.
import { createSignal, For, Show } from 'solid-js';
import { fmtUs } from '../../../core/report/format';
import { ScheduleKey } from '../../components/ScheduleKey';
import type { SweepRecord } from '../../../core/schema/results';

type SweepCandidate = SweepRecord['candidates'][number];
import { metricColumns } from '../../metrics/metric-columns';
import { MetricCells, MetricHeaders, MetricsToggle } from '../../metrics/MetricCells';

const pct = (x: number | null, signed = false) => (x === null ? '—' : `${signed && x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`);

export function SweepTable(props: { result: SweepRecord }) {
  const [detail, setDetail] = createSignal(false);
  const [showInvalid, setShowInvalid] = createSignal(false);
  const columns = () => metricColumns(detail());
  const invalidCount = () => props.result.candidates.filter((c) => c.status === 'invalid').length;
  const rows = () => props.result.candidates.filter((c) => showInvalid() || c.status !== 'invalid');
  const cell = (c: SweepCandidate, shape: string) => c.shapes.find((s) => s.shape === shape) ?? null;
  return (
    <section class="panel" data-testid="sweep-ranked">
      <h2>Candidates, ranked</h2>
      <div class="table-head">
        <MetricsToggle detail={detail()} onChange={setDetail} testid="sweep-metrics-details" />
        <Show when={invalidCount()}>
          <label class="toggle">
            <input type="checkbox" data-testid="sweep-show-invalid" checked={showInvalid()} onChange={(e) => setShowInvalid(e.currentTarget.checked)} />
            show the {invalidCount()} invalid on this adapter
          </label>
        </Show>
      </div>
      <div class="table-scroll">
        <table class="data sweep-table" data-testid="sweep-table">
          <thead>
            <tr>
              <th rowSpan={2} class="num">
                #
              </th>
              <th rowSpan={2}>status</th>
              <th rowSpan={2}>candidate · reason</th>
              <For each={props.result.shapes}>
                {(shape) => (
                  <th colSpan={3 + columns().length} class="group mono">
                    {shape}
                  </th>
                )}
              </For>
            </tr>
            <tr>
              <For each={props.result.shapes}>
                {() => (
                  <>
                    <th class="num">median µs</th>
                    <th class="num" title="(max − min) / median over the reps">
                      spread
                    </th>
                    <th class="num" title="the reference's median over this one's, minus 1">
                      gain
                    </th>
                    <MetricHeaders columns={columns()} />
                  </>
                )}
              </For>
            </tr>
          </thead>
          <tbody>
            <For each={rows()}>
              {(c, i) => (
                <tr data-testid="sweep-row" data-status={c.status} classList={{ refused: c.status !== 'accepted', accepted: c.status === 'accepted' }}>
                  <td class="num">{i() + 1}</td>
                  <td class="mono status-cell" data-testid="sweep-status">
                    {c.status}
                  </td>
                  {/* Status and reason lead the row: with several shapes the per-shape columns
                      scroll, and what happened to the candidate stays in view. */}
                  <td class="key-cell">
                    <ScheduleKey value={c.key} />
                    <div class="reason-cell" data-testid="sweep-reason">
                      {c.reason}
                    </div>
                  </td>
                  <For each={props.result.shapes}>
                    {(shape) => {
                      const s = () => cell(c, shape);
                      return (
                        <>
                          <td class="num" title={s()?.outcome ?? undefined}>
                            {s()?.outcome === 'unfit' ? 'unfit' : fmtUs(s()?.medianNs, 2)}
                          </td>
                          <td class="num">{pct(s()?.spread ?? null)}</td>
                          <td class="num" classList={{ good: s()?.outcome === 'win', bad: s()?.outcome === 'lose' }}>
                            {pct(s()?.gain ?? null, true)}
                          </td>
                          <MetricCells columns={columns()} metrics={s()?.metrics ?? null} />
                        </>
                      );
                    }}
                  </For>
                </tr>
              )}
            </For>
          </tbody>
        </table>
      </div>
    </section>
  );
}
