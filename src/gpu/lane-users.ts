// User kernels in the lane: each one a further column of a shape, checked against the oracle on
// native's own buffers, then timed in the same alternating rounds as native (and generated, when
// that is timed), its verdict by the same rules on native ÷ user. A user column never gates the
// pair: it ranks the kernel; the pair's promotion is still native against generated.
import { DeviceRejection, WgslCompileError } from '../core/errors';
import { ManifestError, ManifestRefusal } from '../core/manifest/errors';
import { userKernelIdentity, shortKernelId } from '../core/manifest/hash';
import type { LoadedManifest } from '../core/manifest/load';
import { resolveManifest } from '../core/manifest/resolve';
import { loadUserKernel, refForPlan, type LaneUserColumn, type UserKernelRef, type UserKernelSource } from '../core/manifest/source';
import type { Metrics } from '../core/metrics/roofline';
import type { OpCase, OracleResult } from '../core/ops/types';
import { UNIT_CHECK, UNIT_MEASURE, type ProgressTracker } from '../core/progress';
import { median, type TimingSummary } from '../core/stats/timing';
import { summarizeSpeedups, timingVerdict, verdictText, watchdogFired, WATCHDOG_FACTOR, type ShapeVerdict } from '../core/stats/verdict';
import { checkedSession } from './checked';
import { deviceAdapter, type GpuContext } from './device';
import { alternatingRounds, roundSide, type RoundSide } from './rounds';
import type { Session } from './session';

export interface LaneKernel {
  readonly loaded: LoadedManifest;
  readonly ref: UserKernelRef;
  /** Given up by an earlier process's watchdog: reported hung, never run here. */
  readonly hungNote?: string;
}

/** Loads every --kernel once (a manifest error stops the lane before any device work); one per id. */
export async function loadLaneKernels(sources: readonly UserKernelSource[] = []): Promise<LaneKernel[]> {
  const out = new Map<string, LaneKernel>();
  for (const src of sources) {
    const loaded = loadUserKernel(src);
    const identity = await userKernelIdentity(loaded);
    const ref = { ...identity, id: shortKernelId(identity) };
    if (!out.has(ref.id)) out.set(ref.id, { loaded, ref, ...(src.hungNote ? { hungNote: src.hungNote } : {}) });
  }
  return [...out.values()];
}

/** A user kernel on one shape: its column so far, and its side while it is timed. */
export interface UserEntry {
  readonly kernel: LaneKernel;
  readonly side: RoundSide | null;
  /** Set when the kernel was refused, rejected or wrong: it is not timed. */
  readonly outcome: { verdict: ShapeVerdict; refusal: LaneUserColumn['refusal']; note: string | null } | null;
  readonly correct: boolean | null;
  readonly maxErrRatio: number | null;
  readonly speedups: number[];
}

const sideName = (k: LaneKernel) => `user ${k.ref.id}`;

function isDeviceError(e: unknown): boolean {
  const name = (e as Error)?.name;
  return e instanceof DeviceRejection || e instanceof WgslCompileError || name === 'DeviceRejection' || name === 'WgslCompileError';
}

/**
 * Resolves and checks each kernel of this op on native's buffers. Refusals and device errors
 * become the column's verdict; the sessions that check out join `sessions` (the caller destroys them).
 */
export async function checkUsers(ctx: GpuContext, c: OpCase, inputs: readonly ArrayBuffer[], oracle: OracleResult, native: Session, kernels: readonly LaneKernel[], sessions: Session[], progress: ProgressTracker, minRuns?: number): Promise<UserEntry[]> {
  const entries: UserEntry[] = [];
  for (const kernel of kernels) {
    progress.tick(`${c.op} ${c.label}: correctness ${kernel.ref.id}`);
    const base = { kernel, side: null, correct: null, maxErrRatio: null, speedups: [] };
    try {
      const plan = resolveManifest(kernel.loaded, c, deviceAdapter(ctx));
      // The column names the variant run here and the numerics it is judged by.
      const named = { ...base, kernel: { ...kernel, ref: refForPlan(kernel.ref, plan) } };
      const checked = await checkedSession(ctx, plan, c, inputs, [oracle], native);
      sessions.push(checked.session);
      const report = checked.reports[0];
      entries.push(
        checked.correct
          ? { ...named, side: roundSide(sideName(kernel), checked.session, minRuns), outcome: null, correct: true, maxErrRatio: report.worstRatio }
          : { ...named, outcome: { verdict: 'wrong', refusal: null, note: `output does not match the oracle (${report.failures[0] ?? 'see guard bands'}): never timed` }, correct: false, maxErrRatio: report.worstRatio },
      );
    } catch (e) {
      if (e instanceof ManifestRefusal) {
        entries.push({ ...base, outcome: { verdict: e.declared ? 'declared-fallback' : 'device-rejection', refusal: { code: e.code, reason: e.reason, declared: e.declared }, note: null } });
      } else if (e instanceof ManifestError || isDeviceError(e)) {
        entries.push({ ...base, outcome: { verdict: 'device-rejection', refusal: null, note: `${(e as Error).name}: ${(e as Error).message}` } });
      } else {
        throw e;
      }
    }
    progress.advance(1, UNIT_CHECK);
  }
  // A kernel that wrote a source (it is 'wrong' for it) must not leave native's inputs changed.
  if (kernels.length) native.upload();
  return entries;
}

