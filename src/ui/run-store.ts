// The page's one handle on stored runs: the database (opened once, lazily), `saveRun` — the one
// call every view makes after a run, result or failure — and a version signal the History view
// follows so it shows a run as soon as it is stored.
import { createSignal } from 'solid-js';
import type { AdapterDescriptor } from '../core/adapter';
import type { ResultJson, RunKind } from '../core/report/json';
import { openLabDb, type LabDb } from '../storage/db';
import { saveRun as storeRun } from '../storage/runs';
import { errorInfo, type ErrorInfo } from './errors';

let opening: Promise<LabDb> | null = null;

/** The lab's database; a failed open is retried on the next call. */
export function labDb(): Promise<LabDb> {
  if (!opening) {
    opening = openLabDb({
      // Another tab upgrades the schema: step aside, reopen (migrated) on the next call.
      onBlocking: (db) => {
        db.close();
        opening = null;
      },
    });
    opening.catch(() => {
      opening = null;
    });
  }
  return opening;
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
    const db = await labDb();
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
