// The promotion lane (Level 2): native vs generated over each pair's shape matrix on one device;
// counters per site, correctness first, alternating timed passes, the median of the ratios.
// Which pairs run, the controls and the pair's judgement are pure (src/core/lane/judgement.ts).
import { DeviceRejection, UsageError, WgslCompileError } from '../core/errors';
import { controlled, judgePair, lanePairs, laneState, plantedFactor } from '../core/lane/judgement';
import { plantSizeText, type PlantRecord } from '../core/lane/plant';
import { plantCounts, plantSlowdown } from './plant';
import { measure } from './measure';
import { Session } from './session';
import type { KernelSpec } from '../core/kernel';
import { kernelFeatures, programOf, type KernelProgram } from '../core/program';
import { computeMetrics, peaksFor, peaksForKernel } from '../core/metrics/roofline';
import { opByName, registryEntry, type PromotionState, type ShapeRule } from '../core/ops/registry';
import { opFamilies } from '../core/ops/types';
import { ProgressTracker, UNIT_CHECK, UNIT_MEASURE, type ProgressFn } from '../core/progress';
import { planOf, refuseOutsideLimits, type CasePlan } from '../core/plan/plan';
import { resolveKernel, type CaseRequest } from '../core/resolve-kernel';
import type { LaneControl, LaneCounters, LanePair, LaneRequest, LaneResult, LaneShape, RepeatAuto } from '../core/results';
import { repeatAutoDone } from '../core/stats/repeat-auto';
import { parseSchedule } from '../core/schedule/schedule';
import { median, relativeSpread } from '../core/stats/timing';
import { DEFAULT_TOLERANCE, effectFloor, outOfLinePasses, summarizeSpeedups, timingVerdict, watchdogFired, WATCHDOG_FACTOR } from '../core/stats/verdict';
import { checkedSession, type CheckedSession } from './checked';
import type { GpuContext } from './device';
import { alternatingRounds, roundSide } from './rounds';
import { WatchdogError } from './watchdog';
import { checkUsers, hungUserColumn, isUserSide, loadLaneKernels, recordUserRound, timedSides, timeUsersAlone, userColumns, userWatchdog, type LaneKernel } from './lane-users';

export type { ChecklistItem, LaneControl, LaneCounters, LanePair, LaneRequest, LaneResult, LaneShape } from '../core/results';

/**
 * The effect floor of a kernel timed against this native column (verdict.ts): its own median's
 * ticks, and the native medians' spread over the passes. Generated and user columns share it.
 */
function floorFor(resolutionNs: number | null, nativeMediansNs: readonly number[]): (medianNs: number | null) => number {
  const spread = nativeMediansNs.length > 1 ? relativeSpread(nativeMediansNs) : 0;
  return (medianNs) => effectFloor(resolutionNs, medianNs, spread);
}

/** Dispatches one run of a kernel makes (the 3×-work controls repeat theirs). */
function dispatchesPerRun(k: KernelSpec | KernelProgram): number {
  return programOf(k).passes.reduce((n, p) => n + (p.repeat ?? 1), 0);
}

function isDeviceRejection(e: unknown): boolean {
  return e instanceof DeviceRejection || e instanceof WgslCompileError || (e as Error)?.name === 'DeviceRejection' || (e as Error)?.name === 'WgslCompileError';
}

/** Work units of one shape: two checks (native, generated), then two measurements per pass; each user kernel one check and one measurement per pass. */
const shapeChecks = (users = 0) => 2 + users;
const shapeMeasures = (repeat: number, users = 0) => (2 + users) * repeat;

/** Where the tracker stands, by kind: a shape's leftover units are what it neither did nor dropped. */
function unitsNow(p: ProgressTracker) {
  return { checksDone: p.doneOf(UNIT_CHECK), checksTotal: p.totalOf(UNIT_CHECK), measuresDone: p.doneOf(UNIT_MEASURE), measuresTotal: p.totalOf(UNIT_MEASURE) };
}

