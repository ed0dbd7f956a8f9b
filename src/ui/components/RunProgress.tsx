// What is running, for how long, and (when the worker can estimate it) how long is left: the
// worker reports progress coarsely, so the elapsed time ticking is what shows the page is alive.
import { createSignal, onCleanup, Show } from 'solid-js';
import type { Progress } from '../../worker/api';

export interface RunProgressProps {
  readonly progress: Progress | null;
  readonly startedAtMs: number;
  /** Cancel: stops the run between two GPU batches (nothing of it is stored). */
  readonly onCancel?: () => void;
  readonly cancelling?: boolean;
}

export function RunProgress(props: RunProgressProps) {
  const [nowMs, setNowMs] = createSignal(performance.now());
  const timer = setInterval(() => setNowMs(performance.now()), 100);
  onCleanup(() => clearInterval(timer));
  const fraction = () => props.progress?.fraction ?? 0;
  const elapsedS = () => ((nowMs() - props.startedAtMs) / 1000).toFixed(1);
  const leftText = () => {
    const eta = props.progress?.etaMs;
    if (eta === null || eta === undefined || !(fraction() > 0 && fraction() < 1)) return null;
    return eta < 60_000 ? `~${Math.ceil(eta / 1000)} s left` : `~${Math.ceil(eta / 60_000)} min left`;
  };
  return (
    <div class="run-progress" data-testid="run-progress" role="status">
      {/* Indeterminate until the worker reports a fraction between 0 and 1. */}
      <Show when={fraction() > 0 && fraction() < 1} fallback={<progress />}>
        <progress max={1} value={fraction()} />
      </Show>
      <span class="mono">{props.progress?.label ?? 'starting'}</span>
      <span class="muted mono">{elapsedS()} s</span>
      <Show when={leftText()}>{(t) => <span class="muted mono" data-testid="run-eta">{t()}</span>}</Show>
      <Show when={props.onCancel}>
        {(cancel) => (
          <button type="button" data-testid="cancel-button" disabled={props.cancelling} onClick={() => cancel()()}>
            {props.cancelling ? 'Cancelling…' : 'Cancel'}
          </button>
        )}
      </Show>
    </div>
  );
}

/** Said after a cancelled run, where its result would have been. */
export function CancelledNote(props: { when: boolean }) {
  return (
    <Show when={props.when}>
      <p class="note" data-testid="run-cancelled">
        Cancelled: the run stopped between two GPU batches; nothing of it was stored.
      </p>
    </Show>
  );
}
