// Replays of one lane in one session, and the sensitivity report built from planted slowdowns:
// how often each shape's verdict flips, whether the native column stayed put (a ratio never
// leaves its run unless native is stable), and the smallest planted slowdown the lane sees.
import type { LaneControl, LaneResult } from '../results';
import { relativeSpread } from '../stats/timing';
import type { ShapeVerdict } from '../stats/verdict';

/** Native medians across replays within this relative spread: the column is stable. */
export const NATIVE_STABLE_SPREAD = 0.05;
/** A planted slowdown counts as seen on a shape when `slower` in at least this share of replays. */
export const SEEN_SHARE = 0.95;

export interface ReplayShape {
  readonly op: string;
  readonly shape: string;
  readonly replays: number;
  readonly counts: Readonly<Partial<Record<ShapeVerdict, number>>>;
  /** The most common verdict (ties: the first seen). */
  readonly modal: ShapeVerdict;
  /** Share of replays whose verdict is not the modal one. */
  readonly flipRate: number;
  readonly nativeMediansNs: readonly number[];
  /** (max − min) / median of the native medians over the replays; null when never timed. */
  readonly nativeSpread: number | null;
  readonly nativeStable: boolean | null;
  readonly speedupMedians: readonly number[];
}

/** Per (op, shape), in first-seen order, over replays of the same lane. */
export function summarizeReplays(results: readonly LaneResult[]): ReplayShape[] {
  const byKey = new Map<string, { op: string; shape: string; verdicts: ShapeVerdict[]; native: number[]; speedups: number[] }>();
  for (const r of results) {
    for (const pair of r.pairs) {
      for (const s of pair.shapes) {
        const key = `${pair.op}\u0000${s.shape}`;
        const entry = byKey.get(key) ?? { op: pair.op, shape: s.shape, verdicts: [], native: [], speedups: [] };
        entry.verdicts.push(s.verdict);
        if (s.nativeMedianNs !== null) entry.native.push(s.nativeMedianNs);
        if (s.speedupMedian !== null) entry.speedups.push(s.speedupMedian);
        byKey.set(key, entry);
      }
    }
  }
  return [...byKey.values()].map((e) => {
    const counts: Partial<Record<ShapeVerdict, number>> = {};
    for (const v of e.verdicts) counts[v] = (counts[v] ?? 0) + 1;
    let modal = e.verdicts[0];
    for (const v of e.verdicts) if ((counts[v] ?? 0) > (counts[modal] ?? 0)) modal = v;
    const nativeSpread = e.native.length ? relativeSpread(e.native) : null;
    return {
      op: e.op,
      shape: e.shape,
      replays: e.verdicts.length,
      counts,
      modal,
      flipRate: 1 - (counts[modal] ?? 0) / e.verdicts.length,
      nativeMediansNs: e.native,
      nativeSpread,
      nativeStable: nativeSpread === null ? null : nativeSpread <= NATIVE_STABLE_SPREAD,
      speedupMedians: e.speedups,
    };
  });
}

/** The controls a sensitivity run replays: A/A, then planted slowdowns, smallest first. */
export const SENSITIVITY_CONTROLS: readonly LaneControl[] = ['aa', 'slow:1.05', 'slow:1.1', 'slow:1.2'];

export interface SensitivityShape {
  readonly op: string;
  readonly shape: string;
  /** A/A replays that came out faster or slower (should be 0: anything else is a false verdict). */
  readonly aaFalse: number;
  readonly aaReplays: number;
  /** Per planted factor: the share of replays judged `slower`. */
  readonly slowerShare: Readonly<Record<string, number>>;
  /** The smallest planted factor seen as `slower` in ≥ SEEN_SHARE of replays; null: none was. */
  readonly smallestSeen: number | null;
}

export function sensitivityReport(byControl: ReadonlyMap<LaneControl, readonly LaneResult[]>): SensitivityShape[] {
  const aa = summarizeReplays(byControl.get('aa') ?? []);
  const planted = [...byControl.entries()]
    .filter(([c]) => c.startsWith('slow:'))
    .map(([c, rs]) => ({ factor: Number(c.slice(5)), shapes: summarizeReplays(rs) }))
    .sort((a, b) => a.factor - b.factor);
  const keys = new Map<string, { op: string; shape: string }>();
  for (const s of [...aa, ...planted.flatMap((p) => p.shapes)]) keys.set(`${s.op}\u0000${s.shape}`, { op: s.op, shape: s.shape });
  return [...keys.values()].map(({ op, shape }) => {
    const find = (list: readonly ReplayShape[]) => list.find((s) => s.op === op && s.shape === shape);
    const a = find(aa);
    const slowerShare: Record<string, number> = {};
    let smallestSeen: number | null = null;
    for (const p of planted) {
      const s = find(p.shapes);
      if (!s) continue;
      const share = (s.counts.slower ?? 0) / s.replays;
      slowerShare[String(p.factor)] = share;
      if (smallestSeen === null && share >= SEEN_SHARE) smallestSeen = p.factor;
    }
    return { op, shape, aaFalse: a ? (a.counts.faster ?? 0) + (a.counts.slower ?? 0) : 0, aaReplays: a?.replays ?? 0, slowerShare, smallestSeen };
  });
}