export async function runLane(ctx: GpuContext, req: LaneRequest, onProgress?: ProgressFn): Promise<LaneResult> {
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  const host0 = ctx.host.hostTimes();
  const repeat = req.repeat ?? 5;
  // --repeat auto: passes until the median's interval is narrow enough, up to its cap.
  const passesAtMost = req.repeatAuto?.maxPasses ?? repeat;
  const tolerance = req.tolerance ?? DEFAULT_TOLERANCE;
  const seed = req.seed ?? 1;
  const wallBoundMs = req.wallBoundMs ?? 10_000;
  if (!Number.isInteger(repeat) || repeat < 1) throw new UsageError(`repeat must be a positive integer, got ${repeat}`);
  if (!(tolerance >= 0 && tolerance < 1)) throw new UsageError(`tolerance must be in [0, 1), got ${tolerance}`);
  for (const p of req.prefer ?? []) opByName(p);
  const { run, skipped } = lanePairs(req, ctx.adapter);
  const undeclare = new Set(req.undeclare ?? []);
  const proposalRules = (op: string): ShapeRule[] =>
    (req.proposal ?? []).filter((p) => opByName(p.op).name === op).map((p) => ({ when: p.when, schedule: parseSchedule(p.schedule, opFamilies(opByName(op))), note: 'proposal under evaluation' }));
  for (const p of req.proposal ?? []) proposalRules(p.op);

  const kernels = await loadLaneKernels(req.kernels);
  // Kernels an earlier process's watchdog gave up are reported hung on every shape, never run.
  const kernelsOf = (op: string) => kernels.filter((k) => k.loaded.op.name === op && !k.hungNote);
  const hungOf = (op: string) => kernels.filter((k) => k.loaded.op.name === op && k.hungNote);
  const cases = run.map((op) => {
    const entries: CaseRequest[] = req.shapes ? req.shapes.filter((s) => opByName(s.op).name === op.name) : [...op.matrix];
    const all = entries.map((e) => planOf(op, e));
    // Every shape is refused before the first one runs: a late refusal would waste the others.
    for (const p of all) refuseOutsideLimits(p, ctx.adapter);
    return { op, cases: all };
  });
  // Each report names its shape and the one-time work done so far (inputs, oracles, first checks,
  // plant calibrations): a replayed run estimates later replays per shape without it (progress.ts).
  let item: string | undefined;
  const plant0 = plantCounts(ctx).calibrationMs;
  const onceMs = () => ctx.host.buildMs - host0.buildMs + (ctx.host.checkMs - host0.checkMs) + (plantCounts(ctx).calibrationMs - plant0);
  const progress = new ProgressTracker(
    {
      [UNIT_CHECK]: cases.reduce((a, p) => a + p.cases.length * shapeChecks(kernelsOf(p.op.name).length), 0),
      [UNIT_MEASURE]: cases.reduce((a, p) => a + p.cases.length * shapeMeasures(passesAtMost, kernelsOf(p.op.name).length), 0),
    },
    onProgress && ((p) => onProgress({ ...p, ...(item !== undefined ? { item } : {}), onceMs: onceMs() })),
    () => performance.now(),
  );

  const pairs: LanePair[] = [];
  for (const { op, cases: opCases } of cases) {
    const entry = registryEntry(op.name);
    const { state, registry } = laneState(op.name, ctx.adapter, req.prefer);
    const declared = entry.declaredRejections.filter((d) => !undeclare.has(d));
    const counters: LaneCounters = { generatedDispatches: 0, nativeFallbacks: {}, undeclaredFallbacks: 0, deviceRejections: 0 };
    const shapes: LaneShape[] = [];
    for (const plan of opCases) {
      const { c } = plan;
      const before = unitsNow(progress);
      item = `${op.name} ${c.label}`;
      progress.tick(`${op.name} ${c.label}: correctness`);
      const users = kernelsOf(op.name);
      const shape = await runShapeWatched(ctx, plan, { repeat, repeatAuto: req.repeatAuto, tolerance, seed, wallBoundMs, minRuns: req.minRuns, control: req.control, rulesBefore: proposalRules(op.name), state, declared, counters, progress, users });
      // A shape where the planted factor could not be placed within the band is no control: refused.
      const hung = hungOf(op.name).map((k) => hungUserColumn(k, k.hungNote!));
      if ('refused' in shape) skipped.push({ op: op.name, reason: `${c.label}: refused as a control: ${shape.refused.refused}`, plant: { shape: c.label, ...shape.refused } });
      else shapes.push(hung.length ? { ...shape, users: [...(shape.users ?? []), ...hung] } : shape);
      // However early the shape ended, none of its units is left: what did not run leaves the total.
      const after = unitsNow(progress);
      progress.drop(shapeChecks(users.length) - (after.checksDone - before.checksDone) - (before.checksTotal - after.checksTotal), UNIT_CHECK);
      progress.drop(shapeMeasures(passesAtMost, users.length) - (after.measuresDone - before.measuresDone) - (before.measuresTotal - after.measuresTotal), UNIT_MEASURE);
    }
    // Every shape refused as a planted control: no pair to judge (the refusals are in skipped).
    if (!shapes.length && opCases.length && plantedFactor(req.control) !== null) continue;
    pairs.push(judgePair(op, state, registry.state, counters, shapes, ctx.adapter, declared, req.allowUndecided ?? false));
  }
  item = undefined;
  progress.finish();
  const green = pairs.every((p) => p.verdict !== 'lane-failed' && p.verdict !== 'gate-failed');
  return {
    kind: 'lane',
    adapter: ctx.adapter,
    settings: { repeat, tolerance, seed, prefer: req.prefer ?? [], control: req.control ?? null, undeclare: [...undeclare], wallBoundMs, proposalRules: req.proposal?.length ?? 0, ...(req.allowUndecided ? { allowUndecided: true } : {}), ...(req.repeatAuto ? { repeatAuto: req.repeatAuto } : {}) },
    pairs,
    skipped,
    green,
    startedAt,
    durationMs: performance.now() - t0,
    host: { buildMs: ctx.host.buildMs - host0.buildMs, checkMs: ctx.host.checkMs - host0.checkMs },
  };
}

