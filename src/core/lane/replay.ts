// Replays of one lane in one session, and the sensitivity report built from planted slowdowns:
// how often each shape's verdict flips, whether the native column stayed put (a ratio never
// leaves its run unless native is stable), and the smallest planted slowdown the lane sees.
import type { LaneControl, LaneResult, LaneShape } from '../results';
import { median, relativeSpread } from '../stats/timing';
import type { ShapeVerdict } from '../stats/verdict';

/** Native medians across replays within this relative spread: the column is stable. */
export const NATIVE_STABLE_SPREAD = 0.05;
/** A planted slowdown counts as detected (or seen slower) on a shape in at least this share of replays. */
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

/** The planted factors a sensitivity run replays by default, smallest first. */
export const SENSITIVITY_FACTORS: readonly number[] = [1.02, 1.05, 1.1, 1.2];

/** The controls a sensitivity run replays: A/A, then the planted slowdowns, smallest first. */
export function sensitivityControls(factors: readonly number[] = SENSITIVITY_FACTORS): LaneControl[] {
  return ['aa', ...[...factors].sort((a, b) => a - b).map((f) => `slow:${f}` as const)];
}

/** Kernel durations the report groups by (native median): the lane sees less of a short kernel. */
export const DURATION_CLASSES = [
  { label: '< 50 µs', maxNs: 50_000 },
  { label: '50–500 µs', maxNs: 500_000 },
  { label: '> 500 µs', maxNs: Infinity },
] as const;

export function durationClass(nativeNs: number | null): string | null {
  return nativeNs === null ? null : DURATION_CLASSES.find((c) => nativeNs < c.maxNs)!.label;
}

export interface PlantedRates {
  readonly askedFactor: number;
  /** The median over replays of the factor Level 1 measured (null when every replay refused it). */
  readonly measuredFactor: number | null;
  /** Replays where it was planted (and timed), and where the shape was refused as a control. */
  readonly replays: number;
  readonly refused: number;
  /** The smallest factor plantable there, from a refusal that said so. */
  readonly smallestFactor: number | null;
  /** Share of planted replays whose verdict is not `parity` (the lane saw a difference). */
  readonly detected: number | null;
  /** Share of planted replays judged `slower` (beyond the tolerance). */
  readonly slower: number | null;
}

export interface SensitivityShape {
  readonly op: string;
  readonly shape: string;
  /** Native median over the A/A replays (the planted ones when A/A never timed it). */
  readonly nativeMedianNs: number | null;
  readonly durationClass: string | null;
  readonly aaReplays: number;
  /** A/A replays that came out faster or slower (should be 0: anything else is a false verdict). */
  readonly aaFalse: number;
  /** A/A replays whose verdict is not parity: a difference seen where there is none. */
  readonly aaDetected: number;
  /** Per planted factor, keyed by the asked factor. */
  readonly planted: Readonly<Record<string, PlantedRates>>;
  /** The smallest planted factor detected (not parity) in ≥ SEEN_SHARE of its replays; null: none. */
  readonly smallestDetected: number | null;
  /** The smallest planted factor judged `slower` in ≥ SEEN_SHARE of its replays; null: none. */
  readonly smallestSeen: number | null;
}

const keyOf = (op: string, shape: string) => `${op}\u0000${shape}`;

