// Storage under attack and across versions (fake-indexeddb): a newer database, another tab's
// upgrade or block, a failed migration, damaged records. Each is said by name, the runs stay
// readable where they can, nothing stored is lost, and a damaged record can always be deleted.
import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { sampleAdapter, sampleLane, sampleLevel1 } from '../../test/fixtures/sample-results';
import { DB_VERSION, MIGRATIONS, openLabDb, StorageMigrationError, type MigrationStep } from './db';
import { openLabStore, StorageBlockedError, StorageReadOnlyError, StorageTimeoutError, StorageVersionError, withDeadline, writable } from './open';
import { deleteRuns, exportFile, ImportError, importRuns, parseImport, runRecord, saveRun } from './runs';
import { readStoredRuns } from './stored-runs';

let n = 0;
const fresh = () => `hostile-${++n}`;
const copy = <T>(x: T): T => JSON.parse(JSON.stringify(x));

async function withRuns(name: string): Promise<number[]> {
  const db = await openLabDb({ name });
  const ids = [await saveRun(db, 'level1', { result: sampleLevel1() }), await saveRun(db, 'lane', { result: sampleLane() })];
  db.close();
  return ids;
}

describe('storage across versions', () => {
  it("a v1 database without a 'runs' store is named, read-only, listed as empty, and left as it was", async () => {
    const name = fresh();
    const other = await openDB(name, 1, { upgrade: (db) => void db.createObjectStore('notes').put('kept', 1) });
    await other.put('notes' as never, 'kept' as never, 1 as never);
    other.close();
    const store = await openLabStore({ name });
    expect(store.readOnly?.name).toBe('StorageReadOnlyError');
    expect(store.readOnly?.message).toBe(`the database '${name}' at schema version 1 has no 'runs' store (it holds 'notes'): another page wrote it, or it is damaged. Nothing in it was changed or deleted; no run can be listed or saved here until it is removed (the browser's site data).`);
    expect(await readStoredRuns(store.db)).toEqual({ runs: [], damaged: [] });
    expect(() => writable(store, 'this level1 run')).toThrow(/this level1 run was not saved: the stored runs are read-only here\. the database .* has no 'runs' store/);
    store.db.close();
    const after = await openDB(name);
    expect([after.version, [...after.objectStoreNames], await after.get('notes' as never, 1 as never)]).toEqual([1, ['notes'], 'kept']);
    after.close();
  });

  it('a database of a newer schema opens read-only, says so, and keeps every run', async () => {
    const name = fresh();
    await withRuns(name);
    const newer = await openDB(name, DB_VERSION + 1, { upgrade: (db) => void db.createObjectStore('added-by-a-newer-lab') });
    newer.close();
    const store = await openLabStore({ name });
    expect(store.readOnly).toBeInstanceOf(StorageVersionError);
    expect(store.readOnly!.message).toMatch(new RegExp(`schema version ${DB_VERSION + 1}, newer than this page writes \\(${DB_VERSION}\\).*shown read-only and nothing is lost; reload this page`));
    const { runs, damaged } = await readStoredRuns(store.db);
    expect([runs.map((r) => r.kind).sort(), damaged]).toEqual([['lane', 'level1'], []]);
    expect(() => writable(store, 'this level1 run')).toThrow(StorageReadOnlyError);
    expect(() => writable(store, 'this level1 run')).toThrow(new RegExp(`this level1 run was not saved: the stored runs are read-only here\\. the stored runs are at schema version ${DB_VERSION + 1}`));
    store.db.close();
  });

  it('another tab upgrading: this page steps aside, and reopens read-only with the reason', async () => {
    const name = fresh();
    await withRuns(name);
    let stepped = false;
    const first = await openLabStore({ name, onBlocking: (db) => ((stepped = true), db.close()) });
    expect(first.readOnly).toBeNull();
    const other = await openDB(name, DB_VERSION + 1, { upgrade: () => undefined });
    expect(stepped).toBe(true);
    other.close();
    const again = await openLabStore({ name });
    expect(again.readOnly).toBeInstanceOf(StorageVersionError);
    expect((await readStoredRuns(again.db)).runs).toHaveLength(2);
    again.db.close();
  });

  it('blocked by an older tab that does not close: named, and the open goes on once it does', async () => {
    const name = fresh();
    const old = await openLabDb({ name, version: 2 });
    const blocked: StorageBlockedError[] = [];
    const opening = openLabStore({ name, onBlocked: (e) => blocked.push(e) });
    await new Promise((r) => setTimeout(r, 50));
    expect(blocked).toHaveLength(1);
    expect(blocked[0].message).toMatch(new RegExp(`another kernel-lab tab has the stored runs open at schema version 2, and this page needs version ${DB_VERSION}: close or reload that tab.*Nothing stored is lost`));
    old.close();
    const store = await opening;
    expect([store.db.version, store.readOnly]).toEqual([DB_VERSION, null]);
    store.db.close();
  });

  it('a failed migration names its step and cause, and the runs stay readable (read-only)', async () => {
    const name = fresh();
    const v1 = await openLabDb({ name, version: 1 });
    const lane = sampleLane();
    const rec = runRecord('lane', { result: lane }, '2026-03-02T10:00:00.000Z');
    const { labVersion: _l, codeHash: _c, opShapes: _o, ...v1Record } = rec;
    await v1.add('runs', v1Record as never);
    v1.close();
    // Every real step but the last, then a step that fails: the upgrade to DB_VERSION stops there.
    const broken: MigrationStep[] = [...MIGRATIONS.slice(0, DB_VERSION - 1), async () => Promise.reject(new TypeError('planted failure'))];
    await expect(openLabDb({ name, migrations: broken })).rejects.toThrow(StorageMigrationError);
    await expect(openLabDb({ name, migrations: broken })).rejects.toThrow(new RegExp(`could not be upgraded from schema version 1 to ${DB_VERSION}: step ${DB_VERSION} failed \\(TypeError: planted failure\\)\\. The database was left at version 1 with every run kept`));
    const store = await openLabStore({ name, migrations: broken });
    expect(store.readOnly?.message).toMatch(new RegExp(`step ${DB_VERSION} failed \\(TypeError: planted failure\\).*shown read-only; new runs cannot be saved`));
    const { runs } = await readStoredRuns(store.db);
    expect(runs).toHaveLength(1);
    // derived for a v1 record: one key per (op, shape) of the lane
    expect(runs[0].opShapes.length).toBe(new Set(lane.pairs.flatMap((p) => p.shapes.map((s) => `${p.op} ${s.shape}`))).size);
    store.db.close();
  });

  it('a read that hangs gives up with a named error', async () => {
    await expect(withDeadline(new Promise(() => undefined), 20, 'reading the stored runs')).rejects.toThrow(StorageTimeoutError);
    await expect(withDeadline(new Promise(() => undefined), 20, 'reading the stored runs')).rejects.toThrow(/reading the stored runs took longer than 0 s/);
  });
});

