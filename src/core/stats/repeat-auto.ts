// `--repeat auto`: passes are added until the median speedup is pinned down — its distribution-free
// 95% interval (order statistics of the passes) narrower than a target share of the median — or a
// cap is reached. Like nvbench's stop on relative spread, but on the statistic the verdict reads.
import type { RepeatAuto } from '../results';
import { median } from './timing';

/** The interval's coverage. */
export const AUTO_CONFIDENCE = 0.95;
/** Fewer passes have no 95% interval of the median (five give 93.75% at best). */
export const MIN_AUTO_PASSES = 6;
export const DEFAULT_REPEAT_AUTO: RepeatAuto = { targetWidth: 0.02, maxPasses: 30 };

/** P(Binomial(n, ½) ≤ k). */
function binomialCdfHalf(n: number, k: number): number {
  let term = 0.5 ** n;
  let sum = 0;
  for (let i = 0; i <= k; i++) {
    sum += term;
    term = (term * (n - i)) / (i + 1);
  }
  return sum;
}

/**
 * The median's distribution-free interval: [x₍ⱼ₎, x₍ₙ₋ⱼ₊₁₎] with the largest j whose coverage
 * 1 − 2·P(B ≤ j − 1) is at least `confidence`; null when even min–max covers less.
 */
export function medianInterval(xs: readonly number[], confidence = AUTO_CONFIDENCE): { lo: number; hi: number } | null {
  const n = xs.length;
  const sorted = [...xs].sort((a, b) => a - b);
  let j = 0;
  while (j + 1 <= n / 2 && 1 - 2 * binomialCdfHalf(n, j) >= confidence) j++;
  return j === 0 ? null : { lo: sorted[j - 1], hi: sorted[n - j] };
}

/** The interval's width relative to the median (null: no interval yet). */
export function medianIntervalWidth(xs: readonly number[]): number | null {
  const ci = medianInterval(xs);
  return ci === null ? null : (ci.hi - ci.lo) / median(xs);
}

/** Stop adding passes: the interval is narrow enough, or the cap is reached. */
export function repeatAutoDone(speedups: readonly number[], auto: RepeatAuto): boolean {
  if (speedups.length >= auto.maxPasses) return true;
  const width = medianIntervalWidth(speedups);
  return width !== null && width <= auto.targetWidth;
}
