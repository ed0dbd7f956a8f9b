// The page's one handle on stored runs: the database (opened once, lazily), `saveRun` — the one
// call every view makes after a run, result or failure — and a version signal the History view
// follows so it shows a run as soon as it is stored.
import { createSignal } from 'solid-js';
import type { AdapterDescriptor } from '../core/adapter';
import type { ResultJson, RunKind } from '../core/report/json';
import type { LabDb } from '../storage/db';
import { openLabStore, writable, type LabStore } from '../storage/open';
import { saveRun as storeRun } from '../storage/runs';
import { errorInfo, type ErrorInfo } from './errors';

let opening: Promise<LabStore> | null = null;
/** Set while the open in flight waits on another tab: calls fail at once with it instead of waiting. */
let blocked: Error | null = null;

/** Why the stored runs are not fully usable here (read-only, blocked, another tab upgraded), or null. */
const [storeHealth, setStoreHealth] = createSignal<ErrorInfo | null>(null);
export { storeHealth };

/** The lab's store (read-write, or read-only with the reason); a failed open is retried on the next call. */
export function labStore(): Promise<LabStore> {
  if (!opening) {
    blocked = null;
    const open = openLabStore({
      // Another tab upgrades the schema: step aside; the next call reopens (read-only, saying why).
      onBlocking: (db) => {
        db.close();
        opening = null;
        setStoreHealth({ name: 'StorageVersionError', message: 'another tab opened the stored runs with a newer kernel-lab: this page stepped aside so that tab could upgrade them. Reload this page to save again; nothing stored is lost.' });
      },
      onTerminated: () => {
        opening = null;
      },
      onBlocked: (e) => {
        blocked = e;
        setStoreHealth(errorInfo(e));
      },
    });
    opening = open;
    open.then(
      (store) => {
        blocked = null;
        setStoreHealth(store.readOnly ? errorInfo(store.readOnly) : null);
        storeChanged();
      },
      (e) => {
        if (opening === open) opening = null;
        blocked = null;
        setStoreHealth(errorInfo(e));
      },
    );
  }
  return blocked ? Promise.reject(blocked) : opening;
}

/** The lab's database (for reads). */
export async function labDb(): Promise<LabDb> {
  return (await labStore()).db;
}

/** The database for a write, or the named reason this page cannot write (read-only, blocked). */
export async function writableDb(what: string): Promise<LabDb> {
  return writable(await labStore(), what);
}

const [storeVersion, setStoreVersion] = createSignal(0);

/** Changes whenever runs are added, deleted or imported. */
export { storeVersion };

export function storeChanged(): void {
  setStoreVersion((v) => v + 1);
}

export type SaveOutcome = { readonly saved: true; readonly id: number } | { readonly saved: false; readonly error: ErrorInfo };

/**
 * Stores a run: its result JSON (level1Json, laneJson, sweepJson, calibrationJson — the CLI's
 * --json shapes), or the error it failed with, the adapter it ran on and what was asked.
 * Never rejects: a refusal (quota, no IndexedDB) comes back as { saved: false, error }.
 */
export function saveRun(kind: RunKind, result: ResultJson): Promise<SaveOutcome>;
export function saveRun(kind: RunKind, error: ErrorInfo, context: { readonly adapter: AdapterDescriptor; readonly request?: unknown }): Promise<SaveOutcome>;
export async function saveRun(kind: RunKind, outcome: ResultJson | ErrorInfo, context?: { readonly adapter: AdapterDescriptor; readonly request?: unknown }): Promise<SaveOutcome> {
  try {
    const db = await writableDb(`this ${kind} run`);
    const id =
      'kind' in outcome
        ? await storeRun(db, kind, { result: outcome })
        : await storeRun(db, kind, { error: { name: outcome.name, message: outcome.message }, adapter: context!.adapter, request: context?.request });
    storeChanged();
    return { saved: true, id };
  } catch (e) {
    return { saved: false, error: errorInfo(e) };
  }
}
