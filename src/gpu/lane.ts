// The promotion lane (Level 2): native vs generated over each pair's shape matrix on one device;
// counters per site, correctness first, alternating timed passes, the median of the ratios.
import type { AdapterDescriptor } from '../core/adapter';
import { DeviceRejection, UsageError, WgslCompileError } from '../core/errors';
import type { KernelSpec } from '../core/kernel';
import { OPS, opByName, registryEntry, type PromotionState, type ShapeRule } from '../core/ops/registry';
import { parseSchedule } from '../core/schedule/schedule';
import type { MatrixEntry, OpCase, OpDef } from '../core/ops/types';
import { nelements } from '../core/tensor';
import { computeMetrics, peaksFor } from '../core/metrics/roofline';
import { checkOutput } from '../core/stats/correctness';
import { median } from '../core/stats/timing';
import { DEFAULT_TOLERANCE, GATE_FAILURES, LANE_FAILURES, summarizeSpeedups, timingVerdict, watchdogFired, WATCHDOG_FACTOR, type ShapeVerdict } from '../core/stats/verdict';
import type { ProgressFn } from '../worker/api';
import type { GpuContext } from './device';
import type { ChecklistItem, LaneControl, LaneCounters, LanePair, LaneRequest, LaneResult, LaneShape } from '../core/results';

export type { ChecklistItem, LaneControl, LaneCounters, LanePair, LaneRequest, LaneResult, LaneShape } from '../core/results';
import { makeInputs, oracleSample, resolveKernel } from './level1';
import { measure } from './measure';
import { Session } from './session';


const CHECK_TITLES: Record<ChecklistItem['id'], string> = {
  semantics: 'semantics exact (native matches the oracle, aliasing and params included)',
  'lane-green': 'lane green (generated dispatches > 0, every fallback declared, no device rejection)',
  'no-slower': 'no shape slower beyond the tolerance',
  'device-parity': "generated kernel's device output matches the oracle",
  'contract-clean': 'require fails cleanly on a shape outside the contract',
};

/** The generated side under a statistics control. */
function controlled(native: KernelSpec, control: LaneControl): KernelSpec {
  switch (control) {
    case 'aa':
      return { ...native, label: `${native.label} (A/A control)` };
    case 'slow':
      return { ...native, label: `${native.label} (3× work control)`, repeat: 3 };
    case 'stall':
      return { ...native, label: `${native.label} (200× work control)`, repeat: 200 };
    case 'wrong': {
      const [x, y, z] = native.dispatch;
      // Half the workgroups: half the output never written — wrong, and faster.
      return { ...native, label: `${native.label} (wrong control)`, dispatch: y > 1 ? [x, Math.ceil(y / 2), z] : [Math.max(1, Math.floor(x / 2)), y, z] };
    }
  }
}

/** A case outside every op's contract: u32 indices overflow at 4G elements. */
export function contractProbe(op: OpDef): OpCase {
  const entry = op.matrix[0];
  const base = op.makeCase(entry.dims, entry.layout);
  const scale = Math.ceil(2 ** 32 / nelements(base.dst)) + 1;
  return op.makeCase([entry.dims[0] * scale, ...entry.dims.slice(1)], entry.layout);
}

function isDeviceRejection(e: unknown): boolean {
  return e instanceof DeviceRejection || e instanceof WgslCompileError || (e as Error)?.name === 'DeviceRejection' || (e as Error)?.name === 'WgslCompileError';
}

interface Prepared {
  session: Session;
  correct: boolean;
  worstRatio: number;
}

async function prepareChecked(ctx: GpuContext, kernel: KernelSpec, c: OpCase, inputs: ArrayBuffer[], oracle: ReturnType<OpDef['oracle']>, shareWith?: Session): Promise<Prepared> {
  const session = await Session.prepare(ctx, kernel, c, inputs, shareWith);
  session.upload();
  await session.dispatch();
  const report = checkOutput(c.dst, oracle, session.dstBefore(), await session.readback());
  return { session, correct: report.correct, worstRatio: report.worstRatio };
}

