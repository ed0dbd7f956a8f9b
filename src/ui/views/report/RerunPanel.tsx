// "Run this on my GPU": a shared result's run repeated on this page's adapter, and both results
// side by side, each labelled with the adapter it ran on. A time or a speedup never leaves its
// adapter (DESIGN.md), so there is no ratio, no winner and no verdict across the two columns.
// The run here is shown, not stored: opening a link stores nothing.
import { For, Match, Show, Switch } from 'solid-js';
import { adapterName } from '../../../core/adapter';
import { fmtGBps, fmtGflops, fmtNs, fmtRatio } from '../../../core/report/format';
import { laneJson, type LaneJson, level1Json, type Level1Json, resultAdapter, type ResultJson } from '../../../core/report/json';
import { rerunRequest } from '../../../core/report/run-query';
import type { Level1Request } from '../../../core/requests';
import type { LaneRequest } from '../../../core/results';
import { ErrorBox } from '../../components/ErrorBox';
import { CancelledNote, RunProgress } from '../../components/RunProgress';
import { lab } from '../../lab-client';
import { createRunAction } from '../../run-action';

type Rerun = NonNullable<ReturnType<typeof rerunRequest>>;

async function runHere(rr: Rerun, onProgress: Parameters<typeof lab.time>[1], runId: string): Promise<Level1Json | LaneJson> {
  if (rr.kind === 'level1') return level1Json(await lab.time(rr.request as Level1Request, onProgress, runId));
  return laneJson(await lab.lane(rr.request as LaneRequest, onProgress, runId));
}

function level1Rows(r: Level1Json): [string, string][] {
  return [
    ['kernel', r.variant === 'generated' ? `generated ${r.scheduleKey ?? ''}` : 'native'],
    ['correct', r.correct ? 'yes' : 'NO'],
    ['median', fmtNs(r.timing?.medianNs)],
    ['min', fmtNs(r.timing?.minNs)],
    ['runs', r.timing ? String(r.timing.runs) : '—'],
    ['bandwidth', fmtGBps(r.metrics?.gbps)],
    ['compute', r.metrics?.gflops === null || r.metrics?.gflops === undefined ? '—' : fmtGflops(r.metrics.gflops)],
  ];
}

function laneSpeedups(r: LaneJson): Map<string, number | null> {
  return new Map(r.pairs.flatMap((p) => p.shapes.map((s) => [`${p.op} ${s.shape}`, s.speedupMedian] as const)));
}

export function RerunPanel(props: { result: ResultJson }) {
  // A formats run is not rerun here (yet): its link opens read-only.
  const rerun = () => (props.result.kind === 'formats' ? null : rerunRequest(props.result));
  const action = createRunAction<Rerun, Level1Json | LaneJson>((rr, onProgress, runId) => runHere(rr, onProgress, runId));
  const here = () => action.result();
  const sharedName = () => adapterName(resultAdapter(props.result));
  const hereName = () => {
    const h = here();
    return h ? adapterName(h.adapter) : '';
  };
  return (
    <Show when={rerun()}>
      {(rr) => (
        <section class="panel" data-testid="rerun">
          <h2>Run this on my GPU</h2>
          <p class="note">
            Repeats the same {rr().kind === 'level1' ? 'kernel on the same case' : 'lane (same pairs, shapes, repeat and tolerance)'} on this page's adapter and shows both results side by side. Each number stands on the
            adapter it was measured on: the lab draws no verdict across adapters. Nothing is stored.
          </p>
          <div class="actions flush">
            <button type="button" class="primary" data-testid="rerun-button" disabled={action.running()} onClick={() => void action.run(rr())}>
              {action.running() ? 'Running…' : here() ? 'Run again here' : 'Run this on my GPU'}
            </button>
            <Show when={action.running()}>
              <RunProgress progress={action.progress()} startedAtMs={action.startedAtMs()} onCancel={() => void action.cancel()} cancelling={action.cancelling()} />
            </Show>
          </div>
          <CancelledNote when={action.cancelled()} />
          <Show when={action.error()}>{(e) => <ErrorBox title="The run here failed" error={e()} />}</Show>
          <Show when={here()}>
            {(h) => (
              <Switch>
                <Match when={h().kind === 'level1' && props.result.kind === 'level1'}>
                  <table class="data" data-testid="side-by-side">
                    <thead>
                      <tr>
                        <th />
                        <th data-testid="side-shared">shared · {sharedName()}</th>
                        <th data-testid="side-here">this GPU · {hereName()}</th>
                      </tr>
                    </thead>
                    <tbody>
                      <For each={level1Rows(props.result as Level1Json)}>
                        {([k, v], i) => (
                          <tr>
                            <th>{k}</th>
                            <td class="mono">{v}</td>
                            <td class="mono">{level1Rows(h() as Level1Json)[i()][1]}</td>
                          </tr>
                        )}
                      </For>
                    </tbody>
                  </table>
                </Match>
                <Match when={h().kind === 'lane' && props.result.kind === 'lane'}>
                  <table class="data" data-testid="side-by-side">
                    <thead>
                      <tr>
                        <th>op shape</th>
                        <th class="num" data-testid="side-shared">speedup · shared · {sharedName()}</th>
                        <th class="num" data-testid="side-here">speedup · this GPU · {hereName()}</th>
                      </tr>
                    </thead>
                    <tbody>
                      <For each={[...laneSpeedups(props.result as LaneJson)]}>
                        {([key, s]) => (
                          <tr>
                            <td class="mono">{key}</td>
                            <td class="num">{fmtRatio(s)}</td>
                            <td class="num">{fmtRatio(laneSpeedups(h() as LaneJson).get(key))}</td>
                          </tr>
                        )}
                      </For>
                    </tbody>
                  </table>
                </Match>
              </Switch>
            )}
          </Show>
        </section>
      )}
    </Show>
  );
}
