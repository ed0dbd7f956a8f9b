// Replays and the sensitivity report as text for the CLI.
import { NATIVE_STABLE_SPREAD, SEEN_SHARE, type ReplayShape, type SensitivityShape } from '../lane/replay';
import { textTable } from './format';

const pct = (x: number | null) => (x === null ? '—' : `${(100 * x).toFixed(1)}%`);

export function formatReplays(shapes: readonly ReplayShape[], replays: number): string {
  const rows = shapes.map((s) => [
    s.op,
    s.shape,
    Object.entries(s.counts)
      .map(([v, n]) => `${v} ${n}`)
      .join(', '),
    pct(s.flipRate),
    s.nativeStable === null ? '—' : `${s.nativeStable ? 'stable' : 'UNSTABLE'} (${pct(s.nativeSpread)})`,
  ]);
  const flips = shapes.filter((s) => s.flipRate > 0).length;
  const unstable = shapes.filter((s) => s.nativeStable === false).length;
  return [
    `replays: ${replays} lanes in one session — verdict counts per shape, the flip rate (replays off the most common verdict), and the native column across replays (stable: spread ≤ ${100 * NATIVE_STABLE_SPREAD}%)`,
    textTable(['op', 'shape', 'verdicts', 'flip rate', 'native column'], rows),
    `${shapes.length} shapes: ${flips} flipped at least once, ${unstable} with an unstable native column`,
  ].join('\n');
}

export function formatSensitivity(shapes: readonly SensitivityShape[], replays: number): string {
  const factors = [...new Set(shapes.flatMap((s) => Object.keys(s.slowerShare)))].sort((a, b) => Number(a) - Number(b));
  const rows = shapes.map((s) => [s.op, s.shape, `${s.aaFalse}/${s.aaReplays}`, ...factors.map((f) => pct(s.slowerShare[f] ?? null)), s.smallestSeen === null ? 'none' : `${s.smallestSeen}×`]);
  const aaFalse = shapes.reduce((n, s) => n + s.aaFalse, 0);
  const aaAll = shapes.reduce((n, s) => n + s.aaReplays, 0);
  const seenShare = (f: string) => {
    const withF = shapes.filter((s) => s.slowerShare[f] !== undefined);
    const slower = withF.reduce((n, s) => n + (s.slowerShare[f] ?? 0), 0);
    return withF.length ? slower / withF.length : null;
  };
  return [
    `sensitivity: ${replays} replays per control — A/A rows judged faster or slower (false verdicts), the share of replays judging each planted slowdown 'slower', and the smallest planted slowdown seen as slower in ≥ ${100 * SEEN_SHARE}% of replays`,
    textTable(['op', 'shape', 'A/A false', ...factors.map((f) => `${f}× slower`), 'smallest seen'], rows),
    `A/A: ${aaFalse} false verdicts in ${aaAll} shape-replays; planted: ${factors.map((f) => `${f}× slower in ${pct(seenShare(f))} of shape-replays`).join(', ')}`,
  ].join('\n');
}