describe('damaged and hostile records', () => {
  it('lists damaged records apart, with why, and deletes them', async () => {
    const name = fresh();
    const db = await openLabDb({ name });
    const good = await saveRun(db, 'level1', { result: sampleLevel1() });
    const halfBuilt = copy(sampleLane());
    halfBuilt.pairs[0].shapes[0].speedupMin = null;
    const bad = [
      { ...runRecord('level1', { result: sampleLevel1() }), savedAt: '1' },
      { ...runRecord('level1', { result: sampleLevel1() }), kind: 'hasOwnProperty' },
      { ...runRecord('lane', { result: sampleLane() }), result: halfBuilt },
      { ...runRecord('level1', { result: sampleLevel1() }), adapter: 'not an adapter' },
    ];
    const ids: number[] = [];
    for (const r of bad) ids.push(await db.add('runs', r as never));
    const { runs, damaged } = await readStoredRuns(db);
    expect(runs.map((r) => r.id)).toEqual([good]);
    expect(damaged.map((d) => [d.id, d.problem])).toEqual([
      [ids[0], "savedAt '1' is not an ISO date"],
      [ids[1], 'kind hasOwnProperty is not one of level1, lane, sweep, calibration, formats'],
      [ids[2], expect.stringMatching(/^result: lane result: pairs\[0\]\.shapes\[0\]\.speedupMin: null while speedupMedian is set/)],
      [ids[3], expect.stringMatching(/^adapter: expected an object/)],
    ]);
    await deleteRuns(db, damaged.map((d) => d.id));
    expect(await readStoredRuns(db)).toEqual({ runs: expect.any(Array), damaged: [] });
    expect((await readStoredRuns(db)).runs).toHaveLength(1);
    db.close();
  });

  it('refuses hostile imports by name and stores nothing of them', async () => {
    const file = copy(exportFile([{ ...runRecord('level1', { result: sampleLevel1() }, '2026-03-01T10:00:00.000Z'), id: 1 }]));
    const withRun = (patch: object) => ({ ...file, runs: [{ ...file.runs[0], ...patch }] });
    expect(() => parseImport(withRun({ savedAt: 'Tue Mar 01 2026' }))).toThrow(/runs\[0\]\.savedAt: expected an ISO date/);
    expect(() => parseImport(withRun({ savedAt: '+275760-09-13T00:00:00.000Z' }))).toThrow(/savedAt: expected an ISO date/);
    expect(() => parseImport(withRun({ kind: 'constructor' }))).toThrow(/runs\[0\]\.kind: expected one of/);
    expect(() => parseImport(JSON.parse(JSON.stringify(file).replace('"runs":[{', '"runs":[{"__proto__":{},')))).toThrow(/key '__proto__' names an inherited object member/);
    expect(() => parseImport({ ...file, runs: Array.from({ length: 5001 }, () => file.runs[0]) })).toThrow(/5001 runs, over the cap of 5000/);
    expect(() => parseImport(withRun({ result: null, error: { name: 'E', message: 'x'.repeat(20_000) }, adapter: sampleAdapter() }))).toThrow(/runs\[0\]\.error\.message: a string of 20000 characters, over the 16384-character cap/);
    expect(() => parseImport({ kind: 'hasOwnProperty', schemaVersion: 1 })).toThrow(ImportError);
    const name = fresh();
    const db = await openLabDb({ name });
    await expect(importRuns(db, withRun({ savedAt: '1' }))).rejects.toThrow(ImportError);
    expect(await db.count('runs')).toBe(0);
    db.close();
  });
});