export function lanePairs(req: LaneRequest): { run: OpDef[]; skipped: { op: string; reason: string }[] } {
  // Explicit shapes name their ops; otherwise --op, otherwise every op in the registry.
  const named = req.ops?.length ? req.ops : req.shapes?.length ? [...new Set(req.shapes.map((s) => opByName(s.op).name))] : null;
  const wanted = named ? named.map((o) => opByName(o)) : [...OPS];
  const run: OpDef[] = [];
  const skipped: { op: string; reason: string }[] = [];
  for (const op of wanted) {
    const state = registryEntry(op.name).state;
    if (state === 'native-only' && !req.prefer?.includes(op.name)) skipped.push({ op: op.name, reason: 'native-only: no generated kernel is registered for it, so there is nothing to compare' });
    else if (state === 'retired') skipped.push({ op: op.name, reason: 'retired: the native kernel is deleted; only the oracle checks it now' });
    else run.push(op);
  }
  return { run, skipped };
}

export async function runLane(ctx: GpuContext, req: LaneRequest, onProgress?: ProgressFn): Promise<LaneResult> {
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  const repeat = req.repeat ?? 5;
  const tolerance = req.tolerance ?? DEFAULT_TOLERANCE;
  const seed = req.seed ?? 1;
  const wallBoundMs = req.wallBoundMs ?? 10_000;
  if (!Number.isInteger(repeat) || repeat < 1) throw new UsageError(`repeat must be a positive integer, got ${repeat}`);
  if (!(tolerance >= 0 && tolerance < 1)) throw new UsageError(`tolerance must be in [0, 1), got ${tolerance}`);
  for (const p of req.prefer ?? []) opByName(p);
  const { run, skipped } = lanePairs(req);
  const undeclare = new Set(req.undeclare ?? []);
  const proposalRules = (op: string): ShapeRule[] =>
    (req.proposal ?? []).filter((p) => opByName(p.op).name === op).map((p) => ({ when: p.when, schedule: parseSchedule(p.schedule, opByName(op).family), note: 'proposal under evaluation' }));
  for (const p of req.proposal ?? []) proposalRules(p.op);

  const cases = run.map((op) => {
    const entries: MatrixEntry[] = req.shapes ? req.shapes.filter((s) => opByName(s.op).name === op.name).map((s) => ({ dims: s.dims, layout: s.layout ?? op.layouts[0].name })) : [...op.matrix];
    return { op, cases: entries.map((e) => op.makeCase(e.dims, e.layout)) };
  });
  const totalUnits = cases.reduce((a, p) => a + p.cases.length * (repeat + 1), 0);
  let doneUnits = 0;
  const tick = (label: string) => {
    const fraction = totalUnits ? doneUnits / totalUnits : 1;
    const elapsed = performance.now() - t0;
    onProgress?.({ label, fraction, etaMs: fraction > 0 ? (elapsed / fraction) * (1 - fraction) : null });
  };

  const pairs: LanePair[] = [];
  for (const { op, cases: opCases } of cases) {
    const entry = registryEntry(op.name);
    const state: PromotionState = req.prefer?.includes(op.name) ? 'prefer' : entry.state;
    const counters: LaneCounters = { generatedDispatches: 0, nativeFallbacks: {}, undeclaredFallbacks: 0, deviceRejections: 0 };
    const shapes: LaneShape[] = [];
    for (const c of opCases) {
      const unitsBefore = doneUnits;
      tick(`${op.name} ${c.label}: correctness`);
      shapes.push(await runShape(ctx, op, c, { repeat, tolerance, seed, wallBoundMs, minRuns: req.minRuns, control: req.control, rulesBefore: proposalRules(op.name), declared: entry.declaredRejections.filter((d) => !undeclare.has(d)), counters, tick, advance: () => doneUnits++ }));
      // A shape is one correctness unit plus one per pass, however early it ended.
      doneUnits = unitsBefore + repeat + 1;
    }
    pairs.push(judgePair(op, state, entry.state, counters, shapes, ctx.adapter, entry.declaredRejections.filter((d) => !undeclare.has(d))));
  }
  onProgress?.({ label: 'done', fraction: 1, etaMs: 0 });
  const green = pairs.every((p) => p.verdict !== 'lane-failed' && p.verdict !== 'gate-failed');
  return {
    kind: 'lane',
    adapter: ctx.adapter,
    settings: { repeat, tolerance, seed, prefer: req.prefer ?? [], control: req.control ?? null, undeclare: [...undeclare], wallBoundMs, proposalRules: req.proposal?.length ?? 0 },
    pairs,
    skipped,
    green,
    startedAt,
    durationMs: performance.now() - t0,
  };
}

