// Progress of a long run (lane, sweep, Level 1), as plain data for a progress bar, and the one
// tracker every runner uses. The tracker counts work units (one check or one timed measurement
// each), not items: a sweep shape with 30 live candidates is 31 units per rep, not one, so the
// time left is estimated from the rate measured so far over comparable units.

export interface Progress {
  /** What is running, for a progress bar: 'ADD 4096x512 pass 2/5 generated'. */
  readonly label: string;
  /** 0..1 */
  readonly fraction: number;
  /** Estimated time left, ms (null until it can be estimated). */
  readonly etaMs: number | null;
  /** The item this step belongs to (a lane shape: 'ADD 4096x4096'), for estimates per item over replays. */
  readonly item?: string;
  /**
   * Time this run has spent so far on work a replay of it reuses — building inputs and oracles,
   * first output checks, plant calibrations — ms. A replay's estimate leaves it out.
   */
  readonly onceMs?: number;
}

export type ProgressFn = (p: Progress) => void;

/**
 * Time left from the work done so far: the measured rate (elapsed per unit) times the units
 * left. null before any unit is done, since there is no rate to go on yet.
 */
export function estimateTimeLeftMs(doneUnits: number, totalUnits: number, elapsedMs: number): number | null {
  if (!(doneUnits > 0) || !(elapsedMs >= 0)) return null;
  return Math.max(0, totalUnits - doneUnits) * (elapsedMs / doneUnits);
}

/** The kinds of work unit the runners count: a check (inputs, oracle, compile, one dispatch,
 * readback) costs far more than one timed measurement, so each kind has its own rate. */
export const UNIT_CHECK = 'check';
export const UNIT_MEASURE = 'measure';

interface KindCount {
  total: number;
  done: number;
  /** Time per unit of each advance of this kind, ms (from one advance to the next). */
  perUnitMs: number[];
}

