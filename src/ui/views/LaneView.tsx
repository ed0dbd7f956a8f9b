// The promotion lane: native vs generated over each pair's shape matrix on this adapter, with
// the verdict per shape, the counters, the promotion checklist and a speedup chart per pair.
import { Show } from 'solid-js';
import { ErrorBox } from '../components/ErrorBox';
import { ResultActions } from '../components/ResultActions';
import { RunProgress } from '../components/RunProgress';
import { SaveStatus } from '../components/SaveStatus';
import { LaneOptions } from './lane/LaneOptions';
import { LaneResultView } from './lane/LaneResultView';
import { laneState } from './lane/lane-state';
import type { ViewProps } from './view-props';

export function LaneView(props: ViewProps) {
  const { form, action } = laneState(() => props.adapter);
  const blocked = () => {
    const r = form.request();
    return 'error' in r ? r.error : null;
  };
  const run = () => {
    const r = form.request();
    if ('ok' in r) void action.run(r.ok);
  };
  return (
    <div class="lane-view" data-testid="lane-view">
      <form
        class="panel form wide-labels"
        onSubmit={(e) => {
          e.preventDefault();
          run();
        }}
      >
        <h2>Lane: native vs generated, shape by shape</h2>
        <LaneOptions form={form} />
        <div class="actions">
          <button type="submit" class="primary" data-testid="lane-run" disabled={action.running() || blocked() !== null} title={blocked() ?? 'Run the lane'}>
            {action.running() ? 'Running…' : 'Run lane'}
          </button>
          <Show when={action.running()}>
            <RunProgress progress={action.progress()} startedAtMs={action.startedAtMs()} />
          </Show>
          <Show when={!action.running() && blocked()}>{(msg) => <span class="inline-error" data-testid="lane-blocked">{msg()}</span>}</Show>
        </div>
      </form>
      <Show when={action.error()}>{(e) => <ErrorBox title="The lane could not run" error={e()} />}</Show>
      <Show when={action.json()}>
        {(r) => (
          <>
            <LaneResultView result={r()} />
            <ResultActions result={r()} />
          </>
        )}
      </Show>
      <SaveStatus outcome={action.saved()} />
    </div>
  );
}
