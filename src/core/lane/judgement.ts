// The lane's pure decisions: which pairs run (and why the others are skipped), the statistics
// controls, and a pair's judgement with its five-item checklist. The GPU layer only measures;
// everything here is unit tested without a device.
import type { AdapterDescriptor } from '../adapter';
import { UsageError } from '../errors';
import type { KernelSpec } from '../kernel';
import type { AdapterIdentity, ClassState } from '../ops/promotion';
import { OPS, opByName, registryStateFor, type PromotionState } from '../ops/registry';
import { OpCaseError, type OpCase, type OpDef } from '../ops/types';
import { caseOf, type CaseRequest } from '../resolve-kernel';
import type { ChecklistItem, LaneControl, LaneCounters, LanePair, LaneRequest, LaneShape, LaneSkip } from '../results';
import { gateFailures, GATE_FAILURES, LANE_FAILURES } from '../stats/verdict';
import { nelements } from '../tensor';

export const CHECK_TITLES: Record<ChecklistItem['id'], string> = {
  semantics: 'semantics exact (native matches the oracle, aliasing and params included)',
  'lane-green': 'lane green (generated dispatches > 0, every fallback declared, no device rejection)',
  'no-slower': 'no shape slower beyond the tolerance',
  'device-parity': "generated kernel's device output matches the oracle",
  'contract-clean': 'require fails cleanly on a shape outside the contract',
};

/** Why the lane does not run an op in this state (null: it runs). */
export function skipReason(op: string, s: ClassState, preferred: boolean): string | null {
  const where = `adapter class ${s.adapterClass}`;
  if (s.state === 'native-only' && !preferred) return `native-only: on ${where} the registry runs its native kernel, so there is nothing to compare (--prefer ${op} runs the generated one for one run); the registry's evidence: ${s.evidence}`;
  if (s.state === 'retired') return `retired: on ${where} the registry has retired this pair, so the lane has no two kernels to compare (the registry's evidence: ${s.evidence})`;
  return null;
}

/** The state the lane judges a pair by on this adapter: the registry's, or 'prefer' under --prefer. */
export function laneState(op: string, adapter: AdapterIdentity, prefer: readonly string[] = []): { state: PromotionState; registry: ClassState } {
  const registry = registryStateFor(op, adapter);
  return { state: prefer.includes(op) && registry.state !== 'retired' ? 'prefer' : registry.state, registry };
}

/** The pairs a request runs on this adapter, and the ones it skips with the reason. */
export function lanePairs(req: Pick<LaneRequest, 'ops' | 'shapes' | 'prefer'>, adapter: AdapterIdentity): { run: OpDef[]; skipped: LaneSkip[] } {
  // Explicit shapes name their ops; otherwise --op, otherwise every op in the registry.
  const named = req.ops?.length ? req.ops : req.shapes?.length ? [...new Set(req.shapes.map((s) => opByName(s.op).name))] : null;
  const wanted = named ? named.map((o) => opByName(o)) : [...OPS];
  const run: OpDef[] = [];
  const skipped: LaneSkip[] = [];
  for (const op of wanted) {
    // An op without a generated path has nothing to compare, --prefer or not.
    const reason = op.noGeneratedPath ? `no generated kernel: ${op.noGeneratedPath}` : skipReason(op.name, registryStateFor(op.name, adapter), req.prefer?.includes(op.name) ?? false);
    if (reason) skipped.push({ op: op.name, reason });
    else run.push(op);
  }
  return { run, skipped };
}

/** Planted slowdowns `slow:F` take F in (1, 3]. */
export const PLANTED_MAX = 3;

/** The factor of a planted `slow:F` control, or null for every other control. */
export function plantedFactor(control: LaneControl | undefined): number | null {
  if (!control?.startsWith('slow:')) return null;
  return Number(control.slice(5));
}

/** Checks a --control value; returns it typed, or throws naming what is wrong. */
export function parseLaneControl(text: string): LaneControl {
  if (['aa', 'slow', 'stall', 'wrong'].includes(text)) return text as LaneControl;
  const m = /^slow:(\d+(?:\.\d+)?)$/.exec(text);
  const f = m ? Number(m[1]) : NaN;
  if (m && f > 1 && f <= PLANTED_MAX) return `slow:${f}`;
  throw new UsageError(`--control must be aa, slow, stall, wrong or slow:F with F in (1, ${PLANTED_MAX}] (a planted slowdown, e.g. slow:1.05), got '${text}'`);
}

/** The generated side under a statistics control: the native kernel itself, changed. */
export function controlled(native: KernelSpec, control: LaneControl): KernelSpec {
  // A planted slowdown is sized by measurement (src/gpu/plant.ts): until then, the native kernel.
  if (plantedFactor(control) !== null) return { ...native, label: `${native.label} (planted ${plantedFactor(control)}× slowdown control)` };
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
  throw new UsageError(`unknown lane control '${control}'`);
}

