// Level 1: pick an op, a shape and a kernel; check it against the oracle, then time it. All GPU
// work runs in the worker, so the page stays responsive while it does.
import { Show } from 'solid-js';
import { kernelState } from './kernel/kernel-actions';
import { OpPicker } from './kernel/OpPicker';
import { ResultPanel } from './kernel/ResultPanel';
import { ShapePicker } from './kernel/ShapePicker';
import { VariantPicker } from './kernel/VariantPicker';
import { WgslBlock } from './kernel/WgslBlock';
import { ErrorBox } from '../components/ErrorBox';
import { ResultActions } from '../components/ResultActions';
import { SaveStatus } from '../components/SaveStatus';
import { CancelledNote, RunProgress } from '../components/RunProgress';
import type { ViewProps } from './view-props';
import { errorOf } from '../errors';

export function KernelView(props: ViewProps) {
  // Kept outside the view: the form and a run in flight survive switching tabs.
  const { form, actions, queryError } = kernelState(() => props.adapter);
  const blocked = () => errorOf(form.request());
  return (
    <div class="kernel-view" data-testid="kernel-view">
      {/* A form, so Enter in the shape field runs. */}
      <form
        class="panel form"
        onSubmit={(e) => {
          e.preventDefault();
          void actions.run();
        }}
      >
        <h2>Level 1: one kernel, checked then timed</h2>
        <Show when={queryError}>{(msg) => <p class="inline-error" data-testid="query-error">The link's run cannot be read: {msg()}</p>}</Show>
        <OpPicker form={form} />
        <ShapePicker form={form} />
        <VariantPicker form={form} />
        <div class="actions">
          <button type="submit" class="primary" data-testid="run-button" disabled={actions.running() || blocked() !== null} title={blocked() ?? 'Check against the oracle, then time'}>
            {actions.running() ? 'Running…' : 'Run'}
          </button>
          <button type="button" data-testid="wgsl-button" disabled={blocked() !== null} onClick={() => actions.setShowWgsl(!actions.showWgsl())}>
            {actions.showWgsl() ? 'Hide WGSL' : 'Show WGSL'}
          </button>
          <Show when={actions.running()}>
            <RunProgress progress={actions.progress()} startedAtMs={actions.startedAtMs()} onCancel={() => void actions.cancel()} cancelling={actions.cancelling()} />
          </Show>
          <Show when={!actions.running() && blocked()}>{(msg) => <span class="inline-error" data-testid="kernel-blocked">{msg()}</span>}</Show>
        </div>
      </form>
      <CancelledNote when={actions.cancelled()} />
      <Show when={actions.error()}>{(e) => <ErrorBox error={e()} />}</Show>
      <Show when={actions.resultJson()}>
        {(r) => (
          <>
            <ResultPanel result={r()} />
            <ResultActions result={r()} />
          </>
        )}
      </Show>
      <SaveStatus outcome={actions.saved()} />
      <Show when={actions.showWgsl() && actions.previewError()}>{(e) => <ErrorBox title="Show WGSL" error={e()} testid="preview-error" />}</Show>
      <Show when={actions.showWgsl() && actions.preview()}>
        {(p) => (
          <section class="panel">
            <h2>
              WGSL · {p().label} · {p().variant}
              <Show when={p().scheduleKey}>{(k) => <code class="key">{k()}</code>}</Show>
            </h2>
            <p class="note">
              dispatch {p().dispatch.join(' × ')} workgroups
              <Show when={p().fallback}>{(fb) => ` · auto fell back to native: ${fb().code} — ${fb().reason}`}</Show>
            </p>
            <WgslBlock wgsl={p().wgsl} markedLines={actions.markedLines()} />
          </section>
        )}
      </Show>
    </div>
  );
}
