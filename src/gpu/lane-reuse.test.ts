// Host work once per case per run (issue 22, item 4), counted without a device: the lane runs on a
// stand-in session that writes the oracle's answer (checked for real) and measurements that read a
// kernel's time from its label (a planted F× kernel takes exactly F× native's time, so its plant is
// placed on the first try). What is counted: input/oracle builds, output checks, plant calibrations.
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_LIMITS, type AdapterDescriptor } from '../core/adapter';
import { GUARD_BYTES, sentinelBuffer, withGuards, writeElement } from '../core/hostdata';
import type { KernelSpec } from '../core/kernel';
import type { OpCase, OracleResult } from '../core/ops/types';
import { CaseDataCache } from '../core/plan/case-data';
import type { KernelProgram } from '../core/program';
import type { LaneControl } from '../core/results';
import type { TimingSummary } from '../core/stats/timing';
import { forEachElement } from '../core/tensor';
import type { GpuContext } from './device';

/** The oracle of each inputs object the cache handed out: what the stand-in device writes. */
const answers = new WeakMap<object, OracleResult>();

vi.mock('./session', () => ({
  Session: {
    prepare: async (_ctx: GpuContext, kernel: KernelSpec | KernelProgram, c: OpCase, inputs: readonly ArrayBuffer[]) => {
      const before = withGuards(sentinelBuffer(c.dst.bufferSizeBytes));
      return {
        label: kernel.label,
        upload: () => undefined,
        dispatch: async () => undefined,
        dstBefore: () => before,
        readback: async () => {
          const after = before.slice(0);
          const view = new DataView(after);
          const oracle = answers.get(inputs)!;
          forEachElement(c.dst, (i, off) => writeElement(view, c.dst.type, GUARD_BYTES + off, oracle.ref[i]));
          return after;
        },
        sourceWrites: async () => [],
        time: async () => ({ timestamps: [0n, 1000n] }),
        destroy: () => undefined,
      };
    },
  },
}));

/** Native and A/A take 1000 ns; a planted F× kernel F × 1000 ns. */
const timeOf = (label: string) => 1000 * Number(/planted ([\d.]+)×/.exec(label)?.[1] ?? 1);
vi.mock('./measure', () => ({
  measure: async (_ctx: GpuContext, session: { label: string }): Promise<TimingSummary> => {
    const t = timeOf(session.label);
    return { runs: 16, minNs: t, medianNs: t, maxNs: t, resolutionNs: 1, method: 'timestamp', spanNs: 16 * t, spanShort: false, samplesNs: Array(16).fill(t), note: 'serialized latency' };
  },
}));

const { runLane } = await import('./lane');
const { plantCounts } = await import('./plant');

const adapter = { vendor: 'google', architecture: 'swiftshader', device: 'test', description: 'mocked', isFallbackAdapter: true, runtime: 'node', limits: DEFAULT_LIMITS, features: [] } as unknown as AdapterDescriptor;

function fakeContext(): GpuContext {
  const host = new CaseDataCache();
  const get = host.get.bind(host);
  host.get = (plan, seed) => {
    const d = get(plan, seed);
    answers.set(d.inputs, d.oracle);
    return d;
  };
  return { device: { features: new Set(), destroy: () => undefined } as unknown as GPUDevice, adapter, hasTimestamps: true, lostReason: null, pipelines: new Map(), calibration: null, lastGpuBusyMs: 0, cancelled: null, host, watchdogMs: null, recreate: async () => undefined };
}

const shapes = [
  { op: 'ADD', dims: [64, 8], layout: 'contiguous' as const },
  { op: 'RMS_NORM', dims: [64, 4], layout: 'contiguous' as const },
  { op: 'MUL_MAT', dims: [32, 4, 32], layout: 'contiguous' as const },
];

describe('replays reuse the host work and the plants (mocked device)', () => {
  it('A/A then two planted factors, 3 replays each: inputs, oracles, checks and plants once per case per run', async () => {
    const ctx = fakeContext();
    const controls: LaneControl[] = ['aa', 'slow:1.02', 'slow:1.05'];
    const verdicts: string[] = [];
    const factors: number[] = [];
    for (const control of controls)
      for (let replay = 0; replay < 3; replay++) {
        const r = await runLane(ctx, { ops: ['ADD', 'RMS_NORM', 'MUL_MAT'], shapes, repeat: 3, control, tolerance: 0.02 });
        expect(r.skipped.filter((s) => s.plant)).toEqual([]);
        for (const p of r.pairs) for (const s of p.shapes) verdicts.push(s.verdict), s.plant && factors.push(s.plant.measuredFactor!);
      }
    expect(verdicts).toHaveLength(27);
    // One build of inputs and oracle per case, for all nine replays.
    expect(ctx.host.builds).toBe(3);
    // Checks: native per case (the A/A arm is native's own program) and each planted program per
    // case — once (both factors land on the first length tried here: one program, one check);
    // every other check of the 9 replays × 3 shapes × 2 sides, and of the 6 calibrations'
    // verifications (a search's lengths are timed, not checked), is reused.
    expect(ctx.host.checks).toBe(3 + 3);
    expect(ctx.host.checksReused).toBe(9 * 3 * 2 + 6 - ctx.host.checks);
    // One calibration per (shape, factor), each two Level 1 ratios (found, then verified); reused after.
    expect(plantCounts(ctx)).toMatchObject({ calibrations: 6, ratiosMeasured: 12, reused: 12 });
    expect(factors.every((f) => f === 1.02 || f === 1.05)).toBe(true);
    // The stand-in times are exact: A/A is parity, the plants are what was planted.
    expect(verdicts.slice(0, 9)).toEqual(Array(9).fill('parity'));
    // 1/1.02 = 0.980 is inside a 2% tolerance (detected, not slower); 1/1.05 is beyond it.
    expect(verdicts.slice(9, 18)).toEqual(Array(9).fill('within-tolerance'));
    expect(verdicts.slice(18)).toEqual(Array(9).fill('slower'));
  });
});
