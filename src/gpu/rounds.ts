// The one alternating-round driver: sessions timed in rounds whose order reverses every round
// (A B C, then C B A, …), so drift and warm caches favour no side. The lane times native against
// generated this way, the sweep its reference against every live candidate. The first side is
// the reference: hooks get its median so far (the watchdog's yardstick).
import { UNIT_MEASURE, type ProgressTracker } from '../core/progress';
import { median, type TimingSummary } from '../core/stats/timing';
import type { GpuContext } from './device';
import { measure } from './measure';
import type { Session } from './session';

export interface RoundSide {
  readonly name: string;
  readonly session: Session;
  /** One median per round in which the side was measured, ns. */
  readonly samplesNs: number[];
  /** Runs per measurement: starts at the caller's minimum, then what the last measurement used. */
  runs: number | undefined;
  /** Why the side is no longer measured (null while it is). */
  stopped: string | null;
}

export function roundSide(name: string, session: Session, minRuns?: number): RoundSide {
  return { name, session, samplesNs: [], runs: minRuns, stopped: null };
}

/** The order of round `round`: as given on even rounds, reversed on odd ones. */
export function roundOrder<T>(sides: readonly T[], round: number): T[] {
  return round % 2 === 0 ? [...sides] : [...sides].reverse();
}

export interface RoundHooks {
  /** Before a side is measured: a reason to stop it instead (the lane's one-run watchdog probe). */
  before?(side: RoundSide, round: number, referenceNs: number | null): Promise<string | null> | string | null;
  /** After a side was measured: a reason to stop measuring it (the watchdog). */
  after?(side: RoundSide, t: TimingSummary, round: number, referenceNs: number | null): string | null;
  /** Before each measurement: say what runs (progress). */
  onSide?(side: RoundSide, round: number): void;
  /** Each round's medians by side name, for the sides measured in it. */
  onRound?(round: number, mediansNs: ReadonlyMap<string, number>): void;
  /** After a round: end all rounds here. */
  done?(): boolean;
}

export interface RoundOptions {
  rounds: number;
  wallBoundMs: number;
  /** One unit per measurement; measurements that will not run are dropped from its total. */
  progress?: ProgressTracker;
}

export async function alternatingRounds(ctx: GpuContext, sides: readonly RoundSide[], o: RoundOptions, hooks: RoundHooks = {}): Promise<void> {
  const reference = sides[0];
  const referenceNs = () => (reference.samplesNs.length ? median(reference.samplesNs) : null);
  const stop = (side: RoundSide, why: string, round: number, measured: boolean) => {
    side.stopped = why;
    // The side's measurements still to come will not run.
    o.progress?.drop(o.rounds - round - (measured ? 1 : 0), UNIT_MEASURE);
  };
  let round = 0;
  for (; round < o.rounds; round++) {
    const medians = new Map<string, number>();
    for (const side of roundOrder(sides, round)) {
      if (side.stopped) continue;
      hooks.onSide?.(side, round);
      const refused = (await hooks.before?.(side, round, referenceNs())) ?? null;
      if (refused) {
        stop(side, refused, round, false);
        continue;
      }
      const t = await measure(ctx, side.session, { minRuns: side.runs, wallBoundMs: o.wallBoundMs });
      side.runs = t.runs;
      side.samplesNs.push(t.medianNs);
      medians.set(side.name, t.medianNs);
      o.progress?.advance(1, UNIT_MEASURE);
      const why = hooks.after?.(side, t, round, referenceNs()) ?? null;
      if (why) stop(side, why, round, true);
    }
    hooks.onRound?.(round, medians);
    if (hooks.done?.()) {
      round++;
      break;
    }
  }
  // Rounds never run: their measurements of the sides still live leave the total.
  o.progress?.drop((o.rounds - round) * sides.filter((s) => !s.stopped).length, UNIT_MEASURE);
}
