// The sweep: every valid candidate of an op's schedule space, checked against the oracle and the
// variant it would replace, then timed; refusals with their reasons; a proposal to review.
import { Show } from 'solid-js';
import { ErrorBox } from '../components/ErrorBox';
import { ResultActions } from '../components/ResultActions';
import { RunProgress } from '../components/RunProgress';
import { SaveStatus } from '../components/SaveStatus';
import { SweepOptions } from './sweep/SweepOptions';
import { SweepResultView } from './sweep/SweepResultView';
import { sweepState } from './sweep/sweep-state';
import type { ViewProps } from './view-props';

export function SweepView(props: ViewProps) {
  const { form, action } = sweepState(() => props.adapter);
  const blocked = () => {
    const r = form.request();
    return 'error' in r ? r.error : null;
  };
  const run = () => {
    const r = form.request();
    if ('ok' in r) void action.run(r.ok);
  };
  return (
    <div class="sweep-view" data-testid="sweep-view">
      <form
        class="panel form wide-labels"
        onSubmit={(e) => {
          e.preventDefault();
          run();
        }}
      >
        <h2>Sweep: search an op's schedule space (writes nothing)</h2>
        <SweepOptions form={form} />
        <div class="actions">
          <button type="submit" class="primary" data-testid="sweep-run" disabled={action.running() || blocked() !== null} title={blocked() ?? 'Run the sweep'}>
            {action.running() ? 'Running…' : 'Run sweep'}
          </button>
          <Show when={action.running()}>
            <RunProgress progress={action.progress()} startedAtMs={action.startedAtMs()} />
          </Show>
          <Show when={!action.running() && blocked()}>{(msg) => <span class="inline-error" data-testid="sweep-blocked">{msg()}</span>}</Show>
        </div>
      </form>
      <Show when={action.error()}>{(e) => <ErrorBox title="The sweep could not run" error={e()} />}</Show>
      <Show when={action.json()}>
        {(r) => (
          <>
            <SweepResultView result={r()} />
            <ResultActions result={r()} />
          </>
        )}
      </Show>
      <SaveStatus outcome={action.saved()} />
    </div>
  );
}