interface ShapeOptions {
  repeat: number;
  repeatAuto?: RepeatAuto;
  tolerance: number;
  seed: number;
  wallBoundMs: number;
  minRuns?: number;
  control?: LaneControl;
  rulesBefore: readonly ShapeRule[];
  /** The state the pair is judged by: what 'auto' follows here. */
  state: PromotionState;
  declared: readonly string[];
  counters: LaneCounters;
  progress: ProgressTracker;
  /** User kernels of this op: further columns, timed beside native in the same rounds. */
  users: readonly LaneKernel[];
}

function shapeBase(plan: CasePlan) {
  const { op, c } = plan;
  const bytes = op.bytes(c);
  return { shape: c.label, dims: c.dims, caseId: plan.id, layout: c.layout, params: c.params, flops: op.flops(c), readBytes: bytes.readBytes, writeBytes: bytes.writeBytes };
}

const EMPTY_TIMING = { nativeMedianNs: null, generatedMedianNs: null, speedups: [], speedupMedian: null, speedupMin: null, speedupMax: null, generatedCorrect: null, generatedMaxErrRatio: null, resolutionNs: null, runsPerPass: null, nativeMetrics: null, generatedMetrics: null };

/**
 * A shape under the watchdog: a kernel that hangs gives up the device (watchdog.ts, which opens a
 * new one) and the shape is run again on it without that kernel — a user kernel's column is then
 * `too-slow` naming the bound; a native or generated kernel that hangs makes the shape `too-slow`.
 */
