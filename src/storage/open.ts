// Opening the lab's database when the world is not as this page expects: a database of a
// newer schema (a newer lab opened it, or another tab upgraded it), another tab blocking an
// upgrade, a migration that fails. Each is said by name, with what happened to the runs (never
// anything lost: no path here deletes or rewrites a record) and what to do; where the runs can
// still be read, the store opens read-only so History shows them.
import { openDB } from 'idb';
import { labError, type LabError } from '../core/errors';
import { DB_NAME, DB_VERSION, openLabDb, StorageMigrationError, type LabDb, type OpenOptions } from './db';

/** The database is of a newer schema than this page writes. */
export class StorageVersionError extends labError('StorageVersionError') {}

/** Another tab holds the database at an older version and does not let this page upgrade it. */
export class StorageBlockedError extends labError('StorageBlockedError') {}

/** A write asked of a store opened read-only; says why it is read-only. */
export class StorageReadOnlyError extends labError('StorageReadOnlyError') {}

/** Reading the stored runs took longer than the page waits. */
export class StorageTimeoutError extends labError('StorageTimeoutError') {}

export interface LabStore {
  readonly db: LabDb;
  /** Why this store takes no writes (null: it does). */
  readonly readOnly: LabError | null;
}

export interface StoreOptions extends Pick<OpenOptions, 'name' | 'migrations' | 'onBlocking' | 'onTerminated'> {
  /** The version this page writes (tests open older pages this way). */
  readonly version?: number;
  /** Called when an open waits on another tab; the open goes on and may still succeed. */
  readonly onBlocked?: (e: StorageBlockedError) => void;
}

function isVersionError(e: unknown): boolean {
  return (e as { name?: unknown } | null)?.name === 'VersionError';
}

/** The database at whatever version it is, without upgrading it: for reading only. */
async function openAsIs(name: string, onBlocking?: (db: LabDb) => void): Promise<LabDb> {
  const db = (await openDB(name, undefined, { blocking: () => onBlocking?.(db) })) as unknown as LabDb;
  return db;
}

/** Opens the store read-write, or read-only with the reason, or fails saying what happened. */
export async function openLabStore(opts: StoreOptions = {}): Promise<LabStore> {
  const name = opts.name ?? DB_NAME;
  const version = opts.version ?? DB_VERSION;
  try {
    const db = await openLabDb({
      name,
      version,
      migrations: opts.migrations,
      onBlocking: opts.onBlocking,
      onTerminated: opts.onTerminated,
      onBlocked: (current) =>
        opts.onBlocked?.(
          new StorageBlockedError(`another kernel-lab tab has the stored runs open at schema version ${current}, and this page needs version ${version}: close or reload that tab (this page continues by itself when it does). Nothing stored is lost.`),
        ),
    });
    return { db, readOnly: null };
  } catch (e) {
    if (isVersionError(e)) {
      const db = await openAsIs(name, opts.onBlocking);
      const reason = new StorageVersionError(
        `the stored runs are at schema version ${db.version}, newer than this page writes (${version}): a newer kernel-lab opened them, in another tab or before this page was loaded. They are shown read-only and nothing is lost; reload this page to get the newer lab and save again.`,
      );
      return { db, readOnly: reason };
    }
    if (e instanceof StorageMigrationError) {
      // The upgrade rolled back: the runs are still there, at the old version, readable.
      const db = await openAsIs(name, opts.onBlocking);
      if (!db.objectStoreNames.contains('runs')) {
        // Not a database this lab wrote (a v1 without the 'runs' store every version has had).
        const stores = [...db.objectStoreNames];
        return {
          db,
          readOnly: new StorageReadOnlyError(
            `the database '${name}' at schema version ${db.version} has no 'runs' store (it holds ${stores.length ? stores.map((n) => `'${n}'`).join(', ') : 'no stores'}): another page wrote it, or it is damaged. Nothing in it was changed or deleted; no run can be listed or saved here until it is removed (the browser's site data).`,
          ),
        };
      }
      return { db, readOnly: new StorageReadOnlyError(`${e.message}. They are shown read-only; new runs cannot be saved until the upgrade succeeds (reload to retry).`) };
    }
    throw e;
  }
}

/** The store's database for a write, or the reason it takes none. */
export function writable(store: LabStore, what: string): LabDb {
  if (store.readOnly) throw new StorageReadOnlyError(`${what} was not saved: the stored runs are read-only here. ${store.readOnly.message}`);
  return store.db;
}

/** A read that gives up after `ms` with a named error instead of waiting without end. */
export function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StorageTimeoutError(`${what} took longer than ${Math.round(ms / 1000)} s: another tab may hold the database, or the browser's storage is busy. Reload to try again; nothing stored is lost.`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
