// The engine without a device: one plan per case and host work once through the CLI commands, and
// the queue and cancel state. The checked session runs a CPU stand-in (the oracle's own answer, checked for real),
// and measurements return a fixed TimingSummary. What is counted is host work, not GPU numbers.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_LIMITS, type AdapterDescriptor } from '../core/adapter';
import { GUARD_BYTES, sentinelBuffer, withGuards, writeElement } from '../core/hostdata';
import { limitRuleRuns } from '../core/input/case-contract';
import type { KernelSpec } from '../core/kernel';
import * as registry from '../core/ops/registry';
import type { OpCase, OracleResult } from '../core/ops/types';
import { CaseDataCache } from '../core/plan/case-data';
import type { KernelProgram } from '../core/program';
import { checkOutput } from '../core/stats/correctness';
import type { TimingSummary } from '../core/stats/timing';
import { forEachElement } from '../core/tensor';
import { RunCancelled } from '../core/errors';
import { assertAlive, type GpuContext } from './device';
import { Engine } from './engine';

vi.mock('../core/ops/registry', async (importOriginal) => {
  const m = await importOriginal<typeof import('../core/ops/registry')>();
  return { ...m, opByName: vi.fn(m.opByName) };
});

/** A device that writes the oracle's answer: the check against the oracle then runs for real. */
vi.mock('./checked', () => ({
  checkedSession: async (ctx: GpuContext, _kernel: KernelSpec | KernelProgram, c: OpCase, _inputs: readonly ArrayBuffer[], oracles: readonly OracleResult[]) => {
    const before = withGuards(sentinelBuffer(c.dst.bufferSizeBytes));
    const after = before.slice(0);
    const view = new DataView(after);
    forEachElement(c.dst, (i, off) => writeElement(view, c.dst.type, GUARD_BYTES + off, oracles[0].ref[i]));
    const reports = ctx.host.time(() => oracles.map((o) => checkOutput(c.dst, o, before, after)));
    const session = { destroy: () => undefined, time: async () => ({ timestamps: [0n, 1000n] }) };
    return { session, reports, correct: reports.every((r) => r.correct), output: after, firstRunNs: 1000 };
  },
}));

vi.mock('./measure', () => ({
  measure: async (): Promise<TimingSummary> => ({ runs: 16, minNs: 1000, medianNs: 1000, maxNs: 1000, resolutionNs: 1, method: 'timestamp', spanNs: 16000, spanShort: false, samplesNs: Array(16).fill(1000), note: 'serialized latency' }),
}));

const adapter = { vendor: 'google', architecture: 'swiftshader', device: 'test', description: 'mocked', isFallbackAdapter: true, runtime: 'node', limits: DEFAULT_LIMITS, features: [] } as unknown as AdapterDescriptor;

function fakeContext(): GpuContext {
  return { device: { features: new Set(), destroy: () => undefined } as unknown as GPUDevice, adapter, hasTimestamps: true, lostReason: null, pipelines: new Map(), calibration: null, lastGpuBusyMs: 0, cancelled: null, host: new CaseDataCache(), watchdogMs: null, recreate: async () => undefined };
}

