// One long call to the worker (Level 1, lane, sweep, calibrate) as signals: running, progress, the
// last result or error, and Cancel. The panel shows the last run only: an error never sits beside
// an older result. A cancelled run ends with neither (nothing of it is shown or stored).
import { createSignal } from 'solid-js';
import type { Progress, ProgressFn } from '../worker/api';
import { errorInfo, type ErrorInfo } from './errors';
import { lab, progressProxy } from './lab-client';

export interface RunOutcome<Req, Res> {
  readonly request: Req;
  readonly result: Res | null;
  readonly error: ErrorInfo | null;
  /** The user cancelled it: no result, no error to store. */
  readonly cancelled: boolean;
}

export interface RunHooks<Req, Res> {
  /** A run begins: whatever belonged to the last one goes. */
  readonly onStart?: () => void;
  /** A run ended, with its result or its error (or cancelled, with neither). */
  readonly onDone?: (outcome: RunOutcome<Req, Res>) => void;
}

/** The worker's error name for a run that cancel() stopped (RunCancelled in core/errors). */
export const CANCELLED_NAME = 'RunCancelled';

let nextRunId = 0;

/** A run id unique in this page: the token cancel() names across the worker boundary. */
export function newRunId(): string {
  return `run-${Date.now().toString(36)}-${++nextRunId}`;
}

export function createRunAction<Req, Res>(call: (req: Req, onProgress: ProgressFn, runId: string) => Promise<Res>, hooks: RunHooks<Req, Res> = {}) {
  const [running, setRunning] = createSignal(false);
  const [startedAtMs, setStartedAtMs] = createSignal(0);
  const [progress, setProgress] = createSignal<Progress | null>(null);
  const [result, setResult] = createSignal<Res | null>(null);
  const [error, setError] = createSignal<ErrorInfo | null>(null);
  const [cancelled, setCancelled] = createSignal(false);
  const [cancelling, setCancelling] = createSignal(false);
  /** What the run in flight asked for (null when none): a view shows it while the run lasts. */
  const [request, setRequest] = createSignal<Req | null>(null);
  let runId: string | null = null;

  const run = async (req: Req): Promise<void> => {
    if (running()) return;
    const id = newRunId();
    runId = id;
    setRunning(true);
    setRequest(() => req);
    setStartedAtMs(performance.now());
    setProgress(null);
    setResult(null);
    setError(null);
    setCancelled(false);
    setCancelling(false);
    hooks.onStart?.();
    let outcome: RunOutcome<Req, Res>;
    try {
      const res = await call(req, progressProxy(setProgress), id);
      setResult(() => res);
      outcome = { request: req, result: res, error: null, cancelled: false };
    } catch (e) {
      const info = errorInfo(e);
      const wasCancelled = info.name === CANCELLED_NAME;
      if (wasCancelled) setCancelled(true);
      else setError(info);
      outcome = { request: req, result: null, error: wasCancelled ? null : info, cancelled: wasCancelled };
    } finally {
      runId = null;
      setRunning(false);
      setCancelling(false);
    }
    hooks.onDone?.(outcome);
  };

  /** Asks the worker to stop the run in flight between two GPU batches. */
  const cancel = async (): Promise<void> => {
    if (!runId || cancelling()) return;
    setCancelling(true);
    await lab.cancel(runId);
  };

  return { running, startedAtMs, progress, result, error, cancelled, cancelling, request, run, cancel };
}