interface ShapeOptions {
  repeat: number;
  tolerance: number;
  seed: number;
  wallBoundMs: number;
  minRuns?: number;
  control?: LaneControl;
  rulesBefore: readonly ShapeRule[];
  declared: readonly string[];
  counters: LaneCounters;
  tick: (label: string) => void;
  advance: () => void;
}

async function runShape(ctx: GpuContext, op: OpDef, c: OpCase, o: ShapeOptions): Promise<LaneShape> {
  const bytes = op.bytes(c);
  const base = {
    shape: c.label,
    dims: c.dims,
    layout: c.layout,
    flops: op.flops(c),
    readBytes: bytes.readBytes,
    writeBytes: bytes.writeBytes,
  };
  const empty = { nativeMedianNs: null, generatedMedianNs: null, speedups: [], speedupMedian: null, speedupMin: null, speedupMax: null, generatedCorrect: null, generatedMaxErrRatio: null, resolutionNs: null, runsPerPass: null, nativeMetrics: null, generatedMetrics: null };
  const peaks = peaksFor(ctx.adapter, ctx.calibration);
  const metricsOf = (medians: number[]) => (medians.length ? computeMetrics({ minNs: Math.min(...medians), medianNs: median(medians) }, base.flops, base.readBytes + base.writeBytes, peaks) : null);
  const inputs = makeInputs(c, o.seed);
  const oracle = op.oracle(c, inputs, oracleSample(op, c, o.seed));
  const nativeKernel = op.native(c);
  const resolved = o.control
    ? { variant: 'generated' as const, schedule: null, scheduleKey: `control:${o.control}`, kernel: controlled(nativeKernel, o.control), fallback: null }
    : resolveKernel(op, c, { kind: 'auto' }, ctx.adapter, o.rulesBefore);

  const sessions: Session[] = [];
  try {
    let native: Prepared;
    try {
      native = await prepareChecked(ctx, nativeKernel, c, inputs, oracle);
      sessions.push(native.session);
    } catch (e) {
      if (!isDeviceRejection(e)) throw e;
      o.counters.deviceRejections++;
      return { ...base, ...empty, scheduleKey: null, verdict: 'device-rejection', fallback: null, nativeCorrect: false, note: `native kernel: ${(e as Error).message}` };
    }
    if (resolved.fallback) {
      const declared = o.declared.includes(resolved.fallback.code);
      o.counters.nativeFallbacks[resolved.fallback.code] = (o.counters.nativeFallbacks[resolved.fallback.code] ?? 0) + 1;
      if (!declared) o.counters.undeclaredFallbacks++;
      return { ...base, ...empty, scheduleKey: null, verdict: declared ? 'declared-fallback' : 'undeclared-fallback', fallback: { ...resolved.fallback, declared }, nativeCorrect: native.correct, note: null };
    }
    let generated: Prepared;
    try {
      // On native's own buffers: the two sides differ only in their kernel.
      generated = await prepareChecked(ctx, resolved.kernel, c, inputs, oracle, native.session);
      sessions.push(generated.session);
      o.counters.generatedDispatches += resolved.kernel.repeat ?? 1;
    } catch (e) {
      if (!isDeviceRejection(e)) throw e;
      o.counters.deviceRejections++;
      return { ...base, ...empty, scheduleKey: resolved.scheduleKey, verdict: 'device-rejection', fallback: null, nativeCorrect: native.correct, note: (e as Error).message };
    }
    o.advance();
    if (!generated.correct || !native.correct) {
      return {
        ...base,
        ...empty,
        scheduleKey: resolved.scheduleKey,
        verdict: 'wrong',
        fallback: null,
        nativeCorrect: native.correct,
        generatedCorrect: generated.correct,
        generatedMaxErrRatio: generated.worstRatio,
        note: native.correct ? 'generated output does not match the oracle: never timed' : 'the native kernel does not match the oracle: semantics are not exact',
      };
    }

    const nativeMedians: number[] = [];
    const generatedMedians: number[] = [];
    const speedups: number[] = [];
    let nativeRuns: number | undefined = o.minRuns;
    let generatedRuns: number | undefined = o.minRuns;
    let resolutionNs: number | null = null;
    let tooSlow: string | null = null;
    for (let pass = 0; pass < o.repeat && !tooSlow; pass++) {
      // Alternate which side goes first, so drift and warm caches favour neither.
      const order: ('native' | 'generated')[] = pass % 2 === 0 ? ['native', 'generated'] : ['generated', 'native'];
      const pair: Record<string, number> = {};
      for (const side of order) {
        o.tick(`${op.name} ${c.label}: pass ${pass + 1}/${o.repeat} ${side}`);
        if (side === 'generated') {
          const reference = nativeMedians.length ? median(nativeMedians) : null;
          if (reference !== null && pass === 0) {
            // Watchdog probe: one timed run before a batch of them.
            const probe = await generated.session.time(1);
            const probeNs = Number(probe.timestamps[1] - probe.timestamps[0]);
            if (watchdogFired(probeNs, reference, o.wallBoundMs * 1e6)) {
              tooSlow = `one generated run took ${(probeNs / 1e3).toFixed(1)} µs, over ${WATCHDOG_FACTOR}× the native median (${(reference / 1e3).toFixed(1)} µs) or the wall bound`;
              break;
            }
          }
          const t = await measure(ctx, generated.session, { minRuns: generatedRuns, wallBoundMs: o.wallBoundMs });
          generatedRuns = t.runs;
          o.counters.generatedDispatches += t.runs * (resolved.kernel.repeat ?? 1);
          pair.generated = t.medianNs;
          generatedMedians.push(t.medianNs);
          resolutionNs = t.resolutionNs;
          if (reference !== null && watchdogFired(t.medianNs, reference, o.wallBoundMs * 1e6)) tooSlow = `generated median ${(t.medianNs / 1e3).toFixed(1)} µs is over ${WATCHDOG_FACTOR}× the native median`;
        } else {
          const t = await measure(ctx, native.session, { minRuns: nativeRuns, wallBoundMs: o.wallBoundMs });
          nativeRuns = t.runs;
          pair.native = t.medianNs;
          nativeMedians.push(t.medianNs);
          resolutionNs = t.resolutionNs;
        }
      }
      if (pair.native !== undefined && pair.generated !== undefined) speedups.push(pair.native / pair.generated);
      o.advance();
    }
    const s = speedups.length ? summarizeSpeedups(speedups) : null;
    return {
      ...base,
      scheduleKey: resolved.scheduleKey,
      nativeMedianNs: nativeMedians.length ? median(nativeMedians) : null,
      generatedMedianNs: generatedMedians.length ? median(generatedMedians) : null,
      speedups,
      speedupMedian: s?.median ?? null,
      speedupMin: s?.min ?? null,
      speedupMax: s?.max ?? null,
      verdict: tooSlow ? 'too-slow' : timingVerdict(speedups, o.tolerance),
      fallback: null,
      nativeCorrect: true,
      generatedCorrect: true,
      generatedMaxErrRatio: generated.worstRatio,
      note: tooSlow,
      resolutionNs,
      runsPerPass: generatedRuns ?? null,
      nativeMetrics: metricsOf(nativeMedians),
      generatedMetrics: metricsOf(generatedMedians),
    };
  } finally {
    sessions.forEach((s) => s.destroy());
  }
}