/** An engine whose device is the stand-in above. */
class MockedEngine extends Engine {
  readonly fake = fakeContext();
  constructor() {
    super(() => undefined, { runtime: 'node' });
  }
  override async context(): Promise<GpuContext> {
    return this.fake;
  }
  /** The engine's queue, for jobs a test controls. */
  run<T>(job: (ctx: GpuContext) => Promise<T>, runId?: string): Promise<T> {
    return this.exclusive(job, runId);
  }
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

let engine: MockedEngine;
vi.mock('../cli/runtime-node', () => ({ openNodeEngine: async () => Object.assign(engine, { close: async () => undefined }) }));

const { cmdTime } = await import('../cli/commands/time');
const { cmdLane } = await import('../cli/commands/lane');

/** Runs a CLI command with its output swallowed; returns the exit code. */
async function quietly(run: () => Promise<number>): Promise<number> {
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    return await run();
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

describe('one plan per case (CLI → engine, mocked device)', () => {
  const add = registry.opByName('ADD');
  const opByName = vi.mocked(registry.opByName);
  beforeEach(() => {
    engine = new MockedEngine();
    opByName.mockClear();
  });
  afterEach(() => vi.restoreAllMocks());

  /** makeCase calls for these dims (other cases, such as the lane's contract probe, are not this case). */
  const casesBuilt = (spy: { mock: { calls: unknown[][] } }, dims: number[]) => spy.mock.calls.filter((c) => JSON.stringify(c[0]) === JSON.stringify(dims)).length;

  it('`time` builds its case once, judges its limits once, generates its kernel once', async () => {
    const make = vi.spyOn(add, 'makeCase');
    const native = vi.spyOn(add, 'native');
    const generate = vi.spyOn(add, 'generate');
    const rule = limitRuleRuns.count;
    expect(await quietly(() => cmdTime(['--op', 'ADD', '--shape', '77x5']))).toBe(0);
    expect(casesBuilt(make, [77, 5])).toBe(1);
    expect(limitRuleRuns.count - rule).toBe(1);
    expect(native.mock.calls.length + generate.mock.calls.length).toBe(1);
    expect(opByName).toHaveBeenCalledTimes(1);
    expect(engine.fake.host.builds).toBe(1);
  });

  it('a lane shape is planned once, and its replays reuse the inputs and the oracle', async () => {
    const make = vi.spyOn(add, 'makeCase');
    const oracle = vi.spyOn(add, 'oracle');
    const rule = limitRuleRuns.count;
    expect(await quietly(() => cmdLane(['--shape', 'ADD:79x5', '--repeat', '2', '--replay', '3']))).toBe(0);
    expect(casesBuilt(make, [79, 5])).toBe(1);
    // Once for the shape, once for the checklist's contract probe (another case, also judged once).
    expect(limitRuleRuns.count - rule).toBe(2);
    // Three replays, two checked variants each: one build of inputs and oracle.
    expect(engine.fake.host.builds).toBe(1);
    expect(oracle).toHaveBeenCalledTimes(1);
  });
});

describe('Engine state without a device', () => {
  it('runs jobs one after another, and a failed job does not stop the queue', async () => {
    const e = new MockedEngine();
    const order: string[] = [];
    const gate = deferred();
    const a = e.run(async () => {
      order.push('a start');
      await gate.promise;
      order.push('a end');
    });
    const b = e.run(async () => {
      order.push('b');
      throw new Error('b failed');
    });
    const c = e.run(async () => order.push('c'));
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual(['a start']); // b waits for a: two timings never share the GPU
    gate.resolve();
    await a;
    await expect(b).rejects.toThrow('b failed');
    await c;
    expect(order).toEqual(['a start', 'a end', 'b', 'c']);
  });

  it('cancels a queued run by its id before it starts, and a running one at its next check', async () => {
    const e = new MockedEngine();
    const gate = deferred();
    const running = e.run(async (ctx) => {
      await gate.promise;
      assertAlive(ctx); // what every allocation and GPU batch does
      return 'finished';
    }, 'first');
    const queued = e.run(async () => 'never', 'second');
    await e.cancel('second');
    await e.cancel('no-such-run'); // ignored
    await e.cancel('first');
    gate.resolve();
    await expect(running).rejects.toThrow(RunCancelled);
    await expect(queued).rejects.toThrow(RunCancelled);
    // The ids are free again, and the context carries no stale token.
    expect(await e.run(async (ctx) => (ctx.cancelled === null ? 'no token' : ctx.cancelled() ? 'cancelled' : 'live'), 'first')).toBe('live');
    expect(e.fake.cancelled).toBeNull();
  });

  it('refuses work on a lost device, naming it', async () => {
    const e = new MockedEngine();
    e.fake.lostReason = 'destroyed';
    await expect(e.run(async () => 'ran')).rejects.toThrow(/the GPU device was lost \(destroyed\)/);
  });
});