async function runShapeWatched(ctx: GpuContext, plan: CasePlan, o: ShapeOptions): Promise<LaneShape | { refused: PlantRecord }> {
  try {
    return await runShape(ctx, plan, o);
  } catch (e) {
    // Without a working device (recovery failed), nothing more can run: the lane ends with the error.
    if (!(e instanceof WatchdogError) || e.recoveryMs === null) throw e;
    const culprit = o.users.find((u) => e.label === `user:${u.loaded.manifest.name}`);
    if (!culprit) {
      return { ...shapeBase(plan), ...EMPTY_TIMING, scheduleKey: null, verdict: 'too-slow', fallback: null, nativeCorrect: false, note: e.message };
    }
    const shape = await runShapeWatched(ctx, plan, { ...o, users: o.users.filter((u) => u !== culprit) });
    if ('refused' in shape) return shape;
    const hung = hungUserColumn(culprit, e.message);
    const others = shape.users ?? [];
    return { ...shape, users: o.users.map((u) => (u === culprit ? hung : others.find((col) => col.kernel.id === u.ref.id)!)).filter(Boolean) };
  }
}

async function runShape(ctx: GpuContext, plan: CasePlan, o: ShapeOptions): Promise<LaneShape | { refused: PlantRecord }> {
  const { op, c } = plan;
  const base = shapeBase(plan);
  const empty = EMPTY_TIMING;
  const peaks = peaksFor(ctx.adapter, ctx.calibration);
  // A kernel on subgroup matrices is held to the measured MMA ceiling (blank without one), not the f32 ALU peak.
  const metricsOf = (medians: number[], kernel?: KernelSpec | KernelProgram) =>
    medians.length ? computeMetrics({ minNs: Math.min(...medians), medianNs: median(medians) }, base.flops, base.readBytes + base.writeBytes, kernel ? peaksForKernel(peaks, kernelFeatures(kernel), ctx.calibration) : peaks) : null;
  const { inputs, oracle } = ctx.host.get(plan, o.seed);
  const nativeKernel = plan.native();
  const resolved = o.control
    ? { variant: 'generated' as const, schedule: null, scheduleKey: `control:${o.control}`, kernel: controlled(nativeKernel, o.control), fallback: null }
    : resolveKernel(plan, { kind: 'auto' }, ctx.adapter, { rulesBefore: o.rulesBefore, state: o.state });
  const planted = plantedFactor(o.control);
  let plant: PlantRecord | null = null;
  /** What the generated side runs: the resolved kernel, or the native one with its plant. */
  let generatedKernel: KernelSpec | KernelProgram = resolved.kernel;

  const sessions: Session[] = [];
  try {
    let native: CheckedSession;
    try {
      native = await checkedSession(ctx, nativeKernel, c, inputs, [oracle], undefined, true);
      sessions.push(native.session);
      o.progress.advance(1, UNIT_CHECK);
    } catch (e) {
      if (!isDeviceRejection(e)) throw e;
      o.counters.deviceRejections++;
      return { ...base, ...empty, scheduleKey: null, verdict: 'device-rejection', fallback: null, nativeCorrect: false, note: `native kernel: ${(e as Error).message}` };
    }
    const users = await checkUsers(ctx, c, inputs, oracle, native.session, o.users, sessions, o.progress, o.minRuns);
    /** A shape whose generated side is not timed: the user kernels are, against native alone. */
    const withUsers = async (shape: LaneShape): Promise<LaneShape> => {
      if (!users.length) return shape;
      const nativeMedians = await timeUsersAlone(ctx, native.session, native.correct, users, { repeat: o.repeat, wallBoundMs: o.wallBoundMs, minRuns: o.minRuns, progress: o.progress, label: `${op.name} ${c.label}` });
      return { ...shape, nativeMedianNs: shape.nativeMedianNs ?? (nativeMedians.length ? median(nativeMedians) : null), nativeMetrics: shape.nativeMetrics ?? metricsOf(nativeMedians), users: userColumns(users, o.tolerance, (m) => metricsOf(m), native.correct, floorFor(null, nativeMedians)) };
    };
    if (resolved.fallback) {
      const declared = o.declared.includes(resolved.fallback.code);
      o.counters.nativeFallbacks[resolved.fallback.code] = (o.counters.nativeFallbacks[resolved.fallback.code] ?? 0) + 1;
      if (!declared) o.counters.undeclaredFallbacks++;
      return withUsers({ ...base, ...empty, scheduleKey: null, verdict: declared ? 'declared-fallback' : 'undeclared-fallback', fallback: { ...resolved.fallback, declared }, nativeCorrect: native.correct, note: null });
    }
    if (planted !== null) {
      o.progress.tick(`${op.name} ${c.label}: planting ${planted}× and measuring it`);
      const placed = await plantSlowdown(ctx, nativeKernel, native.session, c, inputs, oracle, planted);
      if (!placed.kernel) return { refused: placed.record };
      generatedKernel = placed.kernel;
      plant = placed.record;
    }
    let generated: CheckedSession;
    try {
      // On native's own buffers: the two sides differ only in their kernel.
      generated = await checkedSession(ctx, generatedKernel, c, inputs, [oracle], native.session, true);
      sessions.push(generated.session);
      o.counters.generatedDispatches += dispatchesPerRun(generatedKernel);
      o.progress.advance(1, UNIT_CHECK);
    } catch (e) {
      if (!isDeviceRejection(e)) throw e;
      o.counters.deviceRejections++;
      return withUsers({ ...base, ...empty, scheduleKey: resolved.scheduleKey, verdict: 'device-rejection', fallback: null, nativeCorrect: native.correct, note: (e as Error).message });
    }
    const generatedWorstRatio = generated.reports[0].worstRatio;
    if (!generated.correct || !native.correct) {
      return withUsers({
        ...base,
        ...empty,
        scheduleKey: resolved.scheduleKey,
        verdict: 'wrong',
        fallback: null,
        nativeCorrect: native.correct,
        generatedCorrect: generated.correct,
        generatedMaxErrRatio: generatedWorstRatio,
        note: native.correct ? 'generated output does not match the oracle: never timed' : 'the native kernel does not match the oracle: semantics are not exact',
      });
    }

    // Native first on even passes, generated first on odd ones; native is the watchdog's yardstick.
    const nativeSide = roundSide('native', native.session, o.minRuns);
    const generatedSide = roundSide('generated', generated.session, o.minRuns);
    const speedups: number[] = [];
    let resolutionNs: number | null = null;
    const wallBoundNs = o.wallBoundMs * 1e6;
    const userSides = timedSides(users);
    const rounds = o.repeatAuto?.maxPasses ?? o.repeat;
    await alternatingRounds(ctx, [nativeSide, generatedSide, ...userSides], { rounds, wallBoundMs: o.wallBoundMs, progress: o.progress }, {
      onSide: (side, pass) => o.progress.tick(`${op.name} ${c.label}: pass ${pass + 1}/${o.repeatAuto ? `≤ ${rounds}` : rounds} ${side.name}`),
      before: async (side, pass, referenceNs) => {
        if (side !== generatedSide || referenceNs === null || pass !== 0) return null;
        // Watchdog probe: one timed run before a batch of them.
        const probe = await generated.session.time(1);
        const probeNs = Number(probe.timestamps[1] - probe.timestamps[0]);
        return watchdogFired(probeNs, referenceNs, wallBoundNs)
          ? `one generated run took ${(probeNs / 1e3).toFixed(1)} µs, over ${WATCHDOG_FACTOR}× the native median (${(referenceNs / 1e3).toFixed(1)} µs) or the wall bound`
          : null;
      },
      after: (side, t, _pass, referenceNs) => {
        resolutionNs = t.resolutionNs;
        if (isUserSide(users, side)) return userWatchdog(t, referenceNs, wallBoundNs);
        if (side !== generatedSide) return null;
        o.counters.generatedDispatches += t.runs * dispatchesPerRun(generatedKernel);
        return referenceNs !== null && watchdogFired(t.medianNs, referenceNs, wallBoundNs) ? `generated median ${(t.medianNs / 1e3).toFixed(1)} µs is over ${WATCHDOG_FACTOR}× the native median` : null;
      },
      onRound: (_pass, medians) => {
        const n = medians.get('native');
        const g = medians.get('generated');
        if (n !== undefined && g !== undefined) speedups.push(n / g);
        recordUserRound(users, medians);
      },
      // Generated too slow ends the rounds unless a user kernel is still being measured; under
      // --repeat auto, so does a median pinned down (repeat-auto.ts).
      done: () => [generatedSide, ...userSides].every((s) => s.stopped !== null) || (o.repeatAuto !== undefined && repeatAutoDone(speedups, o.repeatAuto)),
    });
    const tooSlow = generatedSide.stopped;
    const nativeMedians = nativeSide.samplesNs;
    const generatedMedians = generatedSide.samplesNs;
    // Out-of-line passes are measured once more, in the same alternating order, and replaced.
    let remeasuredPasses = 0;
    if (!tooSlow && speedups.length === nativeMedians.length && nativeMedians.length === generatedMedians.length) {
      for (const pass of outOfLinePasses(nativeMedians, generatedMedians)) {
        o.progress.tick(`${op.name} ${c.label}: pass ${pass + 1} out of line, measured again`);
        const order = pass % 2 === 0 ? [nativeSide, generatedSide] : [generatedSide, nativeSide];
        const again = new Map<string, number>();
        for (const side of order) again.set(side.name, (await measure(ctx, side.session, { minRuns: side.runs, wallBoundMs: o.wallBoundMs })).medianNs);
        nativeMedians[pass] = again.get('native')!;
        generatedMedians[pass] = again.get('generated')!;
        speedups[pass] = nativeMedians[pass] / generatedMedians[pass];
        remeasuredPasses++;
      }
    }
    const s = speedups.length ? summarizeSpeedups(speedups) : null;
    const floorOf = floorFor(resolutionNs, nativeMedians);
    const floor = floorOf(generatedMedians.length ? median(generatedMedians) : null);
    return {
      ...base,
      scheduleKey: resolved.scheduleKey,
      nativeMedianNs: nativeMedians.length ? median(nativeMedians) : null,
      generatedMedianNs: generatedMedians.length ? median(generatedMedians) : null,
      speedups,
      speedupMedian: s?.median ?? null,
      speedupMin: s?.min ?? null,
      speedupMax: s?.max ?? null,
      verdict: tooSlow ? 'too-slow' : timingVerdict(speedups, o.tolerance, floor),
      effectFloor: floor,
      fallback: null,
      nativeCorrect: true,
      generatedCorrect: true,
      generatedMaxErrRatio: generatedWorstRatio,
      note: tooSlow ?? (plant?.measuredFactor != null ? `planted ${planted}× slowdown inside the kernel's dispatch (${plantSizeText(plant.iterations!)}): Level 1 measured ${plant.measuredFactor.toFixed(3)}× before the passes` : null),
      ...(plant?.measuredFactor != null ? { plantedRatio: plant.measuredFactor, plant } : {}),
      remeasuredPasses,
      ...(o.repeatAuto ? { passes: speedups.length } : {}),
      resolutionNs,
      runsPerPass: generatedSide.runs ?? null,
      nativeMetrics: metricsOf(nativeMedians, nativeKernel),
      generatedMetrics: metricsOf(generatedMedians, generatedKernel),
      ...(users.length ? { users: userColumns(users, o.tolerance, (m) => metricsOf(m), true, floorOf) } : {}),
    };
  } finally {
    sessions.forEach((s) => s.destroy());
  }
}