export function sensitivityReport(byControl: ReadonlyMap<LaneControl, readonly LaneResult[]>): SensitivityShape[] {
  const aa = summarizeReplays(byControl.get('aa') ?? []);
  const factors = [...byControl.keys()].filter((c) => c.startsWith('slow:')).map((c) => Number(c.slice(5))).sort((a, b) => a - b);
  const keys = new Map<string, { op: string; shape: string }>();
  const shapesOf = (rs: readonly LaneResult[]) => rs.flatMap((r) => r.pairs.flatMap((p) => p.shapes.map((s) => ({ op: p.op, s }))));
  for (const { op, s } of shapesOf(byControl.get('aa') ?? [])) keys.set(keyOf(op, s.shape), { op, shape: s.shape });
  for (const f of factors) {
    const rs = byControl.get(`slow:${f}`) ?? [];
    for (const { op, s } of shapesOf(rs)) keys.set(keyOf(op, s.shape), { op, shape: s.shape });
    for (const k of rs.flatMap((r) => r.skipped)) if (k.plant) keys.set(keyOf(k.op, k.plant.shape), { op: k.op, shape: k.plant.shape });
  }
  return [...keys.values()].map(({ op, shape }) => {
    const a = aa.find((x) => x.op === op && x.shape === shape);
    const planted: Record<string, PlantedRates> = {};
    const nativeSeen: number[] = [...(a?.nativeMediansNs ?? [])];
    let smallestDetected: number | null = null;
    let smallestSeen: number | null = null;
    for (const f of factors) {
      const rs = byControl.get(`slow:${f}`) ?? [];
      const timed = shapesOf(rs).filter((x) => x.op === op && x.s.shape === shape).map((x) => x.s);
      const refusals = rs.flatMap((r) => r.skipped).filter((k) => k.op === op && k.plant?.shape === shape);
      if (!timed.length && !refusals.length) continue;
      const measured = timed.map((t) => t.plant?.measuredFactor ?? t.plantedRatio).filter((x): x is number => typeof x === 'number');
      const share = (pred: (v: LaneShape['verdict']) => boolean) => (timed.length ? timed.filter((t) => pred(t.verdict)).length / timed.length : null);
      const detected = share((v) => v !== 'parity');
      const slower = share((v) => v === 'slower');
      const smallest = refusals.map((k) => k.plant!.smallestFactor).filter((x): x is number => x !== null);
      planted[String(f)] = {
        askedFactor: f,
        measuredFactor: measured.length ? median(measured) : null,
        replays: timed.length,
        refused: refusals.length,
        smallestFactor: smallest.length ? Math.min(...smallest) : null,
        detected,
        slower,
      };
      if (!a) nativeSeen.push(...timed.map((t) => t.nativeMedianNs).filter((x): x is number => x !== null));
      // A factor counts only where it was planted on every replay: a refusal is not a detection.
      const whole = timed.length > 0 && refusals.length === 0;
      if (smallestDetected === null && whole && detected! >= SEEN_SHARE) smallestDetected = f;
      if (smallestSeen === null && whole && slower! >= SEEN_SHARE) smallestSeen = f;
    }
    const nativeMedianNs = nativeSeen.length ? median(nativeSeen) : null;
    return {
      op,
      shape,
      nativeMedianNs,
      durationClass: durationClass(nativeMedianNs),
      aaReplays: a?.replays ?? 0,
      aaFalse: a ? (a.counts.faster ?? 0) + (a.counts.slower ?? 0) : 0,
      aaDetected: a ? a.replays - (a.counts.parity ?? 0) : 0,
      planted,
      smallestDetected,
      smallestSeen,
    };
  });
}

export interface SensitivityGroup {
  readonly durationClass: string;
  readonly shapes: number;
  readonly aaReplays: number;
  readonly aaFalse: number;
  readonly aaDetected: number;
  /** Per asked factor, over the group's planted shape-replays: detection and slower rates, refusals. */
  readonly planted: Readonly<Record<string, { replays: number; refused: number; detected: number | null; slower: number | null }>>;
}

/** The report by kernel duration: what the lane sees of short, middle and long kernels. */
export function sensitivityGroups(shapes: readonly SensitivityShape[]): SensitivityGroup[] {
  return DURATION_CLASSES.map(({ label }) => {
    const inGroup = shapes.filter((s) => s.durationClass === label);
    const planted: Record<string, { replays: number; refused: number; detected: number | null; slower: number | null }> = {};
    for (const f of [...new Set(inGroup.flatMap((s) => Object.keys(s.planted)))].sort((x, y) => Number(x) - Number(y))) {
      const rows = inGroup.map((s) => s.planted[f]).filter((r): r is PlantedRates => r !== undefined);
      const replays = rows.reduce((n, r) => n + r.replays, 0);
      const sum = (pick: (r: PlantedRates) => number | null) => rows.reduce((n, r) => n + (pick(r) ?? 0) * r.replays, 0);
      planted[f] = { replays, refused: rows.reduce((n, r) => n + r.refused, 0), detected: replays ? sum((r) => r.detected) / replays : null, slower: replays ? sum((r) => r.slower) / replays : null };
    }
    return {
      durationClass: label,
      shapes: inGroup.length,
      aaReplays: inGroup.reduce((n, s) => n + s.aaReplays, 0),
      aaFalse: inGroup.reduce((n, s) => n + s.aaFalse, 0),
      aaDetected: inGroup.reduce((n, s) => n + s.aaDetected, 0),
      planted,
    };
  }).filter((g) => g.shapes > 0);
}
