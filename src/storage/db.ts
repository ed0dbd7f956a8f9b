// The lab's IndexedDB: its schema, version by version, and the migration that brings a database
// of any earlier version to the current one without losing a record. Each step is a function of
// the version it creates; opening at version N runs the steps after the database's version, in
// order, inside IndexedDB's one upgrade transaction (a failed step aborts it: nothing changes).
import { openDB, type DBSchema, type IDBPDatabase, type IDBPTransaction, type StoreNames } from 'idb';
import type { AdapterDescriptor } from '../core/adapter';
import { LabError } from '../core/errors';
import type { CalibrationJson, ResultJson, RunKind } from '../core/report/json';
import { formatRowKey } from '../core/report/formats';

export const DB_NAME = 'kernel-lab';
export const DB_VERSION = 4;

/** Stamp of records stored before results carried a version and code hash (schema v1): stale. */
export const UNKNOWN_STAMP = 'unknown';

export interface StoredError {
  readonly name: string;
  readonly message: string;
}

/** Schema v1: one record per run, by id, indexed by the adapter's fingerprint. */
export interface RunRecordV1 {
  id?: number;
  kind: RunKind;
  /** adapterFingerprint(adapter): vendor, architecture, device, description, fallback, runtime. */
  adapterKey: string;
  adapter: AdapterDescriptor;
  /** ISO time the run was stored. */
  savedAt: string;
  /** The result JSON (the CLI's --json shape), or null for a failed run. */
  result: ResultJson | null;
  /** Why the run failed, or null. */
  error: StoredError | null;
  /** What was asked, for a failed run (a result names it itself). */
  request: unknown;
}

/** Schema v2 adds the stamps (which code made the result) and the (op, shape) keys it covers. */
export interface RunRecord extends RunRecordV1 {
  /** The lab's version that produced the result; UNKNOWN_STAMP for records migrated from v1. */
  labVersion: string;
  /** Hash of the native kernels, ops, codegen and schedules; UNKNOWN_STAMP when migrated from v1. */
  codeHash: string;
  /** "ADD 4096x512 inplace" per (op, shape) the run measured: the history's series keys. */
  opShapes: string[];
}

/** Schema v3: the latest calibration per adapter, for metrics' measured peaks. */
export interface CalibrationRecord {
  adapterKey: string;
  runId: number;
  savedAt: string;
  calibration: CalibrationJson;
}

/** Schema v4: a user kernel (manifest + WGSL) as it was last run on an adapter. */
export interface UserKernelRecord {
  /** `${adapterKey} ${kernelId}`: one record per kernel version per adapter. */
  key: string;
  adapterKey: string;
  /** name@hash12 of the manifest. */
  kernelId: string;
  name: string;
  op: string;
  manifestSha256: string;
  manifest: string;
  /** WGSL by the file name the manifest uses. */
  files: Record<string, string>;
  savedAt: string;
}

export interface LabSchema extends DBSchema {
  runs: {
    key: number;
    value: RunRecord;
    indexes: { 'by-adapter': string; 'by-op-shape': string };
  };
  calibrations: {
    key: string;
    value: CalibrationRecord;
  };
  userKernels: {
    key: string;
    value: UserKernelRecord;
    indexes: { 'by-adapter': string };
  };
}

export type LabDb = IDBPDatabase<LabSchema>;

/** A migration step threw: the upgrade was rolled back, so the database is still at `fromVersion`. */
export class StorageMigrationError extends LabError {
  override name = 'StorageMigrationError';
  constructor(
    message: string,
    readonly fromVersion: number,
  ) {
    super(message);
  }
}

function errorText(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}
type UpgradeTx = IDBPTransaction<LabSchema, StoreNames<LabSchema>[], 'versionchange'>;

/** "ADD 4096x512 inplace" for each (op, shape) a result measured. */
export function opShapesOf(result: ResultJson | null): string[] {
  if (!result) return [];
  switch (result.kind) {
    case 'level1':
      return [`${result.op} ${result.label ?? result.shape}`];
    case 'lane':
      return [...new Set(result.pairs.flatMap((p) => p.shapes.map((s) => `${p.op} ${s.shape}`)))];
    case 'sweep':
      return result.shapes.map((s) => `${result.op} ${s}`);
    case 'calibration':
      return [];
    case 'formats':
      return result.rows.map((r) => formatRowKey(result, r.format));
  }
}

/** Each step creates its version from the one before; index = version − 1. */
export type MigrationStep = (db: IDBPDatabase<LabSchema>, tx: UpgradeTx) => Promise<void>;

