// Level 1 timing: grow the batch until its timed span is ≥ 100× the timer's resolution, under a
// wall-clock bound; fall back to wall clock (marked) without timestamp-query.
import { resolutionFromTimestamps, runDurationsNs, runsForSpan, summarize, summarizeTimestamps, type TimingSummary } from '../core/stats/timing';
import type { GpuContext } from './device';
import type { Session } from './session';

export interface MeasureOptions {
  /** Runs in the first batch (default 16). */
  minRuns?: number;
  /** Never more runs than this in one measurement (default 16384). */
  maxRuns?: number;
  /** Keep one batch under this wall time (default 2000 ms): the watchdog's bound. */
  wallBoundMs?: number;
  /** A prior estimate of one run, to size the first batch. */
  perRunEstimateNs?: number;
}

/** Timer resolution learned per device: the smallest seen so far (quantization does not change). */
const knownResolution = new WeakMap<GpuContext, number>();

export async function measure(ctx: GpuContext, session: Session, opts: MeasureOptions = {}): Promise<TimingSummary> {
  return ctx.hasTimestamps ? measureTimestamps(ctx, session, opts) : measureWallclock(session, opts);
}

function capByWall(runs: number, perRunNs: number | undefined, wallBoundMs: number): number {
  if (!perRunNs || perRunNs <= 0) return runs;
  return Math.max(1, Math.min(runs, Math.floor((wallBoundMs * 1e6) / perRunNs)));
}

async function measureTimestamps(ctx: GpuContext, session: Session, opts: MeasureOptions): Promise<TimingSummary> {
  const maxRuns = opts.maxRuns ?? 16384;
  const wallBoundMs = opts.wallBoundMs ?? 2000;
  let runs = capByWall(opts.minRuns ?? 16, opts.perRunEstimateNs, wallBoundMs);
  for (;;) {
    const { timestamps } = await session.time(runs);
    const durations = runDurationsNs(timestamps);
    const batchRes = resolutionFromTimestamps(timestamps);
    const prior = knownResolution.get(ctx);
    const res = batchRes === null ? prior ?? null : prior === undefined ? batchRes : Math.min(prior, batchRes);
    if (res !== null) knownResolution.set(ctx, res);
    const span = durations.reduce((a, b) => a + b, 0);
    const perRun = span > 0 ? span / runs : undefined;
    const capped = runs >= maxRuns || (perRun !== undefined && capByWall(maxRuns, perRun, wallBoundMs) <= runs);
    if (res !== null && span >= 100 * res) return summarizeTimestamps(durations, res, false);
    if (capped) return summarizeTimestamps(durations, res ?? Math.max(1, span), true);
    const next = res === null ? runs * 8 : runsForSpan(runs, span, res, maxRuns);
    runs = capByWall(Math.min(maxRuns, next), perRun, wallBoundMs);
  }
}

/** performance.now()'s grain here: the smallest positive step seen. */
function wallTimerResolutionNs(): number {
  let best = Infinity;
  for (let i = 0; i < 20; i++) {
    const a = performance.now();
    let b = performance.now();
    while (b === a) b = performance.now();
    best = Math.min(best, b - a);
  }
  return Math.max(1, Math.round(best * 1e6));
}

async function measureWallclock(session: Session, opts: MeasureOptions): Promise<TimingSummary> {
  const maxRuns = opts.maxRuns ?? 16384;
  const wallBoundMs = opts.wallBoundMs ?? 2000;
  const res = wallTimerResolutionNs();
  // Long batches: ≥ 100× the timer's grain and ≥ 2 ms, so the submit cost is amortized.
  const targetNs = Math.max(100 * res, 2e6);
  let runs = capByWall(opts.minRuns ?? 16, opts.perRunEstimateNs, wallBoundMs);
  let batchNs = await session.timeWallclock(runs);
  while (batchNs < targetNs && runs < maxRuns) {
    const perRun = batchNs / runs;
    runs = capByWall(Math.min(maxRuns, Math.max(runs * 2, Math.ceil((targetNs / Math.max(perRun, 1)) * 1.1))), perRun, wallBoundMs);
    batchNs = await session.timeWallclock(runs);
    if (capByWall(maxRuns, perRun, wallBoundMs) <= runs) break;
  }
  const samples = [batchNs / runs];
  for (let i = 0; i < 4; i++) samples.push((await session.timeWallclock(runs)) / runs);
  return summarize(samples, runs * 5, res, 'wallclock', samples.reduce((a, b) => a + b, 0) * runs, batchNs < targetNs);
}
