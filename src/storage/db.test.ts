// Schema migrations on fake-indexeddb: a database created at every earlier version, with
// records, opens at the current version with every record kept and brought up to date.
import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { adapterFingerprint } from '../core/adapter';
import { calibrationJson, CODE_HASH } from '../core/report/json';
import { sampleAdapter, sampleLane, sampleLevel1 } from '../../test/fixtures/sample-results';
import { DB_VERSION, MIGRATIONS, openLabDb, UNKNOWN_STAMP, type RunRecordV1 } from './db';
import { isStale, listRuns, saveRun } from './runs';

let dbCount = 0;
const freshName = () => `lab-test-${++dbCount}`;

const swiftshader = sampleAdapter();
const otherGpu = sampleAdapter({ vendor: 'nvidia', architecture: 'hopper', device: 'nvidia-h200', description: 'NVIDIA H200', isFallbackAdapter: false, runtime: 'node' });
const calibration = (adapter = swiftshader, measuredAt = '2026-02-01T00:00:00.000Z') =>
  calibrationJson({ kind: 'calibration', adapterFingerprint: adapterFingerprint(adapter), copyGBps: 12.5, f32Gflops: 40.25, f16Gflops: null, emptyDispatchNs: 21_000, measuredAt, details: ['copy: 8 MiB'] }, adapter);

/** Records as schema v1 stored them: no stamps, no (op, shape) keys. */
function v1Records(): RunRecordV1[] {
  const level1 = sampleLevel1();
  const lane = sampleLane();
  return [
    { kind: 'level1', adapterKey: adapterFingerprint(swiftshader), adapter: swiftshader, savedAt: '2026-01-01T10:00:00.000Z', result: level1, error: null, request: null },
    { kind: 'lane', adapterKey: adapterFingerprint(swiftshader), adapter: swiftshader, savedAt: '2026-01-02T10:00:00.000Z', result: lane, error: null, request: null },
    { kind: 'level1', adapterKey: adapterFingerprint(otherGpu), adapter: otherGpu, savedAt: '2026-01-03T10:00:00.000Z', result: null, error: { name: 'WgslCompileError', message: "error at line 3:5: unresolved value 'srcZ'" }, request: { op: 'ADD', dims: [64, 4] } },
    { kind: 'calibration', adapterKey: adapterFingerprint(swiftshader), adapter: swiftshader, savedAt: '2026-01-04T10:00:00.000Z', result: calibration(swiftshader, '2026-01-04T10:00:00.000Z'), error: null, request: null },
    { kind: 'calibration', adapterKey: adapterFingerprint(swiftshader), adapter: swiftshader, savedAt: '2026-01-05T10:00:00.000Z', result: calibration(swiftshader, '2026-01-05T10:00:00.000Z'), error: null, request: null },
  ];
}

/** Creates a database at `version` through the same migration steps, then stores `records` raw. */
async function databaseAt(version: number, records: object[]): Promise<string> {
  const name = freshName();
  const db = await openLabDb({ name, version });
  expect(db.version).toBe(version);
  const tx = db.transaction('runs', 'readwrite');
  for (const r of records) await tx.store.add(r as never);
  await tx.done;
  db.close();
  return name;
}

describe('schema migrations', () => {
  it('has a step for every version up to the current one', () => {
    expect(MIGRATIONS).toHaveLength(DB_VERSION);
    expect(DB_VERSION).toBe(4);
  });

  it('v1 → current: every record kept, stamps unknown (stale), (op, shape) keys and calibrations filled', async () => {
    const records = v1Records();
    const name = await databaseAt(1, records);
    const db = await openLabDb({ name });
    expect(db.version).toBe(DB_VERSION);
    expect([...db.objectStoreNames].sort()).toEqual(['calibrations', 'runs', 'userKernels']);
    const runs = await db.getAll('runs');
    expect(runs).toHaveLength(records.length);
    for (const [i, r] of runs.entries()) {
      expect(r).toMatchObject({ ...records[i], labVersion: UNKNOWN_STAMP, codeHash: UNKNOWN_STAMP });
      expect(isStale(r)).toBe(true);
    }
    expect(runs[0].opShapes).toEqual(['ADD 256x16 inplace']);
    expect(runs[1].opShapes.length).toBe(sampleLane().pairs.reduce((a, p) => a + p.shapes.length, 0));
    expect(runs[2].opShapes).toEqual([]);
    // The (op, shape) index finds the Level 1 run and the lane that measured the same case.
    const addSmall = await db.getAllKeysFromIndex('runs', 'by-op-shape', 'ADD 256x16 inplace');
    expect(addSmall).toEqual([runs[0].id]);
    const lanesOnRms = await db.getAllFromIndex('runs', 'by-op-shape', `RMS_NORM ${sampleLane().pairs[1].shapes[0].shape}`);
    expect(lanesOnRms.map((r) => r.kind)).toEqual(['lane']);
    // The adapter index still answers per adapter.
    expect(await db.countFromIndex('runs', 'by-adapter', adapterFingerprint(otherGpu))).toBe(1);
    // v3 kept the latest calibration per adapter, pointing at its run.
    const cal = await db.get('calibrations', adapterFingerprint(swiftshader));
    expect(cal).toMatchObject({ runId: runs[4].id, savedAt: '2026-01-05T10:00:00.000Z' });
    expect(cal?.calibration.measuredAt).toBe('2026-01-05T10:00:00.000Z');
    db.close();
  });

  it('v2 → current: every record kept with its stamps, calibrations filled', async () => {
    const records = v1Records().map((r, i) => ({ ...r, labVersion: '0.0.9', codeHash: i === 0 ? CODE_HASH : 'abc123def456', opShapes: [] }));
    const name = await databaseAt(2, records);
    const db = await openLabDb({ name });
    const runs = await db.getAll('runs');
    expect(runs).toHaveLength(records.length);
    for (const [i, r] of runs.entries()) expect(r).toEqual({ ...records[i], id: r.id });
    expect(runs.map((r) => isStale(r))).toEqual([false, true, true, true, true]);
    expect((await db.get('calibrations', adapterFingerprint(swiftshader)))?.runId).toBe(runs[4].id);
    db.close();
  });

  it('a new database starts at the current version and takes runs of every kind', async () => {
    const db = await openLabDb({ name: freshName() });
    expect(db.version).toBe(DB_VERSION);
    await saveRun(db, 'level1', { result: sampleLevel1() });
    await saveRun(db, 'lane', { result: sampleLane() });
    await saveRun(db, 'calibration', { result: calibration() });
    await saveRun(db, 'sweep', { error: { name: 'UsageError', message: 'no shape of ADD is inside the generated contract' }, adapter: swiftshader, request: { op: 'ADD' } });
    expect((await listRuns(db)).map((r) => r.kind)).toHaveLength(4);
    db.close();
  });

  it('a migration that fails leaves the database at its old version with every record', async () => {
    const records = v1Records();
    const name = await databaseAt(1, records);
    // A step that throws after touching records aborts the one upgrade transaction.
    const broken = [
      ...MIGRATIONS.slice(0, 2),
      async (...args: Parameters<(typeof MIGRATIONS)[number]>) => {
        await MIGRATIONS[2](...args);
        throw new Error('planted failure');
      },
    ];
    await expect(openLabDb({ name, migrations: broken })).rejects.toThrow();
    const raw = await openDB(name);
    expect(raw.version).toBe(1);
    const runs = await raw.getAll('runs');
    expect(runs).toHaveLength(records.length);
    expect(runs[0]).not.toHaveProperty('codeHash');
    raw.close();
  });
});
