// The JSON results the CLI writes, the page stores and share links carry: plain, versioned, no
// WGSL text, stamped with the lab's version and code hash (so results of older code show stale).
import type { AdapterDescriptor } from '../adapter';
import type { LaneResult, Level1Result, SweepResult } from '../results';
import type { Calibration } from '../metrics/roofline';

export const RESULT_SCHEMA_VERSION = 1;

/** The lab's version, stamped on every result (package.json's, injected at build time). */
export const LAB_VERSION: string = typeof __LAB_VERSION__ === 'string' ? __LAB_VERSION__ : '0.0.0-dev';

/** Hash of the native kernels, ops, codegen and schedules this build was made from. */
export const CODE_HASH: string = typeof __CODE_HASH__ === 'string' ? __CODE_HASH__ : 'dev';

declare const __LAB_VERSION__: string | undefined;
declare const __CODE_HASH__: string | undefined;

/** What every result carries: its schema version and which code produced it. */
function stamps() {
  return { schemaVersion: RESULT_SCHEMA_VERSION, labVersion: LAB_VERSION, codeHash: CODE_HASH };
}

export function laneJson(r: LaneResult) {
  return {
    kind: 'lane' as const,
    ...stamps(),
    adapter: r.adapter,
    settings: r.settings,
    pairs: r.pairs.map((p) => ({
      op: p.op,
      state: p.state,
      registryState: p.registryState,
      gating: p.gating,
      counters: p.counters,
      shapes: p.shapes.map((s) => ({
        shape: s.shape,
        // Optional in the JSON type: results stored before dims existed lack them (run-query reads the label then).
        ...(s.dims ? { dims: s.dims } : {}),
        ...(s.caseId ? { caseId: s.caseId } : {}),
        layout: s.layout,
        ...(s.params ? { params: s.params } : {}),
        scheduleKey: s.scheduleKey,
        nativeMedianNs: s.nativeMedianNs,
        generatedMedianNs: s.generatedMedianNs,
        speedupMedian: s.speedupMedian,
        speedupMin: s.speedupMin,
        speedupMax: s.speedupMax,
        speedups: s.speedups,
        ...(s.effectFloor !== undefined ? { effectFloor: s.effectFloor } : {}),
        ...(s.plantedRatio !== undefined ? { plantedRatio: s.plantedRatio } : {}),
        ...(s.plant ? { plant: s.plant } : {}),
        ...(s.passes !== undefined ? { passes: s.passes } : {}),
        ...(s.remeasuredPasses ? { remeasuredPasses: s.remeasuredPasses } : {}),
        verdict: s.verdict,
        fallback: s.fallback,
        note: s.note,
        nativeMetrics: s.nativeMetrics,
        generatedMetrics: s.generatedMetrics,
        ...(s.users?.length ? { users: s.users } : {}),
      })),
      checklist: p.checklist,
      verdict: p.verdict,
    })),
    skipped: r.skipped,
    green: r.green,
    startedAt: r.startedAt,
    durationMs: r.durationMs,
    ...(r.host ? { host: r.host } : {}),
  };
}

export function level1Json(r: Level1Result) {
  return {
    kind: 'level1' as const,
    ...stamps(),
    op: r.op,
    shape: r.shape,
    ...(r.dims ? { dims: r.dims } : {}),
    ...(r.caseId ? { caseId: r.caseId } : {}),
    layout: r.layout,
    label: r.label,
    ...(r.params ? { params: r.params } : {}),
    variant: r.variant,
    scheduleKey: r.scheduleKey,
    schedule: r.schedule,
    ...(r.userKernel ? { userKernel: r.userKernel } : {}),
    fallback: r.fallback,
    correct: r.correct,
    maxErr: r.maxErr,
    bound: r.bound,
    correctness: {
      worstRatio: r.correctness.worstRatio,
      elements: r.correctness.elements,
      checked: r.correctness.checked,
      outOfBound: r.correctness.outOfBound,
      nonFinite: r.correctness.nonFinite,
      guardViolations: r.correctness.guardViolations,
      failures: r.correctness.failures,
    },
    timing: r.timing && {
      runs: r.timing.runs,
      minNs: r.timing.minNs,
      medianNs: r.timing.medianNs,
      maxNs: r.timing.maxNs,
      ...(r.timing.p20Ns !== undefined ? { p20Ns: r.timing.p20Ns, p80Ns: r.timing.p80Ns, noisy: r.timing.noisy } : {}),
      resolutionNs: r.timing.resolutionNs,
      method: r.timing.method,
      spanNs: r.timing.spanNs,
      spanShort: r.timing.spanShort,
      note: r.timing.note,
    },
    flops: r.flops,
    readBytes: r.readBytes,
    writeBytes: r.writeBytes,
    metrics: r.metrics ?? null,
    dispatch: r.dispatch,
    ...(r.workgroupSize ? { workgroupSize: r.workgroupSize } : {}),
    adapter: r.adapter,
    startedAt: r.startedAt,
  };
}

/** The sweep keeps every field (its proposal is rebuilt from them), stamped. */
export function sweepJson(r: SweepResult) {
  return { ...r, ...stamps() };
}

/** A calibration with the adapter it measured, so it stores, shares and imports like a run. */
export function calibrationJson(c: Calibration, adapter: AdapterDescriptor) {
  return { ...c, ...stamps(), adapter };
}

export type Level1Json = ReturnType<typeof level1Json>;
export type LaneJson = ReturnType<typeof laneJson>;
export type SweepJson = ReturnType<typeof sweepJson>;
export type CalibrationJson = ReturnType<typeof calibrationJson>;

/** Every result the lab stores, exports, shares and imports: the CLI's --json shapes. */
export type ResultJson = Level1Json | LaneJson | SweepJson | CalibrationJson;
export type RunKind = ResultJson['kind'];
export const RUN_KINDS: readonly RunKind[] = ['level1', 'lane', 'sweep', 'calibration'];
