// Formats runs in the lab's database (fake-indexeddb): stored under their adapter (the descriptor,
// not the name), keyed by (op, shape, format) for History's series, summarized in History's list,
// read back whole, and through an export file and back — with no schema change: older records
// stay readable beside them.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { sampleFormats } from '../../test/fixtures/sample-formats';
import { sampleAdapter, sampleLevel1 } from '../../test/fixtures/sample-results';
import { adapterFingerprint } from '../core/adapter';
import { DB_VERSION, openLabDb } from './db';
import { latencySeries, runSummary } from './history';
import { exportFile, importRuns, listRuns, parseImport, saveRun } from './runs';
import { readStoredRuns } from './stored-runs';

let dbCount = 0;
const fresh = () => openLabDb({ name: `formats-runs-test-${++dbCount}` });
const h200 = sampleAdapter({ vendor: 'nvidia', architecture: 'hopper', device: 'nvidia-h200', description: 'FIXTURE: NVIDIA H200 (hand-made)', isFallbackAdapter: false, runtime: 'node' });

describe('formats runs in storage', () => {
  it('stores a formats run per adapter, keyed per format, summarized for History, beside other runs', async () => {
    expect(DB_VERSION).toBe(4); // no schema change for a new kind of result
    const db = await fresh();
    const level1 = await saveRun(db, 'level1', { result: sampleLevel1() });
    const mine = await saveRun(db, 'formats', { result: sampleFormats() });
    await saveRun(db, 'formats', { result: sampleFormats({ adapter: h200 }) });
    const here = await listRuns(db, adapterFingerprint(sampleAdapter()));
    expect(here.map((r) => r.id).sort()).toEqual([level1, mine].sort());
    const rec = here.find((r) => r.id === mine)!;
    expect(rec).toMatchObject({ kind: 'formats', adapter: sampleAdapter(), opShapes: ['MUL_MAT 32x16x64 type0=q4_0', 'MUL_MAT 32x16x64 type0=q4_k'], result: sampleFormats() });
    expect(runSummary(rec)).toEqual({ what: 'formats gemm · MUL_MAT 32x16x64 · 2 formats', verdict: '1 timed', tone: 'neutral', headline: 'fastest q4_0 7060.00 µs' });
    // Its timed format joins the Level 1 latency series of the same case; the refused one has no point.
    expect(latencySeries(here, 'MUL_MAT 32x16x64 type0=q4_0')).toEqual([expect.objectContaining({ runId: mine, variant: 'generated', medianNs: 7060000 })]);
    expect(latencySeries(here, 'MUL_MAT 32x16x64 type0=q4_k')).toEqual([]);
    const { runs, damaged } = await readStoredRuns(db);
    expect(damaged).toEqual([]);
    expect(runs).toHaveLength(3);
    db.close();
  });

  it('a wrong format makes the History line say so', async () => {
    const run = sampleFormats();
    const wrong = { ...run, rows: [{ ...run.rows[0], correct: false, medianNs: null, reason: 'wrong: maxErr 1.00e+0 over bound 1.00e-3' }, run.rows[1]] };
    const db = await fresh();
    const id = await saveRun(db, 'formats', { result: wrong });
    const rec = (await listRuns(db)).find((r) => r.id === id)!;
    expect(runSummary(rec)).toMatchObject({ verdict: '1 WRONG', tone: 'bad', headline: 'none timed' });
    db.close();
  });

  it('exports and imports formats runs; the CLI --json file imports as it is', async () => {
    const db = await fresh();
    await saveRun(db, 'formats', { result: sampleFormats() });
    const file = JSON.parse(JSON.stringify(exportFile(await listRuns(db))));
    const other = await fresh();
    expect(await importRuns(other, file)).toEqual({ added: 1, duplicates: 0 });
    expect(await importRuns(other, file)).toEqual({ added: 0, duplicates: 1 });
    expect((await listRuns(other))[0]).toMatchObject({ kind: 'formats', result: sampleFormats() });
    expect(parseImport(JSON.parse(JSON.stringify(sampleFormats({ startedAt: '2026-12-02T08:00:00.000Z' }))))).toMatchObject([{ kind: 'formats', adapterKey: adapterFingerprint(sampleAdapter()) }]);
    db.close();
    other.close();
  });
});
