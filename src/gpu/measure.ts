// Level 1 timing: grow the batch until its timed span is ≥ 100× the timer's resolution, under a
// wall-clock bound; fall back to wall clock (marked) without timestamp-query.
import { median, resolutionFromTimestamps, runDurationsNs, runsForSpan, summarize, summarizeTimestamps, type TimingSummary } from '../core/stats/timing';
import type { MeasureOptions } from '../core/requests';
import type { GpuContext } from './device';
import type { Session } from './session';

/** Warm-up batches last about this long each. */
const WARMUP_BATCH_MS = 10;
/** The busy phase of a warm-up submits batches this long, back to back. */
const WARMUP_BUSY_BATCH_MS = 50;
/** After the busy phase, timed batches until two agree, at least this long. */
const SETTLE_MIN_MS = 50;
/** Never warm up longer than this. */
const WARMUP_MAX_MS = 3000;
/** Two consecutive warm-up medians within this fraction: the clocks have settled. */
const WARMUP_SETTLED = 0.02;
/** After this long without GPU work the clocks may have dropped: warm up in full. */
export const IDLE_RESET_MS = 300;
/** A full warm-up: longer than the H200's clock governor takes to climb 345 → 615 → 1980 MHz. */
export const FULL_WARMUP_MS = 1000;
/** A GPU busy within IDLE_RESET_MS still runs at its working clock: no warm-up. */
export const SETTLE_WARMUP_MS = 0;
/**
 * A timed batch keeps the GPU busy at least this long on hardware: tiny batches (16 runs of
 * 8 µs) between readbacks leave the GPU mostly idle, and its clock governor then steps down in
 * the middle of a sweep (seen on the H200: one rep of a 1024³ matmul 4.5× slower).
 */
export const MIN_BATCH_NS_HARDWARE = 5e6;

/**
 * How long to warm up before timing. GPU clocks fall within a second or so of idling (the CPU
 * computing an oracle is enough) and climb back in steps: on the H200, 345 MHz → 615 MHz →
 * 1980 MHz over ~0.6 s of load, each step a plateau where consecutive batches agree. A batch
 * timed mid-climb read ADD 64M at 1.75 TB/s instead of ~4 (docs/benchmarks.md). So a GPU that
 * has been idle gets a full second of load; one that was just busy only settles.
 */
export function warmupFor(ctx: GpuContext, nowMs = performance.now()): number {
  if (ctx.adapter.isFallbackAdapter) return 0;
  return nowMs - ctx.lastGpuBusyMs > IDLE_RESET_MS ? FULL_WARMUP_MS : SETTLE_WARMUP_MS;
}

/** Runs short batches until `minMs` of GPU work is done and two consecutive medians agree;
 * returns the last median run (GPU time), or undefined when it did not warm up. */
async function warmUp(session: Session, minMs: number, perRunNs: number | undefined): Promise<number | undefined> {
  if (minMs <= 0) return undefined;
  let per = perRunNs;
  if (!per || per <= 0) {
    const probe = await session.time(1);
    per = Math.max(1, Number(probe.timestamps[1] - probe.timestamps[0]));
  }
  // First keep the GPU busy without gaps: long untimed batches, so its clock governor sees full
  // load. Short timed batches with a readback between them left the H200 at 345 MHz for a whole
  // Level 1 call inside a long-lived process (a 1.29 ms kernel read 7.14 ms: docs/benchmarks.md).
  const busyRuns = Math.max(1, Math.min(4096, Math.ceil((WARMUP_BUSY_BATCH_MS * 1e6) / per)));
  for (let t0 = performance.now(); performance.now() - t0 < minMs; ) await session.dispatch(busyRuns);
  const runs = Math.max(1, Math.min(2048, Math.ceil((WARMUP_BATCH_MS * 1e6) / per)));
  let spentMs = 0;
  let previous: number | null = null;
  for (;;) {
    const durations = runDurationsNs((await session.time(runs)).timestamps);
    spentMs += durations.reduce((a, b) => a + b, 0) / 1e6;
    const m = median(durations);
    if ((previous !== null && spentMs >= SETTLE_MIN_MS && Math.abs(m - previous) <= WARMUP_SETTLED * previous) || spentMs >= WARMUP_MAX_MS) return m;
    previous = m;
  }
}

/** Timer resolution learned per device: the smallest seen so far (quantization does not change). */
const knownResolution = new WeakMap<GpuContext, number>();

export async function measure(ctx: GpuContext, session: Session, opts: MeasureOptions = {}): Promise<TimingSummary> {
  const o = { ...opts, warmupMs: opts.warmupMs ?? warmupFor(ctx) };
  return ctx.hasTimestamps ? measureTimestamps(ctx, session, o) : measureWallclock(session, o);
}

function capByWall(runs: number, perRunNs: number | undefined, wallBoundMs: number): number {
  if (!perRunNs || perRunNs <= 0) return runs;
  return Math.max(1, Math.min(runs, Math.floor((wallBoundMs * 1e6) / perRunNs)));
}

async function measureTimestamps(ctx: GpuContext, session: Session, opts: MeasureOptions): Promise<TimingSummary> {
  const maxRuns = opts.maxRuns ?? 16384;
  const wallBoundMs = opts.wallBoundMs ?? 2000;
  // The warm-up's GPU-timed run is a better estimate than a wall-clock first dispatch.
  const warmPerRunNs = await warmUp(session, opts.warmupMs ?? 0, opts.perRunEstimateNs);
  let runs = capByWall(opts.minRuns ?? 16, warmPerRunNs ?? opts.perRunEstimateNs, wallBoundMs);
  const minBatchNs = opts.minBatchNs ?? (ctx.adapter.isFallbackAdapter ? 0 : MIN_BATCH_NS_HARDWARE);
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
    const targetNs = res === null ? null : Math.max(100 * res, minBatchNs);
    if (targetNs !== null && span >= targetNs) return summarizeTimestamps(durations, res!, false);
    if (capped) return summarizeTimestamps(durations, res ?? Math.max(1, span), res === null || span < 100 * res);
    const next = targetNs === null ? runs * 8 : runsForSpan(runs, span, targetNs, maxRuns);
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
  // Warm-up (see warmUp): without timestamps, keep the GPU busy for the warm-up time.
  for (let spentNs = 0, warm = opts.warmupMs ?? 0; spentNs < warm * 1e6; ) spentNs += await session.timeWallclock(runs);
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
