// The stored runs of one adapter, newest first: what ran, its verdict and headline number, which
// code made it (stale when not this build's), and per run: select for comparing, open, delete.
import { For, Show } from 'solid-js';
import { CODE_HASH } from '../../../core/report/json';
import type { RunRecord } from '../../../storage/db';
import { runSummary } from '../../../storage/history';
import { isStale } from '../../../storage/runs';

export interface RunsTableProps {
  readonly runs: readonly RunRecord[];
  readonly selected: readonly number[];
  readonly openId: number | null;
  readonly onToggle: (id: number) => void;
  readonly onOpen: (id: number) => void;
  readonly onDelete: (id: number) => void;
}

function when(iso: string): string {
  return iso.replace('T', ' ').slice(0, 19);
}

export function RunsTable(props: RunsTableProps) {
  return (
    <table class="data runs" data-testid="history-runs">
      <thead>
        <tr>
          <th title="Select two lane runs to compare">cmp</th>
          <th>saved</th>
          <th>run</th>
          <th>verdict</th>
          <th>result</th>
          <th>code</th>
          <th />
        </tr>
      </thead>
      <tbody>
        <For each={props.runs}>
          {(r) => {
            const s = runSummary(r);
            const id = r.id!;
            const stale = isStale(r);
            return (
              <tr data-testid="history-row" data-run-id={id} classList={{ stale, open: props.openId === id }}>
                <td>
                  <input type="checkbox" aria-label={`select run ${id} to compare`} checked={props.selected.includes(id)} onChange={() => props.onToggle(id)} data-testid="history-select" />
                </td>
                <td class="mono nowrap">{when(r.savedAt)}</td>
                <td class="mono" data-testid="history-what">
                  {s.what}
                </td>
                <td classList={{ good: s.tone === 'good', bad: s.tone === 'bad' }} data-testid="history-verdict">
                  {s.verdict}
                </td>
                <td class="mono" data-testid="history-headline">
                  {s.headline}
                </td>
                <td class="mono nowrap">
                  {r.labVersion}
                  <Show when={stale}>
                    {' '}
                    <span class="badge badge-stale" data-testid="stale-badge" title={`made by code ${r.codeHash}; this build is ${CODE_HASH}: kernels, ops or codegen changed since`}>
                      stale
                    </span>
                  </Show>
                </td>
                <td class="nowrap">
                  <button type="button" class="small" data-testid="history-open" onClick={() => props.onOpen(id)}>
                    Open
                  </button>{' '}
                  <button type="button" class="small" data-testid="history-delete" onClick={() => props.onDelete(id)}>
                    Delete
                  </button>
                </td>
              </tr>
            );
          }}
        </For>
      </tbody>
    </table>
  );
}
