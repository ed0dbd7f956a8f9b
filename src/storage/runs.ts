// Runs in the lab's database: save (results and failures), list per adapter, delete, export to
// and import from a JSON file. Every write is one transaction: when the browser refuses it
// (quota), it aborts whole, so nothing already stored is lost and nothing half-written stays.
import { adapterFingerprint, type AdapterDescriptor } from '../core/adapter';
import { LabError } from '../core/errors';
import { CODE_HASH, LAB_VERSION, resultAdapter, type ResultJson, RUN_KINDS, type RunKind } from '../core/report/json';
import { checkAdapter, validateResult } from '../core/report/validate';
import { describeBounded, jsonBoundsProblem, ownValue } from '../core/input/bounded-json';
import { IMPORT_BOUNDS, MAX_IMPORT_RUNS, MAX_NAME_CHARS } from '../core/input/caps';
import { isIsoTimestamp } from '../core/input/iso-date';
import { opShapesOf, UNKNOWN_STAMP, type CalibrationRecord, type LabDb, type RunRecord, type StoredError } from './db';

/** The browser would not store more: the message names the cause and what to do. */
export class StorageQuotaError extends LabError {
  override name = 'StorageQuotaError';
}

/** An import file that is not an export of this lab, nor a result JSON. */
export class ImportError extends LabError {
  override name = 'ImportError';
}

function isQuotaError(e: unknown): boolean {
  const name = (e as { name?: unknown } | null)?.name;
  return name === 'QuotaExceededError' || (e as { code?: unknown } | null)?.code === 22;
}

/** Quota errors become a StorageQuotaError saying what happened to what; others pass through. */
export function storageError(e: unknown, what: string): unknown {
  if (!isQuotaError(e)) return e;
  return new StorageQuotaError(
    `browser storage is full (QuotaExceededError): ${what} was not saved. Everything stored before is kept. Export and delete old runs in History to make room, or allow this site more storage.`,
  );
}

/** What a failed run keeps: the error, the adapter it ran on, and what was asked. */
export interface FailedRun {
  readonly error: StoredError;
  readonly adapter: AdapterDescriptor;
  readonly request?: unknown;
}

export type RunOutcome = { readonly result: ResultJson } | FailedRun;

function adapterOf(outcome: RunOutcome): AdapterDescriptor {
  return 'result' in outcome ? resultAdapter(outcome.result) : outcome.adapter;
}

/** The record a run is stored as (id assigned by the database). Pure. */
export function runRecord(kind: RunKind, outcome: RunOutcome, savedAt = new Date().toISOString()): RunRecord {
  if ('result' in outcome && outcome.result.kind !== kind) throw new LabError(`a ${outcome.result.kind} result cannot be saved as a ${kind} run`);
  const adapter = adapterOf(outcome);
  const result = 'result' in outcome ? outcome.result : null;
  return {
    kind,
    adapterKey: adapterFingerprint(adapter),
    adapter,
    savedAt,
    // A result names the code that made it (a CLI file may come from another build); a failure is this build's.
    labVersion: result ? (result.labVersion ?? UNKNOWN_STAMP) : LAB_VERSION,
    codeHash: result ? (result.codeHash ?? UNKNOWN_STAMP) : CODE_HASH,
    opShapes: opShapesOf(result),
    result,
    error: 'error' in outcome ? { name: outcome.error.name, message: outcome.error.message } : null,
    request: 'request' in outcome ? (outcome.request ?? null) : null,
  };
}

/** Stale: made by other code than this build's (or by code unknown, before stamps existed). */
export function isStale(r: Pick<RunRecord, 'codeHash'>, currentHash = CODE_HASH): boolean {
  return r.codeHash !== currentHash;
}

function calibrationRecord(rec: RunRecord, id: number): CalibrationRecord | null {
  return rec.result?.kind === 'calibration' ? { adapterKey: rec.adapterKey, runId: id, savedAt: rec.savedAt, calibration: rec.result } : null;
}

/** Stores one run (and, for a calibration, the adapter's latest calibration); returns its id. */
export async function saveRun(db: LabDb, kind: RunKind, outcome: RunOutcome): Promise<number> {
  const rec = runRecord(kind, outcome);
  const tx = db.transaction(['runs', 'calibrations'], 'readwrite');
  try {
    const id = await tx.objectStore('runs').add(rec);
    const cal = calibrationRecord(rec, id);
    if (cal) await tx.objectStore('calibrations').put(cal);
    await tx.done;
    return id;
  } catch (e) {
    // The transaction aborts on its own when a request fails; make sure, then say why.
    try {
      tx.abort();
    } catch {
      // already aborted
    }
    await tx.done.catch(() => undefined);
    throw storageError(e, `this ${kind} run`);
  }
}

