// Runs on fake-indexeddb: save (results and failures), list per adapter, delete, export and
// import (all or nothing), and a quota error that names its cause and loses nothing.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { adapterFingerprint } from '../core/adapter';
import { calibrationJson, CODE_HASH, LAB_VERSION } from '../core/report/json';
import { sampleAdapter, sampleLane, sampleLevel1 } from '../../test/fixtures/sample-results';
import { openLabDb, UNKNOWN_STAMP, type LabDb } from './db';
import { deleteRuns, exportFile, ImportError, importRuns, isStale, latestCalibration, listAdapters, listRuns, parseImport, saveRun, StorageQuotaError } from './runs';

let dbCount = 0;
const fresh = () => openLabDb({ name: `runs-test-${++dbCount}` });

const swiftshader = sampleAdapter();
const h200 = sampleAdapter({ vendor: 'nvidia', architecture: 'hopper', device: 'nvidia-h200', description: 'NVIDIA H200', isFallbackAdapter: false, runtime: 'node' });

function quotaOnAdd(): void {
  // What Chromium raises when the origin's quota is spent.
  vi.spyOn(IDBObjectStore.prototype, 'add').mockImplementation(() => {
    throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('runs', () => {
  it('saves results and failures per adapter, stamped, and lists them newest first', async () => {
    const db = await fresh();
    const first = await saveRun(db, 'level1', { result: sampleLevel1({ startedAt: '2026-03-01T10:00:00.000Z' }) });
    const failed = await saveRun(db, 'level1', { error: { name: 'WgslCompileError', message: 'error at line 3:5' }, adapter: swiftshader, request: { op: 'ADD', dims: [64, 4] } });
    await saveRun(db, 'lane', { result: sampleLane({ adapter: h200 }) });
    const mine = await listRuns(db, adapterFingerprint(swiftshader));
    expect(mine.map((r) => r.id)).toEqual([failed, first]);
    expect(mine[0]).toMatchObject({ kind: 'level1', result: null, error: { name: 'WgslCompileError', message: 'error at line 3:5' }, request: { op: 'ADD', dims: [64, 4] }, labVersion: LAB_VERSION, codeHash: CODE_HASH, opShapes: [] });
    expect(mine[1]).toMatchObject({ labVersion: LAB_VERSION, codeHash: CODE_HASH, opShapes: ['ADD 256x16 inplace'] });
    expect(mine.some((r) => isStale(r))).toBe(false);
    expect((await listAdapters(db)).map((a) => [a.adapterKey, a.runs])).toEqual([
      [adapterFingerprint(swiftshader), 2],
      [adapterFingerprint(h200), 1],
    ]);
    await expect(saveRun(db, 'lane', { result: sampleLevel1() })).rejects.toThrow('a level1 result cannot be saved as a lane run');
  });

  it('keeps the latest calibration per adapter, and drops it with its run', async () => {
    const db = await fresh();
    const cal = (measuredAt: string) => calibrationJson({ kind: 'calibration', adapterFingerprint: adapterFingerprint(swiftshader), copyGBps: 10, f32Gflops: 20, f16Gflops: null, emptyDispatchNs: 30_000, measuredAt, details: [] }, swiftshader);
    await saveRun(db, 'calibration', { result: cal('2026-01-01T00:00:00.000Z') });
    const second = await saveRun(db, 'calibration', { result: cal('2026-01-02T00:00:00.000Z') });
    expect((await latestCalibration(db, adapterFingerprint(swiftshader)))?.runId).toBe(second);
    await deleteRuns(db, [second]);
    expect(await latestCalibration(db, adapterFingerprint(swiftshader))).toBeUndefined();
    expect(await listRuns(db)).toHaveLength(1);
  });

  it('a quota error names its cause, aborts the save and loses nothing stored', async () => {
    const db = await fresh();
    await saveRun(db, 'level1', { result: sampleLevel1() });
    quotaOnAdd();
    const e = await saveRun(db, 'lane', { result: sampleLane() }).catch((x) => x);
    expect(e).toBeInstanceOf(StorageQuotaError);
    expect(e.message).toMatch(/browser storage is full \(QuotaExceededError\): this lane run was not saved\. Everything stored before is kept/);
    vi.restoreAllMocks();
    const runs = await listRuns(db);
    expect(runs.map((r) => r.kind)).toEqual(['level1']);
  });

  it('deletes runs by id', async () => {
    const db = await fresh();
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await saveRun(db, 'level1', { result: sampleLevel1({ startedAt: `2026-03-0${i + 1}T10:00:00.000Z` }) }));
    await deleteRuns(db, [ids[1], ids[3]]);
    expect((await listRuns(db)).map((r) => r.id).sort()).toEqual([ids[0], ids[2], ids[4]]);
  });
});

describe('export and import', () => {
  async function seeded(): Promise<LabDb> {
    const db = await fresh();
    await saveRun(db, 'level1', { result: sampleLevel1() });
    await saveRun(db, 'lane', { result: sampleLane({ adapter: h200 }) });
    await saveRun(db, 'sweep', { error: { name: 'UsageError', message: 'nothing to sweep' }, adapter: swiftshader, request: { op: 'ADD' } });
    return db;
  }

  it('round-trips every run through a JSON file, stamps included, and stores a run once', async () => {
    const source = await seeded();
    const file = JSON.parse(JSON.stringify(exportFile(await listRuns(source))));
    const target = await fresh();
    expect(await importRuns(target, file)).toEqual({ added: 3, duplicates: 0 });
    const strip = (rs: Awaited<ReturnType<typeof listRuns>>) => rs.map(({ id: _id, ...r }) => r).sort((a, b) => a.kind.localeCompare(b.kind));
    expect(strip(await listRuns(target))).toEqual(strip(await listRuns(source)));
    // Importing the same file again adds nothing.
    expect(await importRuns(target, file)).toEqual({ added: 0, duplicates: 3 });
  });

  it('keeps an old run stale after a round trip', async () => {
    const file = JSON.parse(JSON.stringify(exportFile(await listRuns(await seeded()))));
    file.runs[0].codeHash = UNKNOWN_STAMP;
    const target = await fresh();
    await importRuns(target, file);
    expect((await listRuns(target)).filter((r) => isStale(r))).toHaveLength(1);
  });

  it("imports a CLI --json result file as one run, with the result's own stamps", async () => {
    const db = await fresh();
    const cli = { ...sampleLevel1(), labVersion: '0.0.1', codeHash: 'feedfacecafe' };
    expect(await importRuns(db, cli)).toEqual({ added: 1, duplicates: 0 });
    const [run] = await listRuns(db);
    expect(run).toMatchObject({ kind: 'level1', labVersion: '0.0.1', codeHash: 'feedfacecafe', result: cli });
    expect(isStale(run)).toBe(true);
  });

  it('refuses a file that is neither, naming what is wrong, and stores nothing', async () => {
    const db = await seeded();
    const file = JSON.parse(JSON.stringify(exportFile(await listRuns(db))));
    file.runs[1].result.pairs[0].shapes[0].verdict = 'amazing';
    const target = await fresh();
    await expect(importRuns(target, file)).rejects.toThrow(/runs\[1\]\.result: lane result: pairs\[0\]\.shapes\[0\]\.verdict: expected one of faster/);
    expect(await listRuns(target)).toEqual([]);
    expect(() => parseImport({ hello: 1 })).toThrow(ImportError);
    expect(() => parseImport({ format: 'kernel-lab-runs', version: 99, runs: [] })).toThrow(/export version 99 is newer/);
    expect(() => parseImport({ kind: 'level1' })).toThrow(/not a kernel-lab export, and not a valid result/);
  });

  it('imports all or nothing when the quota runs out midway', async () => {
    const file = JSON.parse(JSON.stringify(exportFile(await listRuns(await seeded()))));
    const target = await fresh();
    await saveRun(target, 'level1', { result: sampleLevel1({ startedAt: '2025-12-31T00:00:00.000Z' }) });
    const original = IDBObjectStore.prototype.add;
    let calls = 0;
    vi.spyOn(IDBObjectStore.prototype, 'add').mockImplementation(function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['add']>) {
      if (++calls === 2) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return original.apply(this, args);
    });
    await expect(importRuns(target, file)).rejects.toThrow(/browser storage is full \(QuotaExceededError\): the import \(3 runs\) was not saved/);
    vi.restoreAllMocks();
    expect((await listRuns(target)).map((r) => (r.result as { startedAt?: string } | null)?.startedAt)).toEqual(['2025-12-31T00:00:00.000Z']);
  });
});
