// One stored run opened from History: its result as the page showed it, with Share link and
// Copy for PR; or, for a failed run, the error and what was asked.
import { Show } from 'solid-js';
import type { RunRecord } from '../../../storage/db';
import { isStale } from '../../../storage/runs';
import { ErrorBox } from '../../components/ErrorBox';
import { ResultWithActions } from '../report/ResultReport';

export function RunDetail(props: { run: RunRecord; onClose: () => void }) {
  return (
    <section class="run-detail" data-testid="history-report">
      <div class="run-detail-head">
        <strong>
          Run #{props.run.id} · {props.run.kind} · saved {props.run.savedAt}
        </strong>
        <span class="muted mono">
          {' '}
          kernel-lab {props.run.labVersion}, code {props.run.codeHash}
        </span>
        <Show when={isStale(props.run)}>
          <span class="badge badge-stale">stale: made by other code than this build</span>
        </Show>
        <button type="button" class="small" onClick={() => props.onClose()}>
          Close
        </button>
      </div>
      <Show
        when={props.run.result}
        fallback={
          <>
            <ErrorBox title={`This ${props.run.kind} run failed`} error={props.run.error ?? { name: 'Error', message: 'no error recorded' }} />
            <Show when={props.run.request}>
              <p class="note">What was asked:</p>
              <pre class="request mono">{JSON.stringify(props.run.request, null, 2)}</pre>
            </Show>
          </>
        }
      >
        {(r) => <ResultWithActions result={r()} />}
      </Show>
    </section>
  );
}