/** Newest first (then the higher id). */
export function sortRuns(rows: RunRecord[]): RunRecord[] {
  return rows.sort((a, b) => (a.savedAt < b.savedAt ? 1 : a.savedAt > b.savedAt ? -1 : (b.id ?? 0) - (a.id ?? 0)));
}

/** Every run on one adapter (or all), newest first. */
export async function listRuns(db: LabDb, adapterKey?: string): Promise<RunRecord[]> {
  return sortRuns(adapterKey === undefined ? await db.getAll('runs') : await db.getAllFromIndex('runs', 'by-adapter', adapterKey));
}

export interface AdapterSummary {
  readonly adapterKey: string;
  readonly adapter: AdapterDescriptor;
  readonly runs: number;
}

/** The adapters with stored runs, most runs first. */
export async function listAdapters(db: LabDb): Promise<AdapterSummary[]> {
  const out = new Map<string, AdapterSummary>();
  for (let cursor = await db.transaction('runs').store.index('by-adapter').openCursor(); cursor; cursor = await cursor.continue()) {
    const seen = out.get(cursor.value.adapterKey);
    out.set(cursor.value.adapterKey, { adapterKey: cursor.value.adapterKey, adapter: seen?.adapter ?? cursor.value.adapter, runs: (seen?.runs ?? 0) + 1 });
  }
  return [...out.values()].sort((a, b) => b.runs - a.runs);
}

export function getRun(db: LabDb, id: number): Promise<RunRecord | undefined> {
  return db.get('runs', id);
}

/** Deletes runs by id (a calibration pointing at a deleted run goes with it). */
export async function deleteRuns(db: LabDb, ids: readonly number[]): Promise<void> {
  const tx = db.transaction(['runs', 'calibrations'], 'readwrite');
  const gone = new Set(ids);
  for (const id of ids) await tx.objectStore('runs').delete(id);
  for (let cursor = await tx.objectStore('calibrations').openCursor(); cursor; cursor = await cursor.continue()) {
    if (gone.has(cursor.value.runId)) await cursor.delete();
  }
  await tx.done;
}

export function latestCalibration(db: LabDb, adapterKey: string): Promise<CalibrationRecord | undefined> {
  return db.get('calibrations', adapterKey);
}

/** The export file: runs as stored, without database ids. */
export const EXPORT_FORMAT = 'kernel-lab-runs';
export const EXPORT_VERSION = 1;

export type ExportedRun = Omit<RunRecord, 'id' | 'opShapes' | 'adapterKey'>;

export interface ExportFile {
  readonly format: typeof EXPORT_FORMAT;
  readonly version: number;
  readonly exportedAt: string;
  readonly labVersion: string;
  readonly runs: readonly ExportedRun[];
}

export function exportFile(records: readonly RunRecord[]): ExportFile {
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: new Date().toISOString(),
    labVersion: LAB_VERSION,
    runs: records.map((r) => ({ kind: r.kind, adapter: r.adapter, savedAt: r.savedAt, labVersion: r.labVersion, codeHash: r.codeHash, result: r.result, error: r.error, request: r.request })),
  };
}

function str(v: unknown): v is string {
  return typeof v === 'string';
}

/** What a failed run may carry: a compiler's message is long, but not without end. */
const MAX_ERROR_CHARS = 16 * 1024;
const REQUEST_BOUNDS = { maxDepth: 8, maxValues: 10_000, maxStringChars: 4096 } as const;

