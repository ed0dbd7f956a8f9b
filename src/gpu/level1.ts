// Level 1: one kernel, timed alone, after its output has been checked against the oracle.
import type { AdapterDescriptor } from '../core/adapter';
import { ScheduleRefusal, UsageError } from '../core/errors';
import { prng, randomBuffer } from '../core/hostdata';
import { nelements } from '../core/tensor';
import type { KernelSpec } from '../core/kernel';
import { resolveUserKernel, type UserKernelSource } from '../core/manifest/source';
import { type KernelProgram, programOf } from '../core/program';
import { deviceAdapter } from './device';
import { opByName, schedulesFor, type ShapeRule } from '../core/ops/registry';
import type { OpCase, OpDef } from '../core/ops/types';
import { parseSchedule, scheduleKey, validateSchedule, type Schedule } from '../core/schedule/schedule';
import { computeMetrics, peaksFor } from '../core/metrics/roofline';
import { checkOutput } from '../core/stats/correctness';
import type { TimingSummary } from '../core/stats/timing';
import type { GpuContext } from './device';
import type { Level1Result } from '../core/results';

export type { Level1Result } from '../core/results';
import { measure, type MeasureOptions } from './measure';
import { Session } from './session';

/** Which kernel to run: the native one, a given schedule, or the registry's pick ('auto'). */
export type VariantRequest =
  /** `wgsl` replaces the native kernel's text (same bindings and dispatch): for editing a kernel in place. */
  | { kind: 'native'; wgsl?: string }
  | { kind: 'schedule'; schedule: unknown }
  | { kind: 'auto' }
  /** A user kernel: a manifest and its WGSL files (docs/kernel-manifest.md). */
  | ({ kind: 'user' } & UserKernelSource);

export interface Level1Request {
  op: string;
  dims: number[];
  layout?: string;
  params?: Record<string, number>;
  variant: VariantRequest;
  /** Input seed (default 1): the same seed gives the same inputs in every runtime. */
  seed?: number;
  timing?: MeasureOptions;
  /** Check only, do not time. */
  skipTiming?: boolean;
}

export interface ResolvedKernel {
  readonly variant: 'native' | 'generated';
  readonly schedule: Schedule | null;
  readonly scheduleKey: string | null;
  readonly kernel: KernelSpec;
  /** When 'auto' fell back to native: the contract's rejection. */
  readonly fallback: { code: string; reason: string } | null;
}


export function buildCase(req: Pick<Level1Request, 'op' | 'dims' | 'layout' | 'params'>): { op: OpDef; c: OpCase } {
  const op = opByName(req.op);
  return { op, c: op.makeCase(req.dims, req.layout ?? op.layouts[0].name, req.params) };
}

/** Resolves the kernel a request names; refusals name the knob and the limit. */
export function resolveKernel(op: OpDef, c: OpCase, variant: VariantRequest, adapter: Pick<AdapterDescriptor, 'limits' | 'features'>, rulesBefore: readonly ShapeRule[] = []): ResolvedKernel {
  if (variant.kind === 'user') throw new UsageError('a user kernel resolves through resolveUserKernel (it needs the device and its hashes)');
  if (variant.kind === 'native') {
    const native = op.native(c);
    const kernel = variant.wgsl === undefined ? native : { ...native, wgsl: variant.wgsl, label: `${native.label} (edited)` };
    return { variant: 'native', schedule: null, scheduleKey: null, kernel, fallback: null };
  }
  const rejection = op.require(c, adapter);
  if (variant.kind === 'auto') {
    if (rejection) return { variant: 'native', schedule: null, scheduleKey: null, kernel: op.native(c), fallback: rejection };
    const picked = schedulesFor(op.name, c, adapter, rulesBefore);
    if (!picked) return { variant: 'native', schedule: null, scheduleKey: null, kernel: op.native(c), fallback: { code: 'no-schedule', reason: `no shape rule of ${op.name} takes ${c.label} on this adapter` } };
    return { variant: 'generated', schedule: picked, scheduleKey: scheduleKey(picked), kernel: op.generate(picked, c), fallback: null };
  }
  const schedule = parseSchedule(variant.schedule, op.family);
  if (rejection) throw new ScheduleRefusal(`${op.name} ${c.label} is outside the generated contract: ${rejection.code}: ${rejection.reason}`);
  const reasons = [...validateSchedule(schedule, adapter), ...op.fits(schedule, c)];
  if (reasons.length) throw new ScheduleRefusal(`schedule ${scheduleKey(schedule)} refused: ${reasons.join('; ')}`);
  return { variant: 'generated', schedule, scheduleKey: scheduleKey(schedule), kernel: op.generate(schedule, c), fallback: null };
}