export const timedSides = (entries: readonly UserEntry[]): RoundSide[] => entries.flatMap((e) => (e.side ? [e.side] : []));

/** native ÷ user for every kernel measured in this round beside native. */
export function recordUserRound(entries: readonly UserEntry[], medians: ReadonlyMap<string, number>): void {
  const n = medians.get('native');
  if (n === undefined) return;
  for (const e of entries) {
    const u = e.side && medians.get(e.side.name);
    if (u) e.speedups.push(n / u);
  }
}

/** The watchdog for a user side (over WATCHDOG_FACTOR× native, or the wall bound): too-slow. */
export function userWatchdog(t: TimingSummary, referenceNs: number | null, wallBoundNs: number): string | null {
  return referenceNs !== null && watchdogFired(t.medianNs, referenceNs, wallBoundNs) ? `user median ${(t.medianNs / 1e3).toFixed(1)} µs is over ${WATCHDOG_FACTOR}× the native median` : null;
}

export function isUserSide(entries: readonly UserEntry[], side: RoundSide): boolean {
  return entries.some((e) => e.side === side);
}

/**
 * When generated is not timed on this shape (a fallback, a rejection, a wrong output), the user
 * kernels still are: native against them alone, in the same alternating rounds.
 */
export async function timeUsersAlone(ctx: GpuContext, native: Session, nativeCorrect: boolean, entries: readonly UserEntry[], o: { repeat: number; wallBoundMs: number; minRuns?: number; progress: ProgressTracker; label: string }): Promise<number[]> {
  const sides = timedSides(entries);
  if (!sides.length || !nativeCorrect) {
    o.progress.drop(sides.length * o.repeat, UNIT_MEASURE);
    return [];
  }
  // Native's measurements here take the units generated's would have had.
  const nativeSide = roundSide('native', native, o.minRuns);
  const wallBoundNs = o.wallBoundMs * 1e6;
  await alternatingRounds(ctx, [nativeSide, ...sides], { rounds: o.repeat, wallBoundMs: o.wallBoundMs, progress: o.progress }, {
    onSide: (side, pass) => o.progress.tick(`${o.label}: pass ${pass + 1}/${o.repeat} ${side.name}`),
    after: (side, t, _pass, referenceNs) => (side === nativeSide ? null : userWatchdog(t, referenceNs, wallBoundNs)),
    onRound: (_pass, medians) => recordUserRound(entries, medians),
    done: () => sides.every((s) => s.stopped !== null),
  });
  return nativeSide.samplesNs;
}

/** The columns, once the rounds are done: each kernel's verdict by the lane's rules. */
export function userColumns(entries: readonly UserEntry[], tolerance: number, metricsOf: (medians: number[]) => Metrics | null, nativeCorrect: boolean, floorOf: (medianNs: number | null) => number): LaneUserColumn[] {
  return entries.map((e) => {
    const s = e.speedups.length ? summarizeSpeedups(e.speedups) : null;
    const samples = e.side?.samplesNs ?? [];
    const untimed = e.outcome ?? (nativeCorrect ? null : { verdict: 'wrong' as const, refusal: null, note: 'the native kernel does not match the oracle: not timed' });
    // The same effect floor as the generated column: a user kernel's gain must clear it too.
    const floor = floorOf(samples.length ? median(samples) : null);
    const verdict: ShapeVerdict = untimed ? untimed.verdict : e.side?.stopped ? 'too-slow' : timingVerdict(e.speedups, tolerance, floor);
    return {
      kernel: e.kernel.ref,
      verdict,
      refusal: untimed?.refusal ?? null,
      correct: e.correct,
      maxErrRatio: e.maxErrRatio,
      medianNs: samples.length ? median(samples) : null,
      speedups: e.speedups,
      speedupMedian: s?.median ?? null,
      speedupMin: s?.min ?? null,
      speedupMax: s?.max ?? null,
      metrics: untimed ? null : metricsOf(samples),
      note: untimed?.note ?? e.side?.stopped ?? (verdict === 'undecided' ? verdictText(verdict, floor, tolerance) : null),
    };
  });
}

/** The column of a user kernel the watchdog ended on this shape: too-slow, its message the note. */
export function hungUserColumn(kernel: LaneKernel, note: string): LaneUserColumn {
  return { kernel: kernel.ref, verdict: 'too-slow', refusal: null, correct: null, maxErrRatio: null, medianNs: null, speedups: [], speedupMedian: null, speedupMin: null, speedupMax: null, metrics: null, note };
}
