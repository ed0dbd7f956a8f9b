// A sweep run: what was searched, the reference each candidate is measured against, the ranked
// candidates, the scatter, and last the proposal. It renders the result JSON (sweepJson, the
// result itself, stamped), so a fresh run, a stored run and a shared link look the same.
import { For, Show } from 'solid-js';
import { adapterName } from '../../../core/adapter';
import { fmtUs } from '../../../core/report/format';
import type { SweepRecord } from '../../../core/schema/results';
import { ScheduleKey } from '../../components/ScheduleKey';
import { ProposalBlock } from './ProposalBlock';
import { SweepScatterPanel } from './SweepScatterPanel';
import { SweepTable } from './SweepTable';
import { SoftwareNote } from '../../components/SoftwareNote';

export function SweepResultView(props: { result: SweepRecord }) {
  const r = () => props.result;
  const accepted = () => r().candidates.filter((c) => c.status === 'accepted').length;
  return (
    <div class="sweep-result" data-testid="sweep-result">
      <section class="panel">
        <h2>
          Sweep {r().op}
          <span class="muted">
            {r().candidates.length} candidates over {r().shapes.length} shape{r().shapes.length === 1 ? '' : 's'} · {accepted()} accepted · {(r().durationMs / 1000).toFixed(1)} s
          </span>
        </h2>
        <p class="note mono">
          {adapterName(r().adapter)} · reps {r().settings.reps} · seed {r().settings.seed} · space {JSON.stringify(r().settings.space)}
        </p>
        <SoftwareNote adapter={r().adapter} />
        <Show when={r().excludedShapes.length}>
          <ul class="skipped">
            <For each={r().excludedShapes}>
              {(x) => (
                <li>
                  shape <span class="mono">{x.shape}</span> excluded: {x.reason}
                </li>
              )}
            </For>
          </ul>
        </Show>
        <h3>Reference: the variant a candidate would replace</h3>
        <table class="data" data-testid="sweep-reference">
          <thead>
            <tr>
              <th>shape</th>
              <th>variant</th>
              <th class="num">median µs</th>
              <th class="num">spread</th>
            </tr>
          </thead>
          <tbody>
            <For each={r().reference}>
              {(x) => (
                <tr>
                  <td class="mono">{x.shape}</td>
                  <td class="mono key-cell">
                    <ScheduleKey value={x.variant} />
                  </td>
                  <td class="num">{fmtUs(x.medianNs, 2)}</td>
                  <td class="num">{(x.spread * 100).toFixed(1)}%</td>
                </tr>
              )}
            </For>
          </tbody>
        </table>
      </section>
      <SweepTable result={r()} />
      <SweepScatterPanel result={r()} />
      <ProposalBlock result={r()} />
    </div>
  );
}
