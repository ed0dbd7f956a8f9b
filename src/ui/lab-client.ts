// The page's one connection to the GPU worker: the typed LabApi proxy, and the hooks a headless
// driver (src/cli/runtime-browser.ts, Playwright) uses to call the same API.
import { proxy, wrap, type Remote } from 'comlink';
import type { LabApi, Progress, ProgressFn } from '../worker/api';
import { errorInfo, type ErrorInfo } from './errors';

function startWorker(): Worker {
  // The worker learns the page's ?device= through its name (see lab.worker.ts).
  return new Worker(new URL('../worker/lab.worker.ts', import.meta.url), { type: 'module', name: location.search });
}

const worker = startWorker();

export const lab: Remote<LabApi> = wrap<LabApi>(worker);

/** A progress callback the worker can call across the boundary. */
export function progressProxy(fn: ProgressFn): ProgressFn {
  return proxy(fn);
}

/** The LabApi methods that take a progress callback (derived from the API's types). */
type ProgressMethod = {
  [K in keyof LabApi]: LabApi[K] extends (...args: infer A) => unknown ? ([Extract<A[number], ProgressFn>] extends [never] ? never : K) : never;
}[keyof LabApi];

/**
 * Where each method's progress callback sits among its arguments, for headless calls. The type
 * makes tsc fail until a new method with progress (sweep, calibrate…) gets its entry here.
 */
export const PROGRESS_ARG_INDEX: Readonly<Record<ProgressMethod, number>> = {
  time: 1,
  formats: 1,
  lane: 1,
  sweep: 1,
  calibrate: 0,
  graphRun: 1,
};

type HeadlessReply = { ok: unknown } | { error: ErrorInfo };

interface HeadlessWindow {
  __labReady?: boolean;
  __labCall?: (method: string, args: unknown[]) => Promise<HeadlessReply>;
  __labProgress?: (p: Progress) => void;
}

/** Calls one LabApi method by name with plain-data args; never rejects. */
async function headlessCall(method: string, args: unknown[]): Promise<HeadlessReply> {
  try {
    const fn = (lab as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[method];
    const callArgs = [...args];
    const progressAt = (PROGRESS_ARG_INDEX as Partial<Record<string, number>>)[method];
    const w = window as unknown as HeadlessWindow;
    if (progressAt !== undefined && w.__labProgress) {
      const report = w.__labProgress;
      // Optional arguments the caller left out must not shift the callback's position.
      while (callArgs.length < progressAt) callArgs.push(undefined);
      callArgs[progressAt] = progressProxy((p) => report(p));
    }
    return { ok: await fn(...callArgs) };
  } catch (e) {
    return { error: errorInfo(e) };
  }
}

function installHeadlessHooks(): void {
  const w = window as unknown as HeadlessWindow;
  w.__labCall = headlessCall;
  w.__labReady = true;
}

installHeadlessHooks();

/**
 * Resolves when the worker itself fails (its script did not load or threw at start): comlink
 * calls would otherwise wait forever, and the page must say what happened instead.
 */
export const workerFailure: Promise<ErrorInfo> = new Promise((resolve) => {
  worker.addEventListener('error', (e) => resolve({ name: 'WorkerError', message: `the GPU worker failed to start: ${e.message || 'its script did not load'}` }), { once: true });
});
