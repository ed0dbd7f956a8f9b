// From raw timestamps to per-run samples and their summary. Pure: the GPU layer hands over
// the numbers, this decides what they can honestly say.

/** 'timestamp': per-pass GPU timestamps; 'timestamp-grouped': the timer is too coarse for one
 * run, so each sample is the mean of a group of runs; 'wallclock': no timestamp-query. */
export type TimingMethod = 'timestamp' | 'timestamp-grouped' | 'wallclock';

export interface TimingSummary {
  readonly runs: number;
  readonly minNs: number;
  readonly medianNs: number;
  readonly maxNs: number;
  /** The timer's detected resolution; every result prints it. */
  readonly resolutionNs: number;
  readonly method: TimingMethod;
  /** Sum of the timed spans (≥ 100× resolution unless spanShort). */
  readonly spanNs: number;
  /** True when the run cap was reached before the span reached 100× the resolution. */
  readonly spanShort: boolean;
  /** The samples the summary was taken over (per run, or per group). */
  readonly samplesNs: readonly number[];
  /** What the number is: always a serialized latency, never an overlapping throughput. */
  readonly note: string;
  /** 20th and 80th percentiles of the samples: the spread without the extremes. */
  readonly p20Ns?: number;
  readonly p80Ns?: number;
  /** (p80 − p20) / median passed NOISY_SPREAD: the median is not one reproducible number. */
  readonly noisy?: boolean;
}

/** Above this (p80 − p20) / median a result is flagged `noisy` (SwiftShader showed 8× min–max). */
export const NOISY_SPREAD = 0.1;

/** The q-quantile (0…1) of the samples, linear between order statistics. */
export function quantile(xs: readonly number[], q: number): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const pos = (s.length - 1) * Math.min(1, Math.max(0, q));
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}

/** (p80 − p20) / median: the noise flag's measure. */
export function interQuintileSpread(xs: readonly number[]): number {
  const m = median(xs);
  return m > 0 ? (quantile(xs, 0.8) - quantile(xs, 0.2)) / m : Infinity;
}

export const SERIALIZED_NOTE = 'serialized latency: one compute pass per run in one command buffer (submission amortized, runs never overlap)';

export function median(xs: readonly number[]): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function minMax(xs: readonly number[]): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const x of xs) {
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  return [lo, hi];
}

/** (max − min) / median: the relative spread the sweep's noise rule uses. */
export function relativeSpread(xs: readonly number[]): number {
  const [lo, hi] = minMax(xs);
  const m = median(xs);
  return m > 0 ? (hi - lo) / m : Infinity;
}

function gcd(a: bigint, b: bigint): bigint {
  while (b) [a, b] = [b, a % b];
  return a < 0n ? -a : a;
}

/**
 * The timer's resolution: the greatest common divisor of every timestamp's distance from the
 * first. Chrome's default quantization gives 65536 ns; an unquantized timer gives ~1 ns.
 * Returns null when all timestamps are equal (nothing to learn yet).
 */
export function resolutionFromTimestamps(ts: readonly bigint[]): number | null {
  if (ts.length < 2) return null;
  let g = 0n;
  const t0 = ts[0];
  for (const t of ts) {
    g = gcd(g, t - t0);
    if (g === 1n) break;
  }
  return g === 0n ? null : Number(g);
}

/** Per-run durations from begin/end pairs; a pair that runs backwards (a driver bug) counts as 0. */
export function runDurationsNs(ts: readonly bigint[]): number[] {
  const out: number[] = [];
  for (let i = 0; i + 1 < ts.length; i += 2) {
    const d = ts[i + 1] - ts[i];
    out.push(d > 0n ? Number(d) : 0);
  }
  return out;
}

/** How many runs a batch needs so its timed span reaches `targetSpanNs` (100× the resolution, or
 * longer where the GPU must stay busy). */
export function runsForSpan(currentRuns: number, spanNs: number, targetSpanNs: number, maxRuns: number): number {
  if (spanNs >= targetSpanNs) return currentRuns;
  const perRun = spanNs / currentRuns;
  const needed = perRun > 0 ? Math.ceil((targetSpanNs / perRun) * 1.1) : currentRuns * 8;
  return Math.min(maxRuns, Math.max(needed, currentRuns * 2));
}

/** Groups of runs whose summed span is ≥ 10× the resolution, as few as 5 groups when possible. */
export function groupedSamples(durationsNs: readonly number[], resolutionNs: number): number[] {
  const total = durationsNs.reduce((a, b) => a + b, 0);
  const groups = Math.max(1, Math.min(20, Math.floor(total / (10 * resolutionNs))));
  const size = Math.floor(durationsNs.length / groups);
  const out: number[] = [];
  for (let g = 0; g < groups; g++) {
    const part = durationsNs.slice(g * size, g === groups - 1 ? durationsNs.length : (g + 1) * size);
    out.push(part.reduce((a, b) => a + b, 0) / part.length);
  }
  return out;
}

/**
 * Summarizes one timed batch. Per-run samples stand when the resolution is at most a tenth of
 * the median run; otherwise single runs are below the timer's grain and samples become group
 * means (marked 'timestamp-grouped').
 */
export function summarizeTimestamps(durationsNs: readonly number[], resolutionNs: number, spanShort: boolean): TimingSummary {
  const spanNs = durationsNs.reduce((a, b) => a + b, 0);
  const perRunOk = resolutionNs * 10 <= median(durationsNs);
  const samplesNs = perRunOk ? [...durationsNs] : groupedSamples(durationsNs, resolutionNs);
  return summarize(samplesNs, durationsNs.length, resolutionNs, perRunOk ? 'timestamp' : 'timestamp-grouped', spanNs, spanShort);
}

export function summarize(samplesNs: readonly number[], runs: number, resolutionNs: number, method: TimingMethod, spanNs: number, spanShort: boolean): TimingSummary {
  const [minNs, maxNs] = minMax(samplesNs);
  return Object.freeze({
    runs,
    minNs,
    medianNs: median(samplesNs),
    maxNs,
    p20Ns: quantile(samplesNs, 0.2),
    p80Ns: quantile(samplesNs, 0.8),
    noisy: interQuintileSpread(samplesNs) > NOISY_SPREAD,
    resolutionNs,
    method,
    spanNs,
    spanShort,
    samplesNs: Object.freeze([...samplesNs]),
    note: method === 'wallclock' ? 'wall clock around onSubmittedWorkDone over long batches (no timestamp-query): includes submission' : SERIALIZED_NOTE,
  });
}
