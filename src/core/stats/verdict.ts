// The lane's rulings: per shape from the per-pass speedups (the median of the ratios, with
// min–max beside it), per pair from its shapes and counters. Pure; tests pin each rule.
import { median, minMax } from './timing';

export type ShapeVerdict =
  | 'faster'
  | 'parity'
  | 'within-tolerance'
  | 'undecided'
  | 'slower'
  | 'too-slow'
  | 'wrong'
  | 'declared-fallback'
  | 'undeclared-fallback'
  | 'device-rejection';

export const DEFAULT_TOLERANCE = 0.05;

export interface SpeedupSummary {
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

export function summarizeSpeedups(speedups: readonly number[]): SpeedupSummary {
  const [min, max] = minMax(speedups);
  return { median: median(speedups), min, max };
}

/** The smallest effect a verdict claims, whatever the timer: below it a ratio is parity. */
export const MIN_EFFECT = 0.02;
/** A claimed effect must also be at least this many timer ticks of the kernel's median. */
export const EFFECT_FLOOR_TICKS = 4;

/**
 * The effect floor: the relative change the timer and the noise floor can produce on their own,
 * max(MIN_EFFECT, EFFECT_FLOOR_TICKS · resolution / median). On the H200 (32 ns ticks) an 8 µs
 * kernel gets max(2%, 1.6%) = 2%; a 2 µs one 6.4%. A/A once gave five equal ratios of 1.004 —
 * one tick — which the spread rule alone calls `faster` (docs/statistics.md).
 */
export function effectFloor(resolutionNs: number | null | undefined, medianNs: number | null | undefined, referenceSpread = 0): number {
  // referenceSpread: (max − min) / median of the native side's pass medians — what the noise alone
  // moved the reference by in this run (a CPU adapter shared with other work moves it by tens of %).
  const noise = Number.isFinite(referenceSpread) ? referenceSpread : 0;
  if (!resolutionNs || !medianNs || !(medianNs > 0)) return Math.max(MIN_EFFECT, noise);
  return Math.max(MIN_EFFECT, (EFFECT_FLOOR_TICKS * resolutionNs) / medianNs, noise);
}

/**
 * DESIGN.md "Lane verdict", in order: parity when min ≤ 1 ≤ max (the spread covers the whole
 * distance: neither a gain to claim nor a regression to fail on); faster when the median > 1 and
 * the gain (median − 1) clears the effect floor, else parity; slower when the median is below
 * 1 − max(tolerance, floor); undecided when the median is below 1 but the floor (the noise) is
 * above the tolerance — nothing can be said about the tolerance then (a loaded SwiftShader once
 * printed a 0.54× median under an 83% floor as within-tolerance); within-tolerance otherwise.
 */
export function timingVerdict(speedups: readonly number[], tolerance = DEFAULT_TOLERANCE, floor = MIN_EFFECT): 'parity' | 'faster' | 'slower' | 'within-tolerance' | 'undecided' {
  if (!speedups.length) throw new Error('a verdict needs at least one pass');
  const s = summarizeSpeedups(speedups);
  if (s.min <= 1 && 1 <= s.max) return 'parity';
  if (s.median > 1) return s.median - 1 > floor ? 'faster' : 'parity';
  if (s.median < 1 - Math.max(tolerance, floor)) return 'slower';
  return floor > tolerance ? 'undecided' : 'within-tolerance';
}

/** Verdicts that fail a `prefer` pair's gate. */
export const GATE_FAILURES: readonly ShapeVerdict[] = ['slower', 'wrong', 'too-slow', 'undeclared-fallback', 'device-rejection'];

/** The gate's failures: `undecided` fails it too unless the run allows it (--allow-undecided). */
export function gateFailures(allowUndecided = false): readonly ShapeVerdict[] {
  return allowUndecided ? GATE_FAILURES : [...GATE_FAILURES, 'undecided'];
}

/**
 * A verdict as people read it: `undecided` names the noise that hid the tolerance,
 * 'undecided (noise 83.0% > tolerance 5.0%)'; every other verdict is itself.
 */
export function verdictText(verdict: ShapeVerdict, effectFloor: number | null | undefined, tolerance: number): string {
  if (verdict !== 'undecided') return verdict;
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  return effectFloor == null ? verdict : `undecided (noise ${pct(effectFloor)} > tolerance ${pct(tolerance)})`;
}

/** Verdicts that fail the lane whatever the pair's state (the lane itself is broken). */
export const LANE_FAILURES: readonly ShapeVerdict[] = ['undeclared-fallback', 'device-rejection'];

/** Watchdog: a generated run over this many native medians is too slow to measure. */
export const WATCHDOG_FACTOR = 100;

export function watchdogFired(generatedNs: number, nativeMedianNs: number, wallBoundNs: number): boolean {
  return generatedNs > WATCHDOG_FACTOR * nativeMedianNs || generatedNs > wallBoundNs;
}

/** A pass whose median strays this far from its side's median over the passes is out of line. */
export const OUT_OF_LINE = 0.1;

/**
 * Passes to measure again: those where either side's median is more than OUT_OF_LINE away from
 * that side's median over all passes. One pass timed while something else held the GPU (a
 * clock step, a previous shape's leftovers) must not decide a verdict; a pass that stays out of
 * line after a second measurement is kept (it is then the machine, not a draw).
 */
export function outOfLinePasses(nativeNs: readonly number[], generatedNs: readonly number[], threshold = OUT_OF_LINE): number[] {
  const n = Math.min(nativeNs.length, generatedNs.length);
  if (n < 3) return [];
  const mn = median(nativeNs.slice(0, n));
  const mg = median(generatedNs.slice(0, n));
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    if (Math.abs(nativeNs[i] - mn) > threshold * mn || Math.abs(generatedNs[i] - mg) > threshold * mg) out.push(i);
  }
  return out;
}
