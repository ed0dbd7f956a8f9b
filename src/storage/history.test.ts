import { OPS } from '../core/ops/registry';
// What History shows of stored runs: a line per run, the (op, shape) keys, and per (op, shape)
// the points of each run — a lane's own speedup, a Level 1 run's own time — stale ones marked.
import { describe, expect, it } from 'vitest';
import { CODE_HASH } from '../core/report/json';
import { sampleAdapter, sampleLane, sampleLevel1 } from '../../test/fixtures/sample-results';
import type { RunRecord } from './db';
import { latencySeries, opShapeKeys, runSummary, speedupSeries } from './history';
import { runRecord } from './runs';

let nextId = 1;
function stored(r: Omit<RunRecord, 'id'>, codeHash = CODE_HASH): RunRecord {
  return { ...r, id: nextId++, codeHash };
}

describe('history', () => {
  const level1 = stored(runRecord('level1', { result: sampleLevel1() }, '2026-03-01T10:00:00.000Z'));
  const lane = sampleLane();
  const key = `${lane.pairs[0].op} ${lane.pairs[0].shapes[0].shape}`;
  const laneOld = stored(runRecord('lane', { result: lane }, '2026-03-02T10:00:00.000Z'), 'old0code0000');
  const laneNew = stored(runRecord('lane', { result: sampleLane({ seed: 9 }) }, '2026-03-03T10:00:00.000Z'));
  const failed = stored(runRecord('level1', { error: { name: 'WgslCompileError', message: 'error at line 3:5\n  let a = srcZ' }, adapter: sampleAdapter(), request: { op: 'ADD', dims: [64, 4] } }, '2026-03-04T10:00:00.000Z'));

  it('summarizes each kind of run in one line', () => {
    expect(runSummary(level1)).toEqual({ what: 'ADD 256x16 inplace · generated', verdict: 'correct', tone: 'good', headline: '12.35 µs [10.24–19.88]' });
    const hung = stored(runRecord('level1', { result: { ...sampleLevel1(), correct: false, timing: null, metrics: null, verdict: 'too-slow', watchdog: { boundMs: 30_000, recoveryMs: null, note: 'hung: …' } } }, '2026-03-01T11:00:00.000Z'));
    expect(runSummary(hung)).toEqual({ what: 'ADD 256x16 inplace · generated', verdict: 'too-slow', tone: 'bad', headline: 'ended by the watchdog at 30000 ms' });
    // Every op's whole matrix: the counts follow the registry as ops are added.
    const shapes = OPS.reduce((n, op) => n + op.matrix.length, 0);
    expect(runSummary(laneOld)).toMatchObject({ what: `lane · ${OPS.map((o) => o.name).join(', ')} · ${shapes} shapes`, verdict: 'green', tone: 'good' });
    expect(runSummary(laneOld).headline).toMatch(/^(faster|parity|within-tolerance|slower) \d+/);
    expect(runSummary(failed)).toEqual({ what: 'level1 · ADD 64x4', verdict: 'failed', tone: 'bad', headline: 'WgslCompileError: error at line 3:5' });
  });

  it('lists the (op, shape) keys, the most recently measured first', () => {
    const keys = opShapeKeys([level1, laneOld, laneNew, failed]);
    // The latest lane's shapes first, in the order it measured them (History opens on its first),
    // then the Level 1 run's.
    const n = laneNew.opShapes.length;
    expect(keys).toHaveLength(n + 1);
    expect(keys.slice(0, n)).toEqual([...laneNew.opShapes]);
    expect(keys[0]).toBe(key);
    expect(keys[n]).toBe('ADD 256x16 inplace');
  });

  it("plots each lane's own speedup, stale runs marked, oldest first", () => {
    const points = speedupSeries([laneNew, level1, laneOld], key);
    expect(points.map((p) => [p.runId, p.stale])).toEqual([
      [laneOld.id, true],
      [laneNew.id, false],
    ]);
    expect(points[0]).toMatchObject({ median: lane.pairs[0].shapes[0].speedupMedian, min: lane.pairs[0].shapes[0].speedupMin, max: lane.pairs[0].shapes[0].speedupMax });
    expect(speedupSeries([level1], 'ADD 256x16 inplace')).toEqual([]);
  });

  it('plots Level 1 times alone, never as ratios', () => {
    expect(latencySeries([level1, laneOld], 'ADD 256x16 inplace')).toEqual([{ tSec: Date.parse('2026-03-01T10:00:00.000Z') / 1000, runId: level1.id, stale: false, variant: 'generated', medianNs: 12_345.678 }]);
  });
});
