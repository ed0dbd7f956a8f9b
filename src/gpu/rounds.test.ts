// The round driver over fake sessions: a session's time(n) reports n runs of a fixed duration,
// so measure() settles on that duration in one batch and the driver's order and stops show.
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../core/adapter';
import { ProgressTracker, UNIT_MEASURE } from '../core/progress';
import type { GpuContext } from './device';
import { alternatingRounds, roundOrder, roundSide } from './rounds';
import type { Session } from './session';

const ctx = { adapter: { isFallbackAdapter: true, limits: DEFAULT_LIMITS }, hasTimestamps: true, lastGpuBusyMs: 0 } as unknown as GpuContext;

function fakeSession(name: string, runNs: number, log: string[]): Session {
  return {
    async time(runs: number) {
      log.push(name);
      // Runs start 10 007 ns apart (gcd 1 with the durations: a 1 ns timer).
      const timestamps: bigint[] = [];
      for (let i = 0; i < runs; i++) timestamps.push(BigInt(i * 10007), BigInt(i * 10007 + runNs));
      return { timestamps };
    },
  } as unknown as Session;
}

describe('roundOrder', () => {
  it('reverses on odd rounds', () => {
    expect(roundOrder(['ref', 'a', 'b'], 0)).toEqual(['ref', 'a', 'b']);
    expect(roundOrder(['ref', 'a', 'b'], 1)).toEqual(['b', 'a', 'ref']);
    expect(roundOrder(['ref', 'a', 'b'], 2)).toEqual(['ref', 'a', 'b']);
  });
});

describe('alternatingRounds', () => {
  it('measures every side each round in alternating order, with the reference median for hooks', async () => {
    const log: string[] = [];
    const ref = roundSide('ref', fakeSession('ref', 1201, log), 16);
    const cand = roundSide('cand', fakeSession('cand', 601, log), 16);
    const rounds: [number, number][] = [];
    const refSeen: (number | null)[] = [];
    const progress = new ProgressTracker({ [UNIT_MEASURE]: 6 }, undefined, () => 0);
    await alternatingRounds(ctx, [ref, cand], { rounds: 3, wallBoundMs: 1000, progress }, {
      after: (side, _t, _r, refNs) => {
        if (side === cand) refSeen.push(refNs);
        return null;
      },
      onRound: (_r, m) => rounds.push([m.get('ref')!, m.get('cand')!]),
    });
    expect(log).toEqual(['ref', 'cand', 'cand', 'ref', 'ref', 'cand']);
    expect(rounds).toEqual([[1201, 601], [1201, 601], [1201, 601]]);
    expect(refSeen).toEqual([1201, 1201, 1201]);
    expect(ref.samplesNs).toEqual([1201, 1201, 1201]);
    expect(cand.runs).toBe(16);
    expect([progress.doneUnits, progress.totalUnits]).toEqual([6, 6]);
  });

  it('a stopped side is not measured again; its measurements to come leave the progress total', async () => {
    const log: string[] = [];
    const ref = roundSide('ref', fakeSession('ref', 1001, log));
    const slow = roundSide('slow', fakeSession('slow', 150001, log));
    const fast = roundSide('fast', fakeSession('fast', 901, log));
    const progress = new ProgressTracker({ [UNIT_MEASURE]: 3 * 4 }, undefined, () => 0);
    await alternatingRounds(ctx, [ref, slow, fast], { rounds: 4, wallBoundMs: 1000, progress }, {
      after: (side, t, _r, refNs) => (side !== ref && refNs !== null && t.medianNs > 100 * refNs ? `over 100× (${t.medianNs} ns)` : null),
    });
    expect(log).toEqual(['ref', 'slow', 'fast', 'fast', 'ref', 'ref', 'fast', 'fast', 'ref']);
    expect(slow.stopped).toBe('over 100× (150001 ns)');
    expect(slow.samplesNs).toEqual([150001]);
    // 9 measured, the slow side's 3 later rounds dropped.
    expect([progress.doneUnits, progress.totalUnits]).toEqual([9, 9]);
  });

  it('a refusal before measuring skips the side; done() ends the rounds and drops the rest', async () => {
    const log: string[] = [];
    const ref = roundSide('ref', fakeSession('ref', 1001, log));
    const gen = roundSide('gen', fakeSession('gen', 2001, log));
    const progress = new ProgressTracker({ [UNIT_MEASURE]: 2 * 5 }, undefined, () => 0);
    let rounds = 0;
    await alternatingRounds(ctx, [ref, gen], { rounds: 5, wallBoundMs: 1000, progress }, {
      before: (side, round) => (side === gen && round === 0 ? 'probe: too slow' : null),
      onRound: () => rounds++,
      done: () => gen.stopped !== null,
    });
    expect(log).toEqual(['ref']);
    expect(rounds).toBe(1);
    expect(gen).toMatchObject({ stopped: 'probe: too slow', samplesNs: [] });
    expect([progress.doneUnits, progress.totalUnits]).toEqual([1, 1]);
  });
});
