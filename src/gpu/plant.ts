// Sizes a planted `slow:F` control by measurement (src/core/lane/plant.ts builds it): Level 1
// times native and the planted kernel alternately, the chain length is adjusted until the ratio
// is F within ±1 point, and a second, fresh measurement must agree before the passes; otherwise
// the shape is refused as a control, with the smallest factor it could take when that is known.
import type { KernelSpec } from '../core/kernel';
import { inBand, nextIterations, PLANT_FIRST_ITERATIONS, PLANT_MAX_ATTEMPTS, plantedProgram, refusal, type PlantAttempt, type PlantRecord } from '../core/lane/plant';
import type { KernelProgram } from '../core/program';
import type { OpCase, OracleResult } from '../core/ops/types';
import { median } from '../core/stats/timing';
import { checkedSession, programKey } from './checked';
import type { GpuContext } from './device';
import { measure } from './measure';
import { Session } from './session';

/** Alternating native/planted measurements per ratio: one Level 1 median each, the ratio their median. */
const PAIRS_PER_RATIO = 3;

/**
 * The plants placed (or refused) per kernel, shape and factor in this process's run: calibrated and
 * verified by Level 1 once, then reused by every replay (issue 22: a four-shape sensitivity run
 * re-measured each plant twelve times per replay). Keyed by the context's host cache, which lives
 * as long as the engine, across the watchdog's device recreations.
 */
const known = new WeakMap<object, Map<string, Plant>>();

/** Plant work in a run, for the counts a test pins: searches run, Level 1 ratios measured, plants reused. */
export interface PlantCounts {
  calibrations: number;
  ratiosMeasured: number;
  reused: number;
  /** Wall time spent calibrating, ms (one-time work a replay's estimate leaves out). */
  calibrationMs: number;
}
const counts = new WeakMap<object, PlantCounts>();

export function plantCounts(ctx: GpuContext): PlantCounts {
  let c = counts.get(ctx.host);
  if (!c) counts.set(ctx.host, (c = { calibrations: 0, ratiosMeasured: 0, reused: 0, calibrationMs: 0 }));
  return c;
}

export interface Plant {
  readonly kernel: KernelProgram | null;
  readonly record: PlantRecord;
}

async function plantedRatio(ctx: GpuContext, native: Session, planted: Session): Promise<number> {
  const ratios: number[] = [];
  for (let i = 0; i < PAIRS_PER_RATIO; i++) {
    // Alternating order, like the lane's passes: drift favours neither side.
    const order = i % 2 === 0 ? [native, planted] : [planted, native];
    const t = new Map<Session, number>();
    for (const s of order) t.set(s, (await measure(ctx, s)).medianNs);
    ratios.push(t.get(planted)! / t.get(native)!);
  }
  return median(ratios);
}

export async function plantSlowdown(ctx: GpuContext, nativeKernel: KernelSpec, nativeSession: Session, c: OpCase, inputs: readonly ArrayBuffer[], oracle: OracleResult, factor: number): Promise<Plant> {
  const cache = known.get(ctx.host) ?? new Map<string, Plant>();
  known.set(ctx.host, cache);
  const key = `${programKey(nativeKernel, c)}\u0000${factor}`;
  const n = plantCounts(ctx);
  const before = cache.get(key);
  if (before) {
    n.reused++;
    return before;
  }
  n.calibrations++;
  const t0 = performance.now();
  const placed = await calibrate(ctx, nativeKernel, nativeSession, c, inputs, oracle, factor).finally(() => (n.calibrationMs += performance.now() - t0));
  cache.set(key, placed);
  return placed;
}

async function calibrate(ctx: GpuContext, nativeKernel: KernelSpec, nativeSession: Session, c: OpCase, inputs: readonly ArrayBuffer[], oracle: OracleResult, factor: number): Promise<Plant> {
  const attempts: PlantAttempt[] = [];
  /**
   * One ratio at a chain length. Only the plant about to be used (`check`: its verification) is
   * read back and checked against the oracle: the lengths a search passes through are timed only
   * (each check of a 4096² output is ~1 s of host time on the H200, and the GPU idles into a full
   * warm-up behind it).
   */
  const measureAt = async (iterations: number, check = false): Promise<number> => {
    const kernel = plantedProgram(nativeKernel, factor, iterations);
    let session: Session;
    if (check) {
      const checked = await checkedSession(ctx, kernel, c, inputs, [oracle], nativeSession, true);
      session = checked.session;
      if (!checked.correct) {
        session.destroy();
        throw new Error(`the planted ${factor}× control changed the output of ${c.label}: it cannot be used on this case`);
      }
    } else {
      session = await Session.prepare(ctx, kernel, c, inputs, nativeSession);
    }
    try {
      if (!check) session.upload();
      plantCounts(ctx).ratiosMeasured++;
      const ratio = await plantedRatio(ctx, nativeSession, session);
      attempts.push({ iterations, ratio });
      return ratio;
    } finally {
      session.destroy();
    }
  };
  let iterations: number | null = PLANT_FIRST_ITERATIONS;
  const refuse = (refused: string, smallestFactor: number | null): Plant => ({ kernel: null, record: { askedFactor: factor, measuredFactor: null, iterations: null, attempts: attempts.length, refused, smallestFactor } });
  while (iterations !== null && attempts.length < PLANT_MAX_ATTEMPTS) {
    let ratio: number;
    try {
      ratio = await measureAt(iterations);
    } catch (e) {
      // A kernel the plant cannot be woven into (its entry point's shape) is no control, not a lane failure.
      if (!['DeviceRejection', 'WgslCompileError'].includes((e as Error)?.name) && !/entry point/.test((e as Error)?.message)) throw e;
      return refuse(`the plant does not fit this kernel: ${(e as Error).message}`, null);
    }
    if (inBand(ratio, factor)) {
      // Verified by a second, fresh measurement of the same plant before it is used.
      const again = await measureAt(iterations, true);
      if (inBand(again, factor)) {
        const record: PlantRecord = { askedFactor: factor, measuredFactor: again, iterations, attempts: attempts.length, refused: null, smallestFactor: null };
        return { kernel: plantedProgram(nativeKernel, factor, iterations), record };
      }
    }
    iterations = nextIterations(attempts, factor);
  }
  // The shortest chain is what a too-short kernel's refusal rests on: measure it when untried.
  if (!attempts.some((a) => a.iterations === 1) && attempts.every((a) => a.ratio > factor)) await measureAt(1);
  const why = refusal(attempts, factor);
  return refuse(why.refused, why.smallestFactor);
}