/** One exported run, checked; the error names the run and the field. */
function importedRecord(v: unknown, at: string): RunRecord {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new ImportError(`${at}: not an object`);
  // Own properties only: an inherited name is never a field.
  const r = Object.fromEntries(['kind', 'savedAt', 'result', 'error', 'adapter', 'request', 'labVersion', 'codeHash'].map((k) => [k, ownValue(v, k)])) as Record<string, unknown>;
  if (!RUN_KINDS.includes(r.kind as RunKind)) throw new ImportError(`${at}.kind: expected one of ${RUN_KINDS.join(', ')}`);
  if (!isIsoTimestamp(r.savedAt)) throw new ImportError(`${at}.savedAt: expected an ISO date (YYYY-MM-DDThh:mm:ss[.sss]Z), got ${describeBounded(r.savedAt)}`);
  for (const k of ['labVersion', 'codeHash'] as const) if (str(r[k]) && r[k].length > MAX_NAME_CHARS) throw new ImportError(`${at}.${k}: over the ${MAX_NAME_CHARS}-character cap`);
  let base: RunRecord;
  if (r.result !== null && r.result !== undefined) {
    let result: ResultJson;
    try {
      result = validateResult(r.result);
    } catch (e) {
      throw new ImportError(`${at}.result: ${(e as Error).message}`);
    }
    base = runRecord(r.kind as RunKind, { result }, r.savedAt);
  } else {
    const error = r.error && typeof r.error === 'object' ? { name: ownValue(r.error, 'name'), message: ownValue(r.error, 'message') } : null;
    if (!error || !str(error.name) || !str(error.message)) throw new ImportError(`${at}: a run needs a result or an error with name and message`);
    if (error.name.length > MAX_NAME_CHARS || error.message.length > MAX_ERROR_CHARS) throw new ImportError(`${at}.error: its name or message is over the cap (${MAX_NAME_CHARS} and ${MAX_ERROR_CHARS} characters)`);
    const request = r.request === undefined ? null : jsonBoundsProblem(r.request, REQUEST_BOUNDS, `${at}.request`);
    if (request) throw new ImportError(request);
    const bad = checkAdapter(r.adapter, `${at}.adapter`);
    if (bad) throw new ImportError(bad);
    base = runRecord(r.kind as RunKind, { error: { name: error.name, message: error.message }, adapter: r.adapter as AdapterDescriptor, request: r.request }, r.savedAt);
  }
  // The stamps travel with the run: an old run stays stale after a round trip.
  return { ...base, labVersion: str(r.labVersion) ? r.labVersion : base.labVersion, codeHash: str(r.codeHash) ? r.codeHash : base.codeHash };
}

/** The runs a file holds: an export of this lab, or one result JSON (a CLI --json file). */
export function parseImport(v: unknown): RunRecord[] {
  const isObject = !!v && typeof v === 'object' && !Array.isArray(v);
  if (isObject && ownValue(v, 'format') === EXPORT_FORMAT) {
    const bounds = jsonBoundsProblem(v, IMPORT_BOUNDS, 'the export');
    if (bounds) throw new ImportError(bounds);
    const version = ownValue(v, 'version');
    const runs = ownValue(v, 'runs');
    if (typeof version !== 'number' || version > EXPORT_VERSION) throw new ImportError(`export version ${describeBounded(version)} is newer than this lab reads (${EXPORT_VERSION}): import it with a newer kernel-lab`);
    if (!Array.isArray(runs)) throw new ImportError('runs: expected a list');
    if (runs.length > MAX_IMPORT_RUNS) throw new ImportError(`runs: ${runs.length} runs, over the cap of ${MAX_IMPORT_RUNS} in one file: split the export`);
    return runs.map((r, i) => importedRecord(r, `runs[${i}]`));
  }
  if (isObject && ownValue(v, 'kind') !== undefined) {
    let result: ResultJson;
    try {
      result = validateResult(v);
    } catch (e) {
      throw new ImportError(`not a kernel-lab export, and not a valid result: ${(e as Error).message}`);
    }
    return [runRecord(result.kind, { result }, new Date().toISOString())];
  }
  throw new ImportError(`not a kernel-lab file: expected an export (format '${EXPORT_FORMAT}') or a result JSON (${RUN_KINDS.join(', ')})`);
}

/** Same run: kind, adapter and start time (a result's own, else when it was stored). */
function identity(r: RunRecord): string {
  const started = r.result ? ('startedAt' in r.result ? r.result.startedAt : r.result.measuredAt) : r.savedAt;
  return `${r.kind}|${r.adapterKey}|${started}|${r.error?.message ?? ''}`;
}

export interface ImportSummary {
  readonly added: number;
  /** Runs already stored (the same run imported twice is stored once). */
  readonly duplicates: number;
}

/** Adds the file's runs in one transaction: all of them, or (quota, a bad record) none. */
export async function importRuns(db: LabDb, file: unknown): Promise<ImportSummary> {
  const records = parseImport(file);
  const tx = db.transaction(['runs', 'calibrations'], 'readwrite');
  try {
    const known = new Set((await tx.objectStore('runs').getAll()).map(identity));
    let added = 0;
    for (const rec of records) {
      const key = identity(rec);
      if (known.has(key)) continue;
      known.add(key);
      const id = await tx.objectStore('runs').add(rec);
      added++;
      const cal = calibrationRecord(rec, id);
      const current = cal && (await tx.objectStore('calibrations').get(cal.adapterKey));
      if (cal && (!current || current.savedAt < cal.savedAt)) await tx.objectStore('calibrations').put(cal);
    }
    await tx.done;
    return { added, duplicates: records.length - added };
  } catch (e) {
    try {
      tx.abort();
    } catch {
      // already aborted
    }
    await tx.done.catch(() => undefined);
    throw storageError(e, `the import (${records.length} runs)`);
  }
}
