import { describe, expect, it } from 'vitest';
import { estimateTimeLeftMs, ProgressTracker, ReplayProgress, UNIT_CHECK, UNIT_MEASURE, type Progress } from './progress';

function fakeClock(startMs = 1000) {
  let t = startMs;
  return { now: () => t, step: (ms: number) => (t += ms) };
}

describe('estimateTimeLeftMs', () => {
  it('is the measured rate times the units left', () => {
    // 10 of 40 units in 2 s: 200 ms a unit, 30 left → 6 s.
    expect(estimateTimeLeftMs(10, 40, 2000)).toBe(6000);
    expect(estimateTimeLeftMs(40, 40, 2000)).toBe(0);
  });

  it('has no estimate before the first unit', () => {
    expect(estimateTimeLeftMs(0, 40, 500)).toBeNull();
  });
});

describe('ProgressTracker', () => {
  it('reports the fraction of work units done and the time left from the rate so far', () => {
    const clock = fakeClock();
    const seen: Progress[] = [];
    const t = new ProgressTracker(8, (p) => seen.push(p), clock.now);
    t.tick('start');
    clock.step(300);
    t.advance(2);
    t.tick('ADD 64x4 pass 1/3');
    expect(seen).toEqual([
      { label: 'start', fraction: 0, etaMs: null },
      // 2 units in 300 ms: 150 ms each, 6 left.
      { label: 'ADD 64x4 pass 1/3', fraction: 0.25, etaMs: 900 },
    ]);
  });

  it('within 30% after the first tenth when units cost the same', () => {
    // 100 units of 50 ms each: after 10 units (500 ms) it says 4.5 s, and 4.5 s is what is left.
    const clock = fakeClock();
    const t = new ProgressTracker(100, undefined, clock.now);
    for (let i = 0; i < 10; i++) {
      clock.step(50);
      t.advance();
    }
    expect(t.tick('x').etaMs).toBe(4500);
  });

  it('dropped units leave the total without counting as done', () => {
    const clock = fakeClock();
    const t = new ProgressTracker(10, undefined, clock.now);
    clock.step(400);
    t.advance(2);
    t.drop(4); // a shape ended early: 4 of its passes never run
    const p = t.tick('next');
    expect(t.totalUnits).toBe(6);
    expect(p.fraction).toBeCloseTo(2 / 6, 12);
    expect(p.etaMs).toBe(800); // 200 ms a unit, 4 left
    t.drop(100);
    expect(t.totalUnits).toBe(2); // never below what is done
  });

  it('never passes 1, finishes at 1 with no time left, and an empty run is complete', () => {
    const seen: Progress[] = [];
    const t = new ProgressTracker(3, (p) => seen.push(p), () => 0);
    t.advance(5);
    expect(t.doneUnits).toBe(3);
    t.finish();
    expect(seen.at(-1)).toEqual({ label: 'done', fraction: 1, etaMs: 0 });
    expect(new ProgressTracker(0, undefined, () => 0).tick('none').fraction).toBe(1);
  });

  it('refuses a total that is not a finite count', () => {
    expect(() => new ProgressTracker(-1, undefined, () => 0)).toThrow(/finite number ≥ 0, got -1/);
    expect(() => new ProgressTracker(NaN, undefined, () => 0)).toThrow(/got NaN/);
  });

  it('rates each kind of unit on its own: a costly check does not inflate the measurements', () => {
    // A lane shape: 2 checks of 1 s each, then 10 measurements of 100 ms each.
    const clock = fakeClock();
    const t = new ProgressTracker({ [UNIT_CHECK]: 2, [UNIT_MEASURE]: 10 }, undefined, clock.now);
    clock.step(1000);
    t.advance(1, UNIT_CHECK);
    // One check done: no rate for measurements yet, so the overall one (1 s) stands in for them:
    // 1 check × 1 s + 10 measurements × 1 s.
    expect(t.tick('x').etaMs).toBe(11_000);
    clock.step(1000);
    t.advance(1, UNIT_CHECK);
    clock.step(100);
    t.advance(1, UNIT_MEASURE);
    // 9 measurements left at their own 100 ms: 900 ms — what is really left (one overall rate
    // would have said 9 × 2100/3 = 6.3 s, seven times too long).
    expect(t.tick('y').etaMs).toBeCloseTo(900, 9);
    expect([t.doneOf(UNIT_CHECK), t.totalOf(UNIT_MEASURE), t.doneUnits, t.totalUnits]).toEqual([2, 10, 3, 12]);
    t.drop(4, UNIT_MEASURE);
    expect(t.tick('z').etaMs).toBeCloseTo(500, 9);
    expect(() => t.advance(1, 'other')).toThrow(/no progress units of kind 'other'/);
  });

  it('takes the typical unit, not the mean: a costly first measurement does not skew the rest', () => {
    // 10 measurements: the first searches its run count (1 s), the others take 100 ms each.
    const clock = fakeClock();
    const t = new ProgressTracker({ [UNIT_MEASURE]: 10 }, undefined, clock.now);
    for (const ms of [1000, 100, 100]) {
      clock.step(ms);
      t.advance(1, UNIT_MEASURE);
    }
    // 7 left × 100 ms = 700 ms, which is what is left (a mean, 400 ms a unit, said 2.8 s).
    expect(t.tick('m').etaMs).toBe(700);
  });
});

