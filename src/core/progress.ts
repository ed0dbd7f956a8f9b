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

export class ProgressTracker {
  private done = 0;
  private readonly startedMs: number;

  /** `now`: a clock in ms (performance.now in the GPU layer; a fake one in tests). */
  constructor(
    private total: number,
    private readonly onProgress: ProgressFn | undefined,
    private readonly now: () => number,
  ) {
    if (!(total >= 0) || !Number.isFinite(total)) throw new RangeError(`a progress total must be a finite number ≥ 0, got ${total}`);
    this.startedMs = now();
  }

  get doneUnits(): number {
    return this.done;
  }

  get totalUnits(): number {
    return this.total;
  }

  /** Units done, counted toward the rate. */
  advance(units = 1): void {
    this.done = Math.min(this.total, this.done + units);
  }

  /**
   * Units that will never run (a shape ended early, a candidate refused): taken off the total,
   * not counted as done, so they do not make the measured rate look faster than it is.
   */
  drop(units: number): void {
    this.total = Math.max(this.done, this.total - units);
  }

  /** Reports where the run stands, with `label` saying what runs next. */
  tick(label: string): Progress {
    const fraction = this.total > 0 ? Math.min(1, this.done / this.total) : 1;
    const p: Progress = { label, fraction, etaMs: estimateTimeLeftMs(this.done, this.total, this.now() - this.startedMs) };
    this.onProgress?.(p);
    return p;
  }

  /** The closing report: everything done. */
  finish(label = 'done'): void {
    this.done = this.total;
    this.onProgress?.({ label, fraction: 1, etaMs: 0 });
  }
}
