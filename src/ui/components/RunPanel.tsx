// The frame every long run shares (Lane, Sweep, Formats): its options form, the Run button (blocked with
// the form's reason), progress with time left, the error or the result with its share and PR
// actions, and whether it was stored.
import { Show, type Component, type JSX } from 'solid-js';
import type { ViewProps } from '../views/view-props';
import type { ResultJson } from '../../core/report/json';
import type { Progress } from '../../worker/api';
import { errorOf, type ErrorInfo } from '../errors';
import type { SaveOutcome } from '../run-store';
import { ErrorBox } from './ErrorBox';
import { ResultActions } from './ResultActions';
import { CancelledNote, RunProgress } from './RunProgress';
import { SaveStatus } from './SaveStatus';

export interface RunPanelProps<Req, J extends ResultJson> {
  /** Test-id prefix: `${name}-run`, `${name}-blocked`. */
  readonly name: string;
  readonly title: string;
  readonly runLabel: string;
  readonly errorTitle: string;
  readonly form: { request(): { ok: Req } | { error: string } };
  readonly action: {
    running(): boolean;
    progress(): Progress | null;
    startedAtMs(): number;
    error(): ErrorInfo | null;
    json(): J | null;
    saved(): SaveOutcome | null;
    cancelled(): boolean;
    cancelling(): boolean;
    run(req: Req): Promise<void>;
    cancel(): Promise<void>;
  };
  readonly options: JSX.Element;
  readonly result: (json: J) => JSX.Element;
}

export function RunPanel<Req, J extends ResultJson>(props: RunPanelProps<Req, J>) {
  const blocked = () => errorOf(props.form.request());
  const run = () => {
    const r = props.form.request();
    if ('ok' in r) void props.action.run(r.ok);
  };
  return (
    <>
      <form
        class="panel form wide-labels"
        onSubmit={(e) => {
          e.preventDefault();
          run();
        }}
      >
        <h2>{props.title}</h2>
        {props.options}
        <div class="actions">
          <button type="submit" class="primary" data-testid={`${props.name}-run`} disabled={props.action.running() || blocked() !== null} title={blocked() ?? props.runLabel}>
            {props.action.running() ? 'Running…' : props.runLabel}
          </button>
          <Show when={props.action.running()}>
            <RunProgress progress={props.action.progress()} startedAtMs={props.action.startedAtMs()} onCancel={() => void props.action.cancel()} cancelling={props.action.cancelling()} />
          </Show>
          <Show when={!props.action.running() && blocked()}>{(msg) => <span class="inline-error" data-testid={`${props.name}-blocked`}>{msg()}</span>}</Show>
        </div>
      </form>
      <CancelledNote when={props.action.cancelled()} />
      <Show when={props.action.error()}>{(e) => <ErrorBox title={props.errorTitle} error={e()} />}</Show>
      <Show when={props.action.json()}>
        {(r) => (
          <>
            {props.result(r())}
            <ResultActions result={r()} />
          </>
        )}
      </Show>
      <SaveStatus outcome={props.action.saved()} />
    </>
  );
}

/** What a tab made of one RunPanel needs: its words, its session state (form and run), how to show options and a result. */
export interface RunTabSpec<Req, J extends ResultJson, F extends RunPanelProps<Req, J>['form']> extends Pick<RunPanelProps<Req, J>, 'name' | 'title' | 'runLabel' | 'errorTitle'> {
  readonly state: (adapter: () => ViewProps['adapter']) => { form: F; action: RunPanelProps<Req, J>['action'] };
  readonly options: (form: F) => JSX.Element;
  readonly result: (json: J) => JSX.Element;
}

/** A tab's view that is one long run (Lane, Sweep, Formats): `${name}-view`, its state kept for the page session. */
export function runTab<Req, J extends ResultJson, F extends RunPanelProps<Req, J>['form']>(spec: RunTabSpec<Req, J, F>): Component<ViewProps> {
  return (props) => {
    const { form, action } = spec.state(() => props.adapter);
    return (
      <div class={`${spec.name}-view`} data-testid={`${spec.name}-view`}>
        <RunPanel name={spec.name} title={spec.title} runLabel={spec.runLabel} errorTitle={spec.errorTitle} form={form} action={action} options={spec.options(form)} result={spec.result} />
      </div>
    );
  };
}