/** A case outside every op's contract: u32 indices overflow at 4G elements. */
export function contractProbe(op: OpDef): OpCase {
  const entry: CaseRequest = op.matrix[0];
  const base = caseOf(op, entry);
  const scale = Math.ceil(2 ** 32 / nelements(base.dst)) + 1;
  const scaled = (d: number) => caseOf(op, { ...entry, dims: entry.dims.map((n, i) => (i === d ? n * scale : n)) });
  try {
    return scaled(0);
  } catch (e) {
    // An op may assert on its first dim (ARGMAX: ne0 ≤ INT32_MAX): then the last one grows.
    if (!(e instanceof OpCaseError) || entry.dims.length < 2) throw e;
    return scaled(entry.dims.length - 1);
  }
}

/** require() must refuse the probe, with a code and a reason, and must not throw. */
export function contractCheck(op: OpDef, adapter: Pick<AdapterDescriptor, 'limits' | 'features'>): ChecklistItem {
  const item = (pass: boolean, evidence: string): ChecklistItem => ({ id: 'contract-clean', title: CHECK_TITLES['contract-clean'], pass, evidence });
  try {
    const probeCase = contractProbe(op);
    const rejection = op.require(probeCase, adapter);
    return rejection ? item(true, `probe ${probeCase.label}: ${rejection.code} (${rejection.reason})`) : item(false, `probe ${probeCase.label} was accepted`);
  } catch (e) {
    return item(false, `require threw: ${(e as Error).message}`);
  }
}

export function laneChecklist(counters: LaneCounters, shapes: readonly LaneShape[], declared: readonly string[], contract: ChecklistItem, allowUndecided = false): ChecklistItem[] {
  const ran = shapes.filter((s) => s.verdict !== 'declared-fallback' && s.verdict !== 'undeclared-fallback');
  const nativeOk = shapes.filter((s) => s.nativeCorrect).length;
  // An undecided shape may hide a regression under its noise: "no shape slower" cannot be claimed.
  const slower = shapes.filter((s) => s.verdict === 'slower' || s.verdict === 'too-slow' || (s.verdict === 'undecided' && !allowUndecided));
  const genChecked = shapes.filter((s) => s.generatedCorrect !== null);
  const genOk = genChecked.filter((s) => s.generatedCorrect);
  const fallbacks = Object.entries(counters.nativeFallbacks).map(([k, v]) => `${k}×${v}${declared.includes(k) ? '' : ' (undeclared)'}`);
  const laneGreen = counters.generatedDispatches > 0 && counters.undeclaredFallbacks === 0 && counters.deviceRejections === 0;
  return [
    { id: 'semantics', title: CHECK_TITLES.semantics, pass: nativeOk === shapes.length, evidence: `native matches the oracle on ${nativeOk}/${shapes.length} shapes (layouts: ${[...new Set(shapes.map((s) => s.layout))].join(', ')})` },
    {
      id: 'lane-green',
      title: CHECK_TITLES['lane-green'],
      pass: laneGreen,
      evidence: `generated dispatches ${counters.generatedDispatches}; fallbacks ${fallbacks.join(', ') || 'none'}; device rejections ${counters.deviceRejections}`,
    },
    { id: 'no-slower', title: CHECK_TITLES['no-slower'], pass: slower.length === 0 && ran.length > 0, evidence: slower.length ? `slower: ${slower.map((s) => `${s.shape} (${s.verdict}${s.speedupMedian !== null ? ` ${s.speedupMedian.toFixed(2)}×` : ''})`).join(', ')}` : `no shape slower (${ran.length} timed or checked)` },
    { id: 'device-parity', title: CHECK_TITLES['device-parity'], pass: genChecked.length > 0 && genOk.length === genChecked.length, evidence: `generated matches the oracle on ${genOk.length}/${genChecked.length} shapes it ran` },
    contract,
  ];
}

/** The pair's verdict from its shapes: lane-failed whatever the state, gate-failed for prefer. */
export function pairVerdict(state: PromotionState, counters: LaneCounters, shapes: readonly LaneShape[], allowUndecided = false): LanePair['verdict'] {
  const laneFailed = shapes.some((s) => LANE_FAILURES.includes(s.verdict)) || counters.generatedDispatches === 0;
  const gating = state === 'prefer';
  const gateFailed = gating && shapes.some((s) => gateFailures(allowUndecided).includes(s.verdict));
  const workItems = shapes.some((s) => GATE_FAILURES.includes(s.verdict) || s.verdict === 'within-tolerance' || s.verdict === 'undecided');
  return laneFailed ? 'lane-failed' : gateFailed ? 'gate-failed' : workItems && !gating ? 'work-items' : 'green';
}

export function judgePair(op: OpDef, state: PromotionState, registryState: PromotionState, counters: LaneCounters, shapes: LaneShape[], adapter: Pick<AdapterDescriptor, 'limits' | 'features'>, declared: readonly string[], allowUndecided = false): LanePair {
  return {
    op: op.name,
    state,
    registryState,
    gating: state === 'prefer',
    counters,
    shapes,
    checklist: laneChecklist(counters, shapes, declared, contractCheck(op, adapter), allowUndecided),
    verdict: pairVerdict(state, counters, shapes, allowUndecided),
  };
}
