// Two lane runs side by side — only after the native column is checked stable between them
// (DESIGN.md: a speedup never leaves its run). When it moved, the panel says where and by how
// much, and shows no side-by-side speedups.
import { For, Match, Switch } from 'solid-js';
import { compareLanes, type NativeCheck } from '../../../core/report/compare';
import { fmtRatio, fmtUs } from '../../../core/report/format';
import type { LaneJson } from '../../../core/report/json';
import { speedupText } from '../../../core/report/lane-text';

function change(x: number | null): string {
  return x === null ? '—' : `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
}

function NativeChecks(props: { checks: readonly NativeCheck[] }) {
  return (
    <table class="data">
      <thead>
        <tr>
          <th>op shape</th>
          <th class="num">native µs (older)</th>
          <th class="num">native µs (newer)</th>
          <th class="num">change</th>
          <th>stable</th>
        </tr>
      </thead>
      <tbody>
        <For each={props.checks}>
          {(c) => (
            <tr>
              <td class="mono">{c.key}</td>
              <td class="num">{fmtUs(c.nativeANs)}</td>
              <td class="num">{fmtUs(c.nativeBNs)}</td>
              <td class="num">{change(c.change)}</td>
              <td classList={{ bad: !c.stable }}>{c.stable ? 'yes' : 'NO'}</td>
            </tr>
          )}
        </For>
      </tbody>
    </table>
  );
}

export function ComparePanel(props: { older: { id: number; savedAt: string; result: LaneJson }; newer: { id: number; savedAt: string; result: LaneJson } }) {
  const cmp = () => compareLanes(props.older.result, props.newer.result);
  const compared = () => {
    const c = cmp();
    return c.comparable ? c : undefined;
  };
  const refused = () => {
    const c = cmp();
    return c.comparable ? undefined : c;
  };
  return (
    <section class="panel" data-testid="compare-panel">
      <h2>
        Compare run #{props.older.id} ({props.older.savedAt.slice(0, 16)}) with run #{props.newer.id} ({props.newer.savedAt.slice(0, 16)})
      </h2>
      <Switch>
        <Match when={compared()}>
          {(c) => (
            <>
              <p class="note" data-testid="compare-status">
                Native column stable: every shared shape's native median moved by at most {(c().tolerance * 100).toFixed(0)}% — the runs' speedups may stand side by side.
              </p>
              <table class="data">
                <thead>
                  <tr>
                    <th>op shape</th>
                    <th class="num">older speedup [min–max]</th>
                    <th>older verdict</th>
                    <th class="num">newer speedup [min–max]</th>
                    <th>newer verdict</th>
                    <th class="num">Δ median</th>
                    <th class="num">native change</th>
                  </tr>
                </thead>
                <tbody>
                  <For each={c().rows}>
                    {(row) => (
                      <tr data-testid="compare-row">
                        <td class="mono">{row.key}</td>
                        <td class="num">{speedupText(row.a)}</td>
                        <td>{row.a.verdict}</td>
                        <td class="num">{speedupText(row.b)}</td>
                        <td>{row.b.verdict}</td>
                        <td class="num">{row.a.speedupMedian !== null && row.b.speedupMedian !== null ? fmtRatio(row.b.speedupMedian - row.a.speedupMedian) : '—'}</td>
                        <td class="num">{change(row.native.change)}</td>
                      </tr>
                    )}
                  </For>
                </tbody>
              </table>
              <p class="note">
                {c().onlyInA.length ? `Only in the older run: ${c().onlyInA.join(', ')}. ` : ''}
                {c().onlyInB.length ? `Only in the newer run: ${c().onlyInB.join(', ')}.` : ''}
              </p>
            </>
          )}
        </Match>
        <Match when={refused()}>
          {(c) => (
            <>
              <p class="bad" role="alert" data-testid="compare-status">
                Not compared: {c().reason}.
              </p>
              <NativeChecks checks={c().checks} />
            </>
          )}
        </Match>
      </Switch>
    </section>
  );
}
