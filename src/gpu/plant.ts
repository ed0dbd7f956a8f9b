// Sizes a planted `slow:F` control by measurement (src/core/lane/plant.ts builds it): Level 1
// times native and the planted kernel alternately, the chain length is adjusted until the ratio
// is F within ±1 point, and a second, fresh measurement must agree before the passes; otherwise
// the shape is refused as a control, with the smallest factor it could take when that is known.
import type { KernelSpec } from '../core/kernel';
import { inBand, nextIterations, PLANT_FIRST_ITERATIONS, PLANT_MAX_ATTEMPTS, plantedProgram, refusal, type PlantAttempt, type PlantRecord } from '../core/lane/plant';
import type { KernelProgram } from '../core/program';
import type { OpCase, OracleResult } from '../core/ops/types';
import { median } from '../core/stats/timing';
import { checkedSession } from './checked';
import type { GpuContext } from './device';
import { measure } from './measure';
import type { Session } from './session';

/** Alternating native/planted measurements per ratio: one Level 1 median each, the ratio their median. */
const PAIRS_PER_RATIO = 3;

/**
 * The chain length that planted F on a kernel and shape before, per device: a replay starts there
 * (one measurement and its verification instead of a search), and still verifies it.
 */
const known = new WeakMap<GpuContext, Map<string, number>>();

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
  const cache = known.get(ctx) ?? new Map<string, number>();
  known.set(ctx, cache);
  const key = `${nativeKernel.label}\u0000${c.label}\u0000${factor}`;
  const attempts: PlantAttempt[] = [];
  const measureAt = async (iterations: number): Promise<number> => {
    const kernel = plantedProgram(nativeKernel, factor, iterations);
    const checked = await checkedSession(ctx, kernel, c, inputs, [oracle], nativeSession);
    try {
      if (!checked.correct) throw new Error(`the planted ${factor}× control changed the output of ${c.label}: it cannot be used on this case`);
      const ratio = await plantedRatio(ctx, nativeSession, checked.session);
      attempts.push({ iterations, ratio });
      return ratio;
    } finally {
      checked.session.destroy();
    }
  };
  let iterations: number | null = cache.get(key) ?? PLANT_FIRST_ITERATIONS;
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
      const again = await measureAt(iterations);
      if (inBand(again, factor)) {
        cache.set(key, iterations);
        const record: PlantRecord = { askedFactor: factor, measuredFactor: again, iterations, attempts: attempts.length, refused: null, smallestFactor: null };
        return { kernel: plantedProgram(nativeKernel, factor, iterations), record };
      }
    }
    iterations = nextIterations(attempts, factor);
  }
  cache.delete(key);
  // The shortest chain is what a too-short kernel's refusal rests on: measure it when untried.
  if (!attempts.some((a) => a.iterations === 1) && attempts.every((a) => a.ratio > factor)) await measureAt(1);
  const why = refusal(attempts, factor);
  return refuse(why.refused, why.smallestFactor);
}
