// A lane run: green or failed, with what ran (settings, adapter), what was skipped and why, and
// each pair's panel. It renders the result JSON (laneJson), so a fresh run, a stored run and a
// shared link look the same.
import { For, Show } from 'solid-js';
import { adapterName } from '../../../core/adapter';
import type { LaneJson } from '../../../core/report/json';
import { LanePairPanel } from './LanePairPanel';
import { SoftwareNote } from '../../components/SoftwareNote';

export function LaneResultView(props: { result: LaneJson }) {
  const r = () => props.result;
  const s = () => r().settings;
  return (
    <div class="lane-result" data-testid="lane-result">
      <section class="panel">
        <h2>
          Lane
          <span class={`verdict-badge tone-${r().green ? 'good' : 'bad'}`} data-testid="lane-green">
            {r().green ? 'GREEN' : 'FAILED'}
          </span>
          <span class="muted">in {(r().durationMs / 1000).toFixed(1)} s</span>
        </h2>
        <p class="note mono">
          {adapterName(r().adapter)} · repeat {s().repeat} · tolerance {s().tolerance} · seed {s().seed}
          {s().prefer.length ? ` · prefer ${s().prefer.join(', ')}` : ''}
          {s().control ? ` · control ${s().control}` : ''}
          {s().undeclare.length ? ` · undeclared ${s().undeclare.join(', ')}` : ''} · started {r().startedAt}
        </p>
        <SoftwareNote adapter={r().adapter} />
        <Show when={r().skipped.length}>
          <ul class="skipped" data-testid="lane-skipped">
            <For each={r().skipped}>
              {(sk) => (
                <li>
                  skipped <span class="mono">{sk.op}</span>: {sk.reason}
                </li>
              )}
            </For>
          </ul>
        </Show>
      </section>
      <For each={r().pairs}>{(p) => <LanePairPanel pair={p} tolerance={s().tolerance} />}</For>
    </div>
  );
}
