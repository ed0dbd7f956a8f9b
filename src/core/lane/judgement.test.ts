import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../adapter';
import type { KernelSpec } from '../kernel';
import { OPS, opByName, registryStateFor } from '../ops/registry';
import type { LaneCounters, LaneShape } from '../results';
import type { ShapeVerdict } from '../stats/verdict';
import { contractCheck, contractProbe, controlled, judgePair, lanePairs, laneChecklist, laneState, pairVerdict, parseLaneControl, plantedFactor, skipReason } from './judgement';

const adapter = { limits: DEFAULT_LIMITS, features: [] as string[] };
const swiftshader = { vendor: 'google', architecture: 'swiftshader' };

function shape(verdict: ShapeVerdict, over: Partial<LaneShape> = {}): LaneShape {
  return {
    shape: '256x4',
    dims: [256, 4],
    layout: 'contiguous',
    scheduleKey: 'elementwise{}',
    nativeMedianNs: 1000,
    generatedMedianNs: 800,
    speedups: [1.25, 1.2, 1.3],
    speedupMedian: 1.25,
    speedupMin: 1.2,
    speedupMax: 1.3,
    verdict,
    fallback: null,
    nativeCorrect: true,
    generatedCorrect: true,
    generatedMaxErrRatio: 0.1,
    note: null,
    flops: null,
    readBytes: 8192,
    writeBytes: 4096,
    resolutionNs: 1,
    runsPerPass: 16,
    nativeMetrics: null,
    generatedMetrics: null,
    ...over,
  };
}
const counters = (over: Partial<LaneCounters> = {}): LaneCounters => ({ generatedDispatches: 34, nativeFallbacks: {}, undeclaredFallbacks: 0, deviceRejections: 0, ...over });

