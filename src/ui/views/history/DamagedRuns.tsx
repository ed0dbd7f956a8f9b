// Stored records History cannot show (imported before the checks were strict, written by another
// lab, damaged): each with what is wrong, and a way to delete it, so a bad record never blocks
// the page.
import { For } from 'solid-js';
import type { DamagedRun } from '../../../storage/stored-runs';

export function DamagedRuns(props: { runs: readonly DamagedRun[]; onDelete: (ids: number[]) => void }) {
  return (
    <section class="panel" data-testid="history-damaged">
      <h2>
        {props.runs.length} stored run{props.runs.length === 1 ? '' : 's'} cannot be shown{' '}
        <button type="button" data-testid="delete-damaged" onClick={() => props.onDelete(props.runs.filter((r) => r.id >= 0).map((r) => r.id))}>
          Delete {props.runs.length === 1 ? 'it' : 'them all'}
        </button>
      </h2>
      <p class="note">These records fail the checks every shared or imported result passes; they are left out of the charts and the table. Export keeps nothing of them.</p>
      <table class="data">
        <thead>
          <tr>
            <th>run</th>
            <th>kind</th>
            <th>saved</th>
            <th>what is wrong</th>
            <th />
          </tr>
        </thead>
        <tbody>
          <For each={props.runs}>
            {(r) => (
              <tr data-testid="damaged-row" data-run-id={r.id}>
                <td class="mono">#{r.id}</td>
                <td class="mono">{r.kind}</td>
                <td class="mono">{r.savedAt || '—'}</td>
                <td data-testid="damaged-problem">{r.problem}</td>
                <td>
                  <button type="button" disabled={r.id < 0} onClick={() => props.onDelete([r.id])}>
                    Delete
                  </button>
                </td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
    </section>
  );
}
