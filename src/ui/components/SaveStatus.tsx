// Whether the last run was stored: a quiet line with a way to History, or — when the browser
// refused (storage full) — a clear message that says nothing stored before was lost.
import { Show } from 'solid-js';
import { hrefFor } from '../router';
import type { SaveOutcome } from '../run-store';
import { ErrorBox } from './ErrorBox';

export function SaveStatus(props: { outcome: SaveOutcome | null }) {
  return (
    <Show when={props.outcome} keyed>
      {(out) =>
        out.saved ? (
          <p class="note" data-testid="save-status">
            Saved to <a href={hrefFor('history')}>History</a> (run #{out.id}).
          </p>
        ) : (
          <ErrorBox title="This run was not saved" error={out.error} testid="save-error" />
        )
      }
    </Show>
  );
}
