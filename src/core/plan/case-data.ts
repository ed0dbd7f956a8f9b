// Host work once: a case's inputs and its oracle's answer are computed once per (case, seed) in a
// run and reused by every pass, replay and variant that checks against them (same seed, same
// bytes). On the H200 a four-shape replay lane spent ~30 s of host time per replay rebuilding
// them (issue 22). Entries are kept up to a byte budget; the least recently used go first.
import { caseData } from '../inputs';
import type { OracleResult } from '../ops/types';
import type { CasePlan } from './plan';

/** Host time of a run: building inputs and oracles (reused by later runs), checking outputs. */
export interface HostTimes {
  readonly buildMs: number;
  readonly checkMs: number;
}

export interface CaseData {
  readonly inputs: readonly ArrayBuffer[];
  readonly oracle: OracleResult;
}

/** Host bytes the cache keeps by default (inputs and oracle arrays): four 4096² f32 cases fit. */
export const CASE_DATA_CACHE_BYTES = 2 * 1024 ** 3;

function sizeBytes(d: CaseData): number {
  return d.inputs.reduce((a, b) => a + b.byteLength, 0) + d.oracle.ref.byteLength + d.oracle.epsFloor.byteLength + (d.oracle.indices?.byteLength ?? 0);
}

export class CaseDataCache {
  private readonly entries = new Map<string, { data: CaseData; bytes: number }>();
  private bytes = 0;
  /** Inputs + oracle computations (cache misses): a test pins that replays reuse them. */
  builds = 0;
  /** Host time spent building inputs and oracles (what a later run reuses), ms. */
  buildMs = 0;
  /** Host time spent checking outputs against the oracle (a kernel's first check on a case), ms. */
  checkMs = 0;
  /** Output checks run, and checks answered from an earlier identical run (the counts a test pins). */
  checks = 0;
  checksReused = 0;
  /**
   * A kernel's correctness reports per (inputs, kernel): the same program on the same bytes writes
   * the same output, so a replay (or the A/A arm, which is native's own program) reuses the first
   * check instead of reading back and checking 16M elements again (~1 s of host time each on the
   * H200's 4096² cases, followed by a GPU that idled into a full warm-up). Keyed by the inputs
   * array this cache handed out, so an evicted case drops its reports with it.
   */
  private readonly reports = new WeakMap<object, Map<string, { oracles: readonly object[]; reports: unknown }>>();

  constructor(
    private readonly maxBytes = CASE_DATA_CACHE_BYTES,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The case's inputs and oracle for this seed: built on first use, then the same objects. */
  get(plan: CasePlan, seed: number): CaseData {
    const key = `${plan.id}#${seed}`;
    const hit = this.entries.get(key);
    if (hit) {
      // Most recently used last: eviction takes from the front.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.data;
    }
    const data = this.time(() => caseData(plan.op, plan.c, seed), 'build');
    this.builds++;
    const bytes = sizeBytes(data);
    // A case larger than the whole budget is used once and not kept.
    if (bytes <= this.maxBytes) {
      while (this.bytes + bytes > this.maxBytes && this.entries.size) this.evictOldest();
      this.entries.set(key, { data, bytes });
      this.bytes += bytes;
    }
    return data;
  }

  /** Runs host work (a build, an output check), adding its time to buildMs or checkMs. */
  time<T>(work: () => T, kind: 'build' | 'check' = 'check'): T {
    const t0 = this.now();
    try {
      return work();
    } finally {
      if (kind === 'build') this.buildMs += this.now() - t0;
      else this.checkMs += this.now() - t0;
    }
  }

  /** The reports an identical check gave before (same inputs object, program key and oracles), or undefined. */
  reportsOf<R>(inputs: object, programKey: string, oracles: readonly object[]): R | undefined {
    const hit = this.reports.get(inputs)?.get(programKey);
    if (!hit || hit.oracles.length !== oracles.length || hit.oracles.some((o, i) => o !== oracles[i])) return undefined;
    this.checksReused++;
    return hit.reports as R;
  }

  /** Keeps a check's reports for reportsOf. */
  keepReports(inputs: object, programKey: string, oracles: readonly object[], reports: unknown): void {
    let m = this.reports.get(inputs);
    if (!m) this.reports.set(inputs, (m = new Map()));
    m.set(programKey, { oracles: [...oracles], reports });
  }

  /** Host time so far, to subtract a run's start from its end. */
  hostTimes(): HostTimes {
    return { buildMs: this.buildMs, checkMs: this.checkMs };
  }

  get keptBytes(): number {
    return this.bytes;
  }

  private evictOldest(): void {
    const [key, e] = this.entries.entries().next().value!;
    this.entries.delete(key);
    this.bytes -= e.bytes;
  }
}
