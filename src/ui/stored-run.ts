// A long run whose outcome is stored (History) and shareable: the run action, plus the result as
// the CLI's --json writes it (what the views show, so a fresh run, a stored run and a shared
// link look the same) and whether saving worked. Failed runs are stored too.
import { createSignal, type Accessor } from 'solid-js';
import type { AdapterDescriptor } from '../core/adapter';
import type { ResultJson, RunKind } from '../core/report/json';
import type { ProgressFn } from '../worker/api';
import type { ErrorInfo } from './errors';
import { createRunAction } from './run-action';
import { saveRun, type SaveOutcome } from './run-store';

export interface StoredRunOptions<Req, Res, Json extends ResultJson> {
  readonly kind: RunKind;
  readonly call: (req: Req, onProgress: ProgressFn, runId: string) => Promise<Res>;
  readonly toJson: (res: Res) => Json;
  /** The adapter a failed run is stored under. */
  readonly adapter: Accessor<AdapterDescriptor>;
  /** After a result, before it is stored (e.g. its kernels join the roofline). */
  readonly onResult?: (res: Res, req: Req) => void;
  /** After a failure (e.g. Level 1 marks a compile error's lines). */
  readonly onError?: (error: ErrorInfo) => void;
}

export function createStoredRun<Req, Res, Json extends ResultJson>(o: StoredRunOptions<Req, Res, Json>) {
  const [json, setJson] = createSignal<Json | null>(null);
  const [saved, setSaved] = createSignal<SaveOutcome | null>(null);
  const action = createRunAction<Req, Res>(o.call, {
    onStart: () => {
      setJson(null);
      setSaved(null);
    },
    onDone: (outcome) => {
      if (outcome.result) {
        const j = o.toJson(outcome.result);
        setJson(() => j);
        o.onResult?.(outcome.result, outcome.request);
        void saveRun(o.kind, j).then(setSaved);
      } else if (outcome.error) {
        o.onError?.(outcome.error);
        void saveRun(o.kind, outcome.error, { adapter: o.adapter(), request: outcome.request ?? undefined }).then(setSaved);
      }
      // A cancelled run stores nothing: it has no result, and it did not fail.
    },
  });
  return { ...action, json, saved };
}