/** Above this many multiply-adds the oracle checks a sample of the output: a CPU would take minutes. */
export const FULL_ORACLE_MAX_TERMS = 3e8;
export const ORACLE_SAMPLE_SIZE = 16384;

/** Which dst elements the oracle computes: all (undefined), or a seeded sample with both ends. */
export function oracleSample(op: OpDef, c: OpCase, seed = 1): Int32Array | undefined {
  const n = nelements(c.dst);
  const cost = Math.max(n, (op.flops(c) ?? 0) / 2);
  if (cost <= FULL_ORACLE_MAX_TERMS || n <= ORACLE_SAMPLE_SIZE) return undefined;
  const next = prng(seed * 31 + 17);
  const picked = new Set<number>([0, n - 1]);
  while (picked.size < ORACLE_SAMPLE_SIZE) picked.add(Math.floor(next() * n));
  return Int32Array.from([...picked].sort((a, b) => a - b));
}

/** Host inputs for a case: one packed buffer per source, seeded. */
export function makeInputs(c: OpCase, seed = 1): ArrayBuffer[] {
  const def = opByName(c.op);
  if (def.inputs) return def.inputs(c, seed);
  return c.srcs.map((t, i) => randomBuffer(t, seed * 7919 + i * 104729));
}

export async function runLevel1(ctx: GpuContext, req: Level1Request): Promise<Level1Result> {
  if (!Array.isArray(req.dims) || !req.dims.length) throw new UsageError('a Level 1 request needs dims');
  const startedAt = new Date().toISOString();
  const { op, c } = buildCase(req);
  const user = req.variant.kind === 'user' ? await resolveUserKernel(req.variant, c, deviceAdapter(ctx)) : null;
  const resolved: Omit<ResolvedKernel, 'variant' | 'kernel'> & { variant: Level1Result['variant']; kernel: KernelSpec | KernelProgram } = user
    ? { variant: 'user', schedule: null, scheduleKey: null, kernel: user.plan, fallback: null }
    : resolveKernel(op, c, req.variant, ctx.adapter);
  const firstPass = programOf(resolved.kernel).passes[0];
  const inputs = makeInputs(c, req.seed ?? 1);
  const oracle = op.oracle(c, inputs, oracleSample(op, c, req.seed ?? 1));
  const session = await Session.prepare(ctx, resolved.kernel, c, inputs);
  try {
    session.upload();
    const t0 = performance.now();
    await session.dispatch();
    const firstRunNs = (performance.now() - t0) * 1e6;
    const after = await session.readback();
    const correctness = checkOutput(c.dst, oracle, session.dstBefore(), after);
    let timing: TimingSummary | null = null;
    if (correctness.correct && !req.skipTiming) {
      timing = await measure(ctx, session, { perRunEstimateNs: firstRunNs, ...req.timing });
    }
    const bytes = op.bytes(c);
    const metrics = timing ? computeMetrics(timing, op.flops(c), bytes.readBytes + bytes.writeBytes, peaksFor(ctx.adapter, ctx.calibration)) : null;
    return Object.freeze({
      kind: 'level1',
      op: op.name,
      shape: c.dims.join('x'),
      layout: c.layout,
      label: c.label,
      variant: resolved.variant,
      scheduleKey: resolved.scheduleKey,
      schedule: resolved.schedule,
      userKernel: user?.ref ?? null,
      fallback: resolved.fallback,
      correct: correctness.correct,
      maxErr: correctness.maxErr,
      bound: correctness.bound,
      correctness,
      timing,
      flops: op.flops(c),
      readBytes: bytes.readBytes,
      writeBytes: bytes.writeBytes,
      metrics,
      adapter: ctx.adapter,
      wgsl: firstPass.wgsl,
      dispatch: firstPass.dispatch,
      startedAt,
    });
  } finally {
    session.destroy();
  }
}
