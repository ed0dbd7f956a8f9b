// Derives a shape rule in schedulesFor's vocabulary (thresholds and divisibility on an op's
// features) that includes every shape a candidate wins and excludes every shape it loses.
import { allHold, type Condition, type Features } from './shape-rules';

/** Vector-width divisibility first (why a vec4 schedule wins), then thresholds, then tiles. */
const SMALL_DIVISORS = [2, 4, 8, 16] as const;
const LARGE_DIVISORS = [32, 64, 128, 256] as const;

/** Conditions that hold on every winning shape, simplest first: the building blocks of a rule. */
export function conditionsHoldingOn(wins: readonly Features[]): Condition[] {
  if (!wins.length) return [];
  const features = Object.keys(wins[0]).filter((f) => wins.every((w) => typeof w[f] === 'number'));
  const values = (f: string) => wins.map((w) => w[f]);
  const divisible = (divisors: readonly number[]) => features.flatMap((feature) => divisors.filter((m) => values(feature).every((v) => v % m === 0)).map((m) => ({ feature, multipleOf: m })));
  return [
    ...divisible(SMALL_DIVISORS),
    ...features.flatMap((feature) => [{ feature, min: Math.min(...values(feature)) }, { feature, max: Math.max(...values(feature)) }]),
    ...divisible(LARGE_DIVISORS),
  ];
}

function* combinations<T>(items: readonly T[], k: number, start = 0): Generator<T[]> {
  if (k === 0) {
    yield [];
    return;
  }
  for (let i = start; i <= items.length - k; i++) for (const rest of combinations(items, k - 1, i + 1)) yield [items[i], ...rest];
}

/**
 * The simplest rule (fewest conditions, at most `maxConditions`) that holds on every win and
 * fails on every loss; [] when nothing is lost; null when the vocabulary cannot separate them.
 */
export function deriveRule(wins: readonly Features[], losses: readonly Features[], maxConditions = 3): Condition[] | null {
  if (!wins.length) return null;
  if (!losses.length) return [];
  const pool = conditionsHoldingOn(wins);
  for (let k = 1; k <= maxConditions; k++) {
    for (const combo of combinations(pool, k)) {
      if (new Set(combo.map((c) => c.feature + (c.min !== undefined ? '>' : c.max !== undefined ? '<' : '%'))).size < combo.length) continue;
      if (losses.every((l) => !allHold(combo, l))) return mergeConditions(combo);
    }
  }
  return null;
}

/** One condition per feature where two touch the same one (min and max become a range). */
function mergeConditions(conds: readonly Condition[]): Condition[] {
  const byFeature = new Map<string, Condition>();
  for (const c of conds) byFeature.set(c.feature, { ...byFeature.get(c.feature), ...c });
  return [...byFeature.values()];
}