/** The median, robust to the few costly units (a side's first measurement searches its run count). */
function medianOf(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export class ProgressTracker {
  private readonly kinds = new Map<string, KindCount>();
  private readonly defaultKind: string;
  private readonly startedMs: number;
  private lastMarkMs: number;

  /**
   * `total`: a count of one kind of unit, or counts by kind ({ check: 4, measure: 40 }); the
   * time left is then each kind's units left times that kind's own measured time per unit (the
   * overall rate until a kind has one), so a costly check does not inflate every measurement.
   * `now`: a clock in ms (performance.now in the GPU layer; a fake one in tests).
   */
  constructor(
    total: number | Readonly<Record<string, number>>,
    private readonly onProgress: ProgressFn | undefined,
    private readonly now: () => number,
  ) {
    const totals = typeof total === 'number' ? { unit: total } : total;
    for (const [kind, n] of Object.entries(totals)) {
      if (!(n >= 0) || !Number.isFinite(n)) throw new RangeError(`a progress total must be a finite number ≥ 0, got ${n}`);
      this.kinds.set(kind, { total: n, done: 0, perUnitMs: [] });
    }
    this.defaultKind = Object.keys(totals)[0] ?? 'unit';
    if (!this.kinds.size) this.kinds.set(this.defaultKind, { total: 0, done: 0, perUnitMs: [] });
    this.startedMs = now();
    this.lastMarkMs = this.startedMs;
  }

  private kind(kind: string | undefined): KindCount {
    const k = this.kinds.get(kind ?? this.defaultKind);
    if (!k) throw new RangeError(`no progress units of kind '${kind}' (kinds: ${[...this.kinds.keys()].join(', ')})`);
    return k;
  }

  get doneUnits(): number {
    return [...this.kinds.values()].reduce((a, k) => a + k.done, 0);
  }

  get totalUnits(): number {
    return [...this.kinds.values()].reduce((a, k) => a + k.total, 0);
  }

  doneOf(kind: string): number {
    return this.kind(kind).done;
  }

  totalOf(kind: string): number {
    return this.kind(kind).total;
  }

  /** Units done, counted toward their kind's rate: the time since the last advance was theirs. */
  advance(units = 1, kind?: string): void {
    const k = this.kind(kind);
    const t = this.now();
    const counted = Math.max(0, Math.min(k.total - k.done, units));
    if (counted > 0) k.perUnitMs.push((t - this.lastMarkMs) / counted);
    this.lastMarkMs = t;
    k.done += counted;
  }

  /**
   * Units that will never run (a shape ended early, a candidate refused): taken off the total,
   * not counted as done, so they do not make the measured rate look faster than it is.
   */
  drop(units: number, kind?: string): void {
    const k = this.kind(kind);
    k.total = Math.max(k.done, k.total - units);
  }

  /**
   * Time left: per kind, its units left at its own typical (median) time per unit — the overall
   * rate before it has one. The median, not the mean: a lane side's first measurement searches
   * its run count and costs several later ones, and early on it would dominate a mean.
   */
  private timeLeftMs(): number | null {
    const overall = estimateTimeLeftMs(this.doneUnits, this.totalUnits, this.now() - this.startedMs);
    if (overall === null) return null;
    const overallRate = (this.now() - this.startedMs) / this.doneUnits;
    let left = 0;
    for (const k of this.kinds.values()) {
      const rate = k.perUnitMs.length ? medianOf(k.perUnitMs) : overallRate;
      left += Math.max(0, k.total - k.done) * rate;
    }
    return left;
  }

  /** Reports where the run stands, with `label` saying what runs next. */
  tick(label: string): Progress {
    const total = this.totalUnits;
    const fraction = total > 0 ? Math.min(1, this.doneUnits / total) : 1;
    const p: Progress = { label, fraction, etaMs: this.timeLeftMs() };
    this.onProgress?.(p);
    return p;
  }

  /** The closing report: everything done. */
  finish(label = 'done'): void {
    for (const k of this.kinds.values()) k.done = k.total;
    this.onProgress?.({ label, fraction: 1, etaMs: 0 });
  }
}

/**
 * Progress over a replayed run (`lane --replay N`, `--sensitivity`): each replay reports its own
 * progress; this turns it into the whole run's. A replay reuses the host work of the first (inputs,
 * oracles, output checks, plant calibrations: src/core/plan/case-data.ts, src/gpu/plant.ts), so a
 * later replay is estimated from the **measured time of each item** (a lane shape) in the replays
 * so far, less that one-time work (`Progress.onceMs`): the current item's rest and the items still
 * to come in this replay, then every item per replay left. Shapes differ by orders of magnitude
 * (ADD 4096² against a GEMV), so a rate per work unit misjudges where in a replay it stands. Without
 * items, a later replay takes the first one's duration less its reused work, then the later ones'
 * median. (On the H200 the first replay's ETA, scaled by N, once said 512–980 s for a 27 s run.)
 */
export class ReplayProgress {
  private readonly durationsMs: number[] = [];
  private firstReusedMs = 0;
  private replayStartMs: number;
  /** Net times per item (one-time work left out), one per replay that ran it. */
  private readonly itemMs = new Map<string, number[]>();
  /** Items in the order the replays ran them. */
  private readonly order: string[] = [];
  private current: { item: string; startMs: number; onceMs: number } | null = null;
  private readonly doneThisReplay = new Set<string>();
  private onceMs = 0;

  constructor(
    readonly replays: number,
    private readonly now: () => number,
  ) {
    this.replayStartMs = now();
  }

  /** A later replay's expected duration, ms; null before the first replay ended. */
  perReplayMs(): number | null {
    if (!this.durationsMs.length) return null;
    const items = this.itemsMs(this.order);
    if (items !== null) return items;
    if (this.durationsMs.length === 1) return Math.max(0, this.durationsMs[0] - this.firstReusedMs);
    return medianOf(this.durationsMs.slice(1));
  }

  /** The typical net time of each item given, summed; null when one has no time yet. */
  private itemsMs(items: readonly string[]): number | null {
    if (!items.length) return null;
    let sum = 0;
    for (const i of items) {
      const xs = this.itemMs.get(i);
      if (!xs?.length) return null;
      sum += medianOf(xs);
    }
    return sum;
  }

  private close(t: number): void {
    const c = this.current;
    if (!c) return;
    const net = Math.max(0, t - c.startMs - Math.max(0, this.onceMs - c.onceMs));
    this.itemMs.set(c.item, [...(this.itemMs.get(c.item) ?? []), net]);
    this.doneThisReplay.add(c.item);
    this.current = null;
  }

  /** Follows the item a replay's report belongs to: a change of item closes the previous one. */
  private track(p: Progress, t: number): void {
    if (p.onceMs !== undefined) this.onceMs = p.onceMs;
    if (this.current && this.current.item !== p.item) this.close(t);
    if (p.item !== undefined && !this.current) {
      this.current = { item: p.item, startMs: t, onceMs: this.onceMs };
      if (!this.order.includes(p.item)) this.order.push(p.item);
    }
  }

  /** This replay's time left from the items' times: null before every item has one. */
  private itemsLeftMs(t: number): number | null {
    if (!this.durationsMs.length || !this.order.length) return null;
    const after = this.order.filter((i) => !this.doneThisReplay.has(i) && i !== this.current?.item);
    const rest = after.length ? this.itemsMs(after) : 0;
    if (rest === null) return null;
    if (!this.current) return rest;
    const own = this.itemsMs([this.current.item]);
    if (own === null) return null;
    const spent = t - this.current.startMs - Math.max(0, this.onceMs - this.current.onceMs);
    return rest + Math.max(0, own - spent);
  }

  /** Replay `index` (0-based) reported `p`: where the whole run stands. */
  of(index: number, p: Progress): Progress {
    const t = this.now();
    this.track(p, t);
    const future = Math.max(0, this.replays - index - 1);
    const per = this.perReplayMs();
    const elapsedMs = t - this.replayStartMs;
    const thisLeftMs = this.itemsLeftMs(t) ?? p.etaMs ?? (per === null ? null : Math.max(0, per - elapsedMs));
    const etaMs = thisLeftMs === null ? null : thisLeftMs + future * (per ?? Math.max(0, elapsedMs - this.onceMs) + thisLeftMs);
    return { label: p.label, fraction: Math.min(1, (index + p.fraction) / this.replays), etaMs };
  }

  /** A replay ended; `reusedMs`: its work later replays do not redo, when its reports did not say (Progress.onceMs). */
  done(reusedMs = 0): void {
    const t = this.now();
    this.close(t);
    if (!this.durationsMs.length) this.firstReusedMs = Math.max(reusedMs, this.onceMs);
    this.durationsMs.push(t - this.replayStartMs);
    this.replayStartMs = t;
    this.doneThisReplay.clear();
    this.onceMs = 0;
  }
}
