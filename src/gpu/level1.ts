// Level 1: one kernel, timed alone, after its output has been checked against the oracle.
import { UsageError } from '../core/errors';
import { computeMetrics, peaksFor, peaksForKernel } from '../core/metrics/roofline';
import { ProgressTracker, UNIT_CHECK, UNIT_MEASURE, type ProgressFn } from '../core/progress';
import type { Level1Request } from '../core/requests';
import type { KernelSpec } from '../core/kernel';
import { resolveUserKernel } from '../core/manifest/source';
import { isProgram, type KernelProgram } from '../core/program';
import { planCase } from '../core/plan/plan';
import { resolveKernel, type ResolvedKernel } from '../core/resolve-kernel';
import type { Level1Result } from '../core/results';
import type { TimingSummary } from '../core/stats/timing';
import { checkedSession } from './checked';
import { deviceAdapter, type GpuContext } from './device';
import { measure } from './measure';
import { WatchdogError } from './watchdog';
import { nelements } from '../core/tensor';

export type { Level1Result } from '../core/results';
export type { Level1Request, VariantRequest } from '../core/requests';

export async function runLevel1(ctx: GpuContext, req: Level1Request, onProgress?: ProgressFn): Promise<Level1Result> {
  if (!Array.isArray(req.dims) || !req.dims.length) throw new UsageError('a Level 1 request needs dims');
  const startedAt = new Date().toISOString();
  // The case's one plan, refused here when past the adapter's limits (the rule the page and the
  // lane apply), before inputs and oracle: it names the tensor that does not fit.
  const plan = planCase(req, ctx.adapter);
  const { op, c } = plan;
  const user = req.variant.kind === 'user' ? await resolveUserKernel(req.variant, c, deviceAdapter(ctx)) : null;
  const resolved: Omit<ResolvedKernel, 'variant' | 'kernel'> & { variant: Level1Result['variant']; kernel: KernelSpec | KernelProgram } = user
    ? { variant: 'user', schedule: null, scheduleKey: null, kernel: user.plan, fallback: null }
    : resolveKernel(plan, req.variant, ctx.adapter);
  // The kernel's own pass (a prelude such as mmvq's quantize pass runs first but is not the kernel shown); a user program's first.
  const firstPass = isProgram(resolved.kernel) ? resolved.kernel.passes[0] : resolved.kernel;
  const timed = !req.skipTiming;
  // Two units: the check, then the timing.
  const progress = new ProgressTracker({ [UNIT_CHECK]: 1, [UNIT_MEASURE]: timed ? 1 : 0 }, onProgress, () => performance.now());
  progress.tick(`${op.name} ${c.label}: correctness`);
  const { inputs, oracle } = ctx.host.get(plan, req.seed ?? 1);
  const bytes = op.bytes(c);
  // A kernel the watchdog ended (watchdog.ts) is a measured outcome, not a crash: the result
  // says too-slow, naming the bound, like the lane's column.
  const result = (correctness: Level1Result['correctness'], timing: TimingSummary | null, hung: WatchdogError | null): Level1Result => {
    const metrics = timing ? computeMetrics(timing, op.flops(c), bytes.readBytes + bytes.writeBytes, peaksForKernel(peaksFor(ctx.adapter, ctx.calibration), 'features' in resolved.kernel ? resolved.kernel : {}, ctx.calibration)) : null;
    return Object.freeze({
      kind: 'level1',
      op: op.name,
      shape: c.dims.join('x'),
      dims: c.dims,
      caseId: plan.id,
      layout: c.layout,
      label: c.label,
      params: c.params,
      variant: resolved.variant,
      scheduleKey: resolved.scheduleKey,
      schedule: resolved.schedule,
      userKernel: user?.ref ?? null,
      fallback: resolved.fallback,
      correct: correctness.correct,
      maxErr: correctness.worstRatio === null ? null : correctness.maxErr,
      bound: correctness.worstRatio === null ? null : correctness.bound,
      correctness,
      timing,
      ...(hung ? { verdict: 'too-slow' as const, watchdog: { boundMs: hung.boundMs, recoveryMs: hung.recoveryMs === null ? null : Math.round(hung.recoveryMs), note: hung.message } } : {}),
      flops: op.flops(c),
      readBytes: bytes.readBytes,
      writeBytes: bytes.writeBytes,
      metrics,
      adapter: ctx.adapter,
      wgsl: firstPass.wgsl,
      dispatch: firstPass.dispatch,
      ...(user ? { workgroupSize: user.plan.passes[0].workgroupSize } : {}),
      startedAt,
    });
  };
  let checked: Awaited<ReturnType<typeof checkedSession>>;
  try {
    checked = await checkedSession(ctx, resolved.kernel, c, inputs, [oracle]);
  } catch (e) {
    if (!(e instanceof WatchdogError)) throw e;
    progress.finish(`${op.name} ${c.label}: too-slow`);
    return result({ correct: false, maxErr: 0, bound: 0, worstRatio: null, worstIndex: -1, elements: nelements(c.dst), checked: 0, outOfBound: 0, nonFinite: 0, guardViolations: 0, failures: [] }, null, e);
  }
  const { session } = checked;
  try {
    const correctness = checked.reports[0];
    progress.advance(1, UNIT_CHECK);
    let timing: TimingSummary | null = null;
    let hung: WatchdogError | null = null;
    if ((correctness.correct || req.timeIncorrect) && timed) {
      progress.tick(`${op.name} ${c.label}: timing`);
      try {
        timing = await measure(ctx, session, { perRunEstimateNs: checked.firstRunNs, ...req.timing });
      } catch (e) {
        if (!(e instanceof WatchdogError)) throw e;
        hung = e;
      }
    }
    progress.finish(`${op.name} ${c.label}`);
    return result(correctness, timing, hung);
  } finally {
    session.destroy();
  }
}