describe('which pairs the lane runs', () => {
  it('skips native-only and retired ops and says why, with the registry evidence', () => {
    const { run, skipped } = lanePairs({}, swiftshader);
    // Every op of the registry, split by its state on this adapter class.
    const skippedOps = OPS.filter((o) => ['native-only', 'retired'].includes(registryStateFor(o.name, swiftshader).state)).map((o) => o.name);
    expect(run.map((o) => o.name)).toEqual(OPS.map((o) => o.name).filter((n) => !skippedOps.includes(n)));
    expect(run.map((o) => o.name)).toEqual(expect.arrayContaining(['ADD', 'RMS_NORM', 'MUL_MAT']));
    expect(skipped.map((s) => s.op)).toEqual(skippedOps);
    expect(skipped[0].op).toBe('RMS_NORM_BACK');
    expect(skipped[0].reason).toMatch(/^native-only: on adapter class default the registry runs its native kernel, so there is nothing to compare \(--prefer RMS_NORM_BACK runs the generated one for one run\); the registry's evidence: kept native-only/);
  });

  it('runs a native-only op raised by --prefer, and only the ops the shapes name', () => {
    expect(lanePairs({ ops: ['RMS_NORM_BACK'], prefer: ['RMS_NORM_BACK'] }, swiftshader).run.map((o) => o.name)).toEqual(['RMS_NORM_BACK']);
    expect(lanePairs({ shapes: [{ op: 'add', dims: [64, 4] }] }, swiftshader).run.map((o) => o.name)).toEqual(['ADD']);
  });

  it('a retired op is skipped even when preferred: there is no native kernel to compare with', () => {
    const retired = { adapterClass: 'nvidia/hopper', state: 'retired' as const, evidence: 'lane 2026-12-01' };
    expect(skipReason('X', retired, true)).toBe("retired: on adapter class nvidia/hopper the registry has retired this pair, so the lane has no two kernels to compare (the registry's evidence: lane 2026-12-01)");
    expect(skipReason('X', { ...retired, state: 'observe' }, false)).toBeNull();
    expect(skipReason('X', { ...retired, state: 'prefer' }, false)).toBeNull();
    expect(skipReason('X', { ...retired, state: 'native-only' }, true)).toBeNull();
  });

  it("judges a pair by the adapter's registry state, raised to prefer by --prefer", () => {
    expect(laneState('RMS_NORM', swiftshader)).toMatchObject({ state: 'observe', registry: { state: 'observe', adapterClass: 'google/swiftshader' } });
    expect(laneState('RMS_NORM', swiftshader, ['RMS_NORM']).state).toBe('prefer');
    expect(laneState('RMS_NORM_BACK', { vendor: 'nvidia', architecture: 'hopper' }, ['RMS_NORM_BACK'])).toMatchObject({ state: 'prefer', registry: { state: 'native-only', adapterClass: 'default' } });
  });
});

describe('statistics controls', () => {
  const native: KernelSpec = { label: 'native:ADD/add.wgsl', wgsl: '', entryPoint: 'main', bindings: [], dispatch: [9, 1, 1] };
  it('plants the same kernel with more work, or half the workgroups', () => {
    expect(controlled(native, 'aa')).toMatchObject({ label: 'native:ADD/add.wgsl (A/A control)', dispatch: [9, 1, 1] });
    expect(controlled(native, 'slow').repeat).toBe(3);
    expect(controlled(native, 'stall').repeat).toBe(200);
    expect(controlled(native, 'wrong').dispatch).toEqual([4, 1, 1]);
    expect(controlled({ ...native, dispatch: [65535, 5, 1] }, 'wrong').dispatch).toEqual([65535, 3, 1]);
  });
});

describe('the contract probe', () => {
  it('grows the first matrix shape past 4G elements, and require refuses it cleanly', () => {
    const add = opByName('ADD');
    const probe = contractProbe(add);
    expect(probe.dims.slice(1)).toEqual(add.matrix[0].dims.slice(1));
    expect(probe.dst.ne.reduce((a, b) => a * b, 1)).toBeGreaterThan(2 ** 32);
    const item = contractCheck(add, adapter);
    expect(item.pass).toBe(true);
    expect(item.evidence).toMatch(new RegExp(`^probe ${probe.label}: `));
  });

  it('fails the item when require accepts the probe or throws', () => {
    const add = opByName('ADD');
    expect(contractCheck({ ...add, require: () => null }, adapter)).toMatchObject({ pass: false, evidence: expect.stringMatching(/was accepted$/) });
    expect(contractCheck({ ...add, require: () => { throw new Error('boom'); } }, adapter)).toMatchObject({ pass: false, evidence: 'require threw: boom' });
    // ARGMAX asserts ne0 ≤ INT32_MAX, so its probe grows the rows instead: [32000, 2·(2^31 + 1)].
    const argmax = opByName('ARGMAX');
    expect(contractProbe(argmax).srcs[0].ne.slice(0, 2)).toEqual([32000, 2 * (2 ** 31 + 1)]);
    expect(contractCheck(argmax, adapter)).toMatchObject({ pass: true });
  });
});

describe("a pair's judgement", () => {
  const ok = { id: 'contract-clean' as const, title: '', pass: true, evidence: 'probe' };

  it('green: every shape faster or parity, generated ran, nothing undeclared', () => {
    expect(pairVerdict('prefer', counters(), [shape('faster'), shape('parity')])).toBe('green');
    expect(pairVerdict('observe', counters(), [shape('faster'), shape('declared-fallback', { generatedCorrect: null })])).toBe('green');
  });

  it('a slower or wrong shape fails a prefer gate and is a work item for an observed pair', () => {
    for (const v of ['slower', 'wrong', 'too-slow'] as const) {
      expect(pairVerdict('prefer', counters(), [shape('faster'), shape(v)])).toBe('gate-failed');
      expect(pairVerdict('observe', counters(), [shape('faster'), shape(v)])).toBe('work-items');
    }
    expect(pairVerdict('observe', counters(), [shape('within-tolerance')])).toBe('work-items');
    expect(pairVerdict('prefer', counters(), [shape('within-tolerance')])).toBe('green');
  });

  it('an undecided shape (noise above the tolerance) fails a prefer gate unless allowed, and is a work item when observed', () => {
    expect(pairVerdict('prefer', counters(), [shape('faster'), shape('undecided')])).toBe('gate-failed');
    expect(pairVerdict('prefer', counters(), [shape('faster'), shape('undecided')], true)).toBe('green');
    expect(pairVerdict('observe', counters(), [shape('undecided')])).toBe('work-items');
    const noSlower = (allow: boolean) => laneChecklist(counters(), [shape('undecided')], [], { id: 'contract-clean', title: '', pass: true, evidence: '' }, allow).find((c) => c.id === 'no-slower')!;
    expect(noSlower(false).pass).toBe(false);
    expect(noSlower(true).pass).toBe(true);
  });

  it('an undeclared fallback, a device rejection or no generated dispatch fails the lane in any state', () => {
    expect(pairVerdict('observe', counters(), [shape('undeclared-fallback')])).toBe('lane-failed');
    expect(pairVerdict('prefer', counters(), [shape('device-rejection')])).toBe('lane-failed');
    expect(pairVerdict('observe', counters({ generatedDispatches: 0 }), [shape('faster')])).toBe('lane-failed');
  });

  it('the checklist gives each item its evidence', () => {
    const shapes = [shape('faster'), shape('slower', { shape: '1000x3', layout: 'inplace', speedupMedian: 0.81234 }), shape('declared-fallback', { generatedCorrect: null, nativeCorrect: false })];
    const c = counters({ nativeFallbacks: { 'src1-rows-not-contiguous': 1, 'odd': 2 } });
    const list = laneChecklist(c, shapes, ['src1-rows-not-contiguous'], ok);
    expect(list.map((i) => [i.id, i.pass, i.evidence])).toEqual([
      ['semantics', false, 'native matches the oracle on 2/3 shapes (layouts: contiguous, inplace)'],
      ['lane-green', true, 'generated dispatches 34; fallbacks src1-rows-not-contiguous×1, odd×2 (undeclared); device rejections 0'],
      ['no-slower', false, 'slower: 1000x3 (slower 0.81×)'],
      ['device-parity', true, 'generated matches the oracle on 2/2 shapes it ran'],
      ['contract-clean', true, 'probe'],
    ]);
  });

  it('judgePair puts state, gating and verdict together', () => {
    const rms = opByName('RMS_NORM');
    const pair = judgePair(rms, 'prefer', 'observe', counters(), [shape('slower', { speedupMedian: 0.5 })], adapter, []);
    expect(pair).toMatchObject({ op: 'RMS_NORM', state: 'prefer', registryState: 'observe', gating: true, verdict: 'gate-failed' });
    expect(pair.checklist.map((i) => i.pass)).toEqual([true, true, false, true, true]);
  });
});

describe('planted fractional slowdowns', () => {
  it('parses slow:F for 1 < F ≤ 3 and refuses anything else by name', () => {
    expect(parseLaneControl('slow:1.05')).toBe('slow:1.05');
    expect(parseLaneControl('slow:1.10')).toBe('slow:1.1');
    expect(parseLaneControl('aa')).toBe('aa');
    expect(plantedFactor('slow:1.2')).toBe(1.2);
    expect(plantedFactor('slow')).toBeNull();
    for (const bad of ['slow:1', 'slow:0.9', 'slow:4', 'slow:', 'slow:x', 'fast']) expect(() => parseLaneControl(bad)).toThrow(/--control must be aa, slow, stall, wrong or slow:F/);
  });

  it('starts from the native kernel itself, one dispatch (the plant is sized by measurement)', () => {
    const native = { label: 'native:ADD/add.wgsl', wgsl: '', entryPoint: 'main', bindings: [], dispatch: [200, 1, 1] } as unknown as KernelSpec;
    const k = controlled(native, 'slow:1.1');
    expect(k.repeat).toBeUndefined();
    expect(k.dispatch).toEqual([200, 1, 1]);
    expect(k.label).toBe('native:ADD/add.wgsl (planted 1.1× slowdown control)');
  });
});

