// Stored runs as History reads them: every record is checked again on the way out (a record
// imported before the checks were strict, written by another lab, or damaged on disk must not
// hang or break the page), and a record that fails is listed apart, with what is wrong with
// it and its id, so it can always be deleted. Records of older schema versions (a store opened
// read-only after a failed upgrade) get the fields later versions derive.
import { adapterFingerprint } from '../core/adapter';
import { isOwnKey } from '../core/input/bounded-json';
import { isIsoTimestamp } from '../core/input/iso-date';
import { RUN_KINDS } from '../core/report/json';
import { checkAdapter, validateResult } from '../core/report/validate';
import { opShapesOf, UNKNOWN_STAMP, type LabDb, type RunRecord } from './db';
import { sortRuns } from './runs';

/** A stored record that cannot be shown: its id (to delete it), what is known of it, and why. */
export interface DamagedRun {
  readonly id: number;
  /** The stored savedAt when it is text, cut to 40 characters; else ''. */
  readonly savedAt: string;
  readonly kind: string;
  readonly problem: string;
}

export interface StoredRuns {
  readonly runs: RunRecord[];
  readonly damaged: DamagedRun[];
}

const KINDS: Record<string, true> = Object.fromEntries(RUN_KINDS.map((k) => [k, true]));

function text(v: unknown, max = 40): string {
  return typeof v === 'string' ? (v.length > max ? `${v.slice(0, max)}…` : v) : '';
}

/** What is wrong with a stored record (null when History can show it). */
function problemOf(r: Record<string, unknown>): string | null {
  if (!isOwnKey(KINDS, r.kind)) return `kind ${text(r.kind) || typeof r.kind} is not one of ${RUN_KINDS.join(', ')}`;
  if (!isIsoTimestamp(r.savedAt)) return `savedAt '${text(r.savedAt)}' is not an ISO date`;
  const adapter = checkAdapter(r.adapter, 'adapter');
  if (adapter) return adapter;
  if (r.result !== null && r.result !== undefined) {
    try {
      const result = validateResult(r.result);
      if (result.kind !== r.kind) return `a ${result.kind} result stored as a ${r.kind} run`;
    } catch (e) {
      return `result: ${(e as Error).message}`;
    }
  } else {
    const error = r.error as { name?: unknown; message?: unknown } | null;
    if (!error || typeof error.name !== 'string' || typeof error.message !== 'string') return 'neither a result nor an error with a name and a message';
  }
  if (r.opShapes !== undefined && !(Array.isArray(r.opShapes) && r.opShapes.every((k) => typeof k === 'string'))) return 'opShapes is not a list of names';
  return null;
}

/** Checks cost a full validation: each record's verdict is kept by id and savedAt (a stored record never changes). */
const verdicts = new Map<number, { readonly savedAt: unknown; readonly problem: string | null }>();

/** The record made whole (fields older schemas lack), or why it cannot be shown. */
export function checkStoredRun(raw: unknown): { record: RunRecord } | { damaged: DamagedRun } {
  const r = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const id = typeof r.id === 'number' && Number.isSafeInteger(r.id) ? r.id : -1;
  const seen = verdicts.get(id);
  let problem: string | null;
  if (seen && seen.savedAt === r.savedAt) problem = seen.problem;
  else {
    problem = id < 0 ? 'no numeric id' : problemOf(r);
    if (id >= 0) verdicts.set(id, { savedAt: r.savedAt, problem });
  }
  if (problem !== null) return { damaged: { id, savedAt: text(r.savedAt), kind: text(r.kind) || '?', problem } };
  const rec = r as unknown as RunRecord;
  return {
    record: {
      ...rec,
      adapterKey: typeof rec.adapterKey === 'string' ? rec.adapterKey : adapterFingerprint(rec.adapter),
      labVersion: typeof rec.labVersion === 'string' ? rec.labVersion : UNKNOWN_STAMP,
      codeHash: typeof rec.codeHash === 'string' ? rec.codeHash : UNKNOWN_STAMP,
      opShapes: Array.isArray(rec.opShapes) ? rec.opShapes : opShapesOf(rec.result),
    },
  };
}

/** Every stored run, newest first, the damaged ones apart (from every adapter: a damaged record may name none). */
export async function readStoredRuns(db: LabDb): Promise<StoredRuns> {
  // A database of this name that never had the lab's 'runs' store (another page's, or damaged):
  // nothing to list; openLabStore names it and takes no writes (an uncaught NotFoundError before).
  if (!db.objectStoreNames.contains('runs')) return { runs: [], damaged: [] };
  const rows: unknown[] = await db.getAll('runs');
  const runs: RunRecord[] = [];
  const damaged: DamagedRun[] = [];
  for (const row of rows) {
    const c = checkStoredRun(row);
    if ('record' in c) runs.push(c.record);
    else damaged.push(c.damaged);
  }
  return { runs: sortRuns(runs), damaged };
}