describe('ReplayProgress', () => {
  // The H200 replay lane of issue 22: the first replay spent 30 s building inputs and oracles, then
  // each replay (the first included) 2.7 s of GPU work and checks; ten replays.
  const BUILD_MS = 30_000;
  const REPLAY_MS = 2_700;

  it('after the first tenth, the time left is the later replays at their own pace (within 30%)', () => {
    let t = 0;
    const r = new ReplayProgress(10, () => t);
    // Mid first replay, its own tracker says 10 s left: the estimate can only scale that.
    t = 20_000;
    expect(r.of(0, { label: 'x', fraction: 0.5, etaMs: 10_000 })).toMatchObject({ fraction: 0.05, etaMs: 10_000 + 9 * 30_000 });
    t = BUILD_MS + REPLAY_MS;
    r.done(BUILD_MS);
    const trueLeftMs = 9 * REPLAY_MS;
    const first = r.of(1, { label: 'replay 2/10', fraction: 0, etaMs: null });
    expect(first.fraction).toBeCloseTo(0.1);
    expect(Math.abs(first.etaMs! - trueLeftMs) / trueLeftMs).toBeLessThan(0.3);
    // Later replays: their measured median.
    for (let i = 1; i < 4; i++) {
      t += REPLAY_MS * (i === 2 ? 1.2 : 1);
      r.done();
    }
    expect(r.perReplayMs()).toBe(REPLAY_MS);
    expect(r.of(4, { label: 'y', fraction: 0.5, etaMs: 1_350 }).etaMs).toBe(1_350 + 5 * REPLAY_MS);
  });

  it('estimates per shape from the measured times, less the one-time work (issue 22: 512–980 s said for a 27 s run)', () => {
    // Four shapes of very different lengths; the first replay also builds inputs and oracles,
    // checks outputs and calibrates plants (onceMs), most of it on the first, largest shape.
    const shapeMs = { 'ADD 4096x4096': 900, 'RMS_NORM 4096x4096': 600, 'MUL_MAT 4096x1x4096': 200, 'MUL_MAT 4096x512x4096': 1000 };
    const onceMsOf: Record<string, number> = { 'ADD 4096x4096': 20_000, 'RMS_NORM 4096x4096': 6_000, 'MUL_MAT 4096x1x4096': 1_000, 'MUL_MAT 4096x512x4096': 3_000 };
    const replays = 10;
    const perReplayMs = Object.values(shapeMs).reduce((a, b) => a + b, 0);
    let t = 0;
    const r = new ReplayProgress(replays, () => t);
    const etas: { atMs: number; etaMs: number | null; leftMs: number }[] = [];
    let endMs = 0;
    let firstEndMs = 0;
    // The true end: the first replay's one-time work plus every replay's shapes.
    const totalMs = Object.values(onceMsOf).reduce((a, b) => a + b, 0) + replays * perReplayMs;
    for (let i = 0; i < replays; i++) {
      let once = 0;
      for (const [item, ms] of Object.entries(shapeMs)) {
        const steps = 5;
        const own = i === 0 ? onceMsOf[item] : 0;
        for (let k = 0; k < steps; k++) {
          // A step's report comes as it starts; the one-time work is done at the shape's start.
          if (k === 1) once += own;
          const p = r.of(i, { label: `${item}: step ${k}`, fraction: 0.5, etaMs: 123_456, item, onceMs: once });
          etas.push({ atMs: t, etaMs: p.etaMs, leftMs: totalMs - t });
          t += (k === 0 ? own : 0) + ms / steps;
        }
      }
      r.of(i, { label: 'done', fraction: 1, etaMs: 0, onceMs: once });
      r.done();
      if (i === 0) firstEndMs = t;
      endMs = t;
    }
    expect(endMs).toBe(totalMs);
    // After the first tenth of the replays (the first one, half the run's time here), every
    // estimate is within 30% of what was left.
    const later = etas.filter((e) => e.atMs >= firstEndMs && e.leftMs > 0);
    expect(later.length).toBeGreaterThan(150);
    for (const e of later) expect(Math.abs(e.etaMs! - e.leftMs) / e.leftMs, `at ${e.atMs} ms`).toBeLessThan(0.3);
    // Right after the first replay: exactly the nine replays' shapes.
    expect(r.perReplayMs()).toBe(perReplayMs);
  });

  it('without an estimate from the replay, says nothing until the first replay ends', () => {
    const r = new ReplayProgress(3, () => 0);
    expect(r.of(0, { label: 'x', fraction: 0, etaMs: null }).etaMs).toBeNull();
  });
});