export const MIGRATIONS: readonly MigrationStep[] = [
  // v1: runs by auto-increment id, with an adapter index.
  async (db) => {
    const runs = db.createObjectStore('runs', { keyPath: 'id', autoIncrement: true });
    runs.createIndex('by-adapter', 'adapterKey');
  },
  // v2: stamps and (op, shape) keys. Old records get UNKNOWN stamps, so they show as stale.
  async (_db, tx) => {
    const runs = tx.objectStore('runs');
    runs.createIndex('by-op-shape', 'opShapes', { multiEntry: true });
    for (let cursor = await runs.openCursor(); cursor; cursor = await cursor.continue()) {
      const old = cursor.value as Partial<RunRecord> & RunRecordV1;
      await cursor.update({
        ...old,
        labVersion: old.labVersion ?? UNKNOWN_STAMP,
        codeHash: old.codeHash ?? UNKNOWN_STAMP,
        opShapes: opShapesOf(old.result),
      });
    }
  },
  // v3: the latest calibration per adapter, filled from the calibration runs already stored.
  async (db, tx) => {
    db.createObjectStore('calibrations', { keyPath: 'adapterKey' });
    const latest = new Map<string, CalibrationRecord>();
    for (let cursor = await tx.objectStore('runs').openCursor(); cursor; cursor = await cursor.continue()) {
      const r = cursor.value;
      if (r.kind !== 'calibration' || !r.result || r.result.kind !== 'calibration' || r.id === undefined) continue;
      const seen = latest.get(r.adapterKey);
      if (!seen || seen.savedAt < r.savedAt) latest.set(r.adapterKey, { adapterKey: r.adapterKey, runId: r.id, savedAt: r.savedAt, calibration: r.result });
    }
    const store = tx.objectStore('calibrations');
    for (const rec of latest.values()) await store.put(rec);
  },
  // v4: user kernels per adapter (results that used one carry its id and hashes already).
  async (db) => {
    db.createObjectStore('userKernels', { keyPath: 'key' }).createIndex('by-adapter', 'adapterKey');
  },
];

export interface OpenOptions {
  readonly name?: string;
  /** Another tab holds the database at an older version and has not closed it: this open waits. */
  readonly onBlocked?: (currentVersion: number) => void;
  /** The browser closed the connection (storage cleared, a crash): reopen on the next call. */
  readonly onTerminated?: () => void;
  /** Open at this version (tests build earlier versions this way); default the current one. */
  readonly version?: number;
  /** Another tab wants a newer schema: close this connection (and reopen lazily). */
  readonly onBlocking?: (db: LabDb) => void;
  /** The steps to run (tests plant a failing one); default MIGRATIONS. */
  readonly migrations?: readonly MigrationStep[];
}

/** Opens (creating or migrating) the lab's database. */
export async function openLabDb(opts: OpenOptions = {}): Promise<LabDb> {
  const version = opts.version ?? DB_VERSION;
  const migrations = opts.migrations ?? MIGRATIONS;
  if (!Number.isInteger(version) || version < 1 || version > migrations.length) throw new RangeError(`no schema version ${version} (1…${migrations.length})`);
  let failed: { step: number; error: unknown } | null = null;
  let from = 0;
  const db: LabDb = await openDB<LabSchema>(opts.name ?? DB_NAME, version, {
    upgrade(upgrading, oldVersion, newVersion, tx) {
      from = oldVersion;
      // The steps run in order inside the upgrade transaction; one that throws aborts it all.
      const steps = migrations.slice(oldVersion, newVersion ?? version);
      // openDB rejects when the upgrade aborts; tx.done would reject unobserved as well.
      tx.done.catch(() => undefined);
      void (async () => {
        for (const [i, step] of steps.entries()) {
          failed = { step: oldVersion + i + 1, error: null };
          await step(upgrading, tx);
        }
        failed = null;
      })().catch((e) => {
        failed = { step: failed?.step ?? oldVersion + 1, error: e };
        console.error('kernel-lab: database migration failed; the database is left as it was', e);
        tx.abort();
      });
    },
    blocked(currentVersion) {
      opts.onBlocked?.(currentVersion);
    },
    blocking() {
      opts.onBlocking?.(db);
    },
    terminated() {
      opts.onTerminated?.();
    },
  }).catch((e: unknown) => {
    // The page shows the real cause, not only the console: which step failed, and why.
    const f = failed as { step: number; error: unknown } | null;
    if (f?.error) throw new StorageMigrationError(`the stored runs could not be upgraded from schema version ${from} to ${version}: step ${f.step} failed (${errorText(f.error)}). The database was left at version ${from} with every run kept`, from);
    throw e;
  });
  return db;
}