function judgePair(op: OpDef, state: PromotionState, registryState: PromotionState, counters: LaneCounters, shapes: LaneShape[], adapter: AdapterDescriptor, declared: readonly string[]): LanePair {
  const count = (v: ShapeVerdict) => shapes.filter((s) => s.verdict === v).length;
  const ran = shapes.filter((s) => s.verdict !== 'declared-fallback' && s.verdict !== 'undeclared-fallback');
  const nativeOk = shapes.filter((s) => s.nativeCorrect).length;
  const slower = shapes.filter((s) => s.verdict === 'slower' || s.verdict === 'too-slow');
  const genChecked = shapes.filter((s) => s.generatedCorrect !== null);
  const genOk = genChecked.filter((s) => s.generatedCorrect);
  const fallbacks = Object.entries(counters.nativeFallbacks).map(([k, v]) => `${k}×${v}${declared.includes(k) ? '' : ' (undeclared)'}`);
  let probe: ChecklistItem;
  try {
    const probeCase = contractProbe(op);
    const rejection = op.require(probeCase, adapter);
    probe = rejection
      ? { id: 'contract-clean', title: CHECK_TITLES['contract-clean'], pass: true, evidence: `probe ${probeCase.label}: ${rejection.code} (${rejection.reason})` }
      : { id: 'contract-clean', title: CHECK_TITLES['contract-clean'], pass: false, evidence: `probe ${probeCase.label} was accepted` };
  } catch (e) {
    probe = { id: 'contract-clean', title: CHECK_TITLES['contract-clean'], pass: false, evidence: `require threw: ${(e as Error).message}` };
  }
  const laneGreen = counters.generatedDispatches > 0 && counters.undeclaredFallbacks === 0 && counters.deviceRejections === 0;
  const checklist: ChecklistItem[] = [
    { id: 'semantics', title: CHECK_TITLES.semantics, pass: nativeOk === shapes.length, evidence: `native matches the oracle on ${nativeOk}/${shapes.length} shapes (layouts: ${[...new Set(shapes.map((s) => s.layout))].join(', ')})` },
    {
      id: 'lane-green',
      title: CHECK_TITLES['lane-green'],
      pass: laneGreen,
      evidence: `generated dispatches ${counters.generatedDispatches}; fallbacks ${fallbacks.join(', ') || 'none'}; device rejections ${counters.deviceRejections}`,
    },
    { id: 'no-slower', title: CHECK_TITLES['no-slower'], pass: slower.length === 0 && ran.length > 0, evidence: slower.length ? `slower: ${slower.map((s) => `${s.shape} (${s.verdict}${s.speedupMedian !== null ? ` ${s.speedupMedian.toFixed(2)}×` : ''})`).join(', ')}` : `no shape slower (${ran.length} timed or checked)` },
    { id: 'device-parity', title: CHECK_TITLES['device-parity'], pass: genChecked.length > 0 && genOk.length === genChecked.length, evidence: `generated matches the oracle on ${genOk.length}/${genChecked.length} shapes it ran` },
    probe,
  ];
  const laneFailed = shapes.some((s) => LANE_FAILURES.includes(s.verdict)) || counters.generatedDispatches === 0;
  const gating = state === 'prefer';
  const gateFailed = gating && shapes.some((s) => GATE_FAILURES.includes(s.verdict));
  const workItems = shapes.some((s) => GATE_FAILURES.includes(s.verdict) || s.verdict === 'within-tolerance') || count('wrong') > 0;
  return {
    op: op.name,
    state,
    registryState,
    gating,
    counters,
    shapes,
    checklist,
    verdict: laneFailed ? 'lane-failed' : gateFailed ? 'gate-failed' : workItems && !gating ? 'work-items' : 'green',
  };
}
