// One long call to the worker (lane, sweep, calibrate) as signals: running, progress, the last
// result or error. The panel shows the last run only: an error never sits beside an older result.
import { createSignal } from 'solid-js';
import type { Progress, ProgressFn } from '../worker/api';
import { errorInfo, type ErrorInfo } from './errors';
import { progressProxy } from './lab-client';

export interface RunOutcome<Req, Res> {
  readonly request: Req;
  readonly result: Res | null;
  readonly error: ErrorInfo | null;
}

export interface RunHooks<Req, Res> {
  /** A run begins: whatever belonged to the last one goes. */
  readonly onStart?: () => void;
  /** A run ended, with its result or its error. */
  readonly onDone?: (outcome: RunOutcome<Req, Res>) => void;
}

export function createRunAction<Req, Res>(call: (req: Req, onProgress: ProgressFn) => Promise<Res>, hooks: RunHooks<Req, Res> = {}) {
  const [running, setRunning] = createSignal(false);
  const [startedAtMs, setStartedAtMs] = createSignal(0);
  const [progress, setProgress] = createSignal<Progress | null>(null);
  const [result, setResult] = createSignal<Res | null>(null);
  const [error, setError] = createSignal<ErrorInfo | null>(null);

  const run = async (req: Req): Promise<void> => {
    if (running()) return;
    setRunning(true);
    setStartedAtMs(performance.now());
    setProgress(null);
    setResult(null);
    setError(null);
    hooks.onStart?.();
    let outcome: RunOutcome<Req, Res>;
    try {
      const res = await call(req, progressProxy(setProgress));
      setResult(() => res);
      outcome = { request: req, result: res, error: null };
    } catch (e) {
      const info = errorInfo(e);
      setError(info);
      outcome = { request: req, result: null, error: info };
    } finally {
      setRunning(false);
    }
    hooks.onDone?.(outcome);
  };

  return { running, startedAtMs, progress, result, error, run };
}
