// The lane's rulings: per shape from the per-pass speedups (the median of the ratios, with
// min–max beside it), per pair from its shapes and counters. Pure; tests pin each rule.
import { median, minMax } from './timing';

export type ShapeVerdict =
  | 'faster'
  | 'parity'
  | 'within-tolerance'
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

/**
 * DESIGN.md "Lane verdict", in order: parity when min ≤ 1 ≤ max (the spread covers the whole
 * distance: neither a gain to claim nor a regression to fail on); faster when the median > 1;
 * slower when the median < 1 − tolerance; within-tolerance otherwise.
 */
export function timingVerdict(speedups: readonly number[], tolerance = DEFAULT_TOLERANCE): 'parity' | 'faster' | 'slower' | 'within-tolerance' {
  if (!speedups.length) throw new Error('a verdict needs at least one pass');
  const s = summarizeSpeedups(speedups);
  if (s.min <= 1 && 1 <= s.max) return 'parity';
  if (s.median > 1) return 'faster';
  if (s.median < 1 - tolerance) return 'slower';
  return 'within-tolerance';
}

/** Verdicts that fail a `prefer` pair's gate. */
export const GATE_FAILURES: readonly ShapeVerdict[] = ['slower', 'wrong', 'too-slow', 'undeclared-fallback', 'device-rejection'];

/** Verdicts that fail the lane whatever the pair's state (the lane itself is broken). */
export const LANE_FAILURES: readonly ShapeVerdict[] = ['undeclared-fallback', 'device-rejection'];

/** Watchdog: a generated run over this many native medians is too slow to measure. */
export const WATCHDOG_FACTOR = 100;

export function watchdogFired(generatedNs: number, nativeMedianNs: number, wallBoundNs: number): boolean {
  return generatedNs > WATCHDOG_FACTOR * nativeMedianNs || generatedNs > wallBoundNs;
}
