// The one checked session: prepare → upload → one dispatch → readback → check against each
// oracle. Level 1, the lane and the sweep all start a kernel here; a kernel's time is read only
// from a session this returned correct.
import type { KernelSpec } from '../core/kernel';
import { programOf, type KernelProgram } from '../core/program';
import type { OpCase, OracleResult } from '../core/ops/types';
import { checkOutput, type CorrectnessReport } from '../core/stats/correctness';
import type { CorrectnessReport as Report } from '../core/stats/correctness';
import type { GpuContext } from './device';

/** A kernel that wrote a source is wrong whatever its output: the failure comes first. */
function withSourceWrites(r: Report, written: readonly string[]): Report {
  return written.length ? { ...r, correct: false, failures: [...written, ...r.failures].slice(0, Math.max(5, written.length)) } : r;
}
import { Session } from './session';

export interface CheckedSession {
  readonly session: Session;
  /** One report per oracle given, in order. */
  readonly reports: readonly CorrectnessReport[];
  /** Every report correct. */
  readonly correct: boolean;
  /** The dst buffer after the run, guards included; null when the check was reused (`reuse`). */
  readonly output: ArrayBuffer | null;
  /** Wall time of the first dispatch (compile and first-touch included), ns: a rough size for the first timed batch. */
  readonly firstRunNs: number;
}

/** What makes two checks the same: the case, and everything of the program that reaches the device. */
export function programKey(kernel: KernelSpec | KernelProgram, c: OpCase): string {
  const p = programOf(kernel);
  const passes = p.passes.map((x) => [x.wgsl, x.entryPoint, x.bindings, x.dispatch, x.uniforms ? [...x.uniforms] : null, x.constants ?? null, x.features ?? null, x.repeat ?? 1]);
  return JSON.stringify([c.label, c.dst.bufferSizeBytes, passes, p.scratch, p.explicitLayout, 'inputRounding' in kernel ? kernel.inputRounding ?? null : null]);
}

/**
 * `shareWith`: run on that session's tensors (compared variants never differ in where their
 * buffers landed). The session is the caller's to destroy; on any failure it is destroyed here.
 * `reuse`: a program already checked on these very inputs (ctx.host keeps the reports per inputs
 * object) is run once but not read back or checked again — host work once per case per run
 * (issue 22): replays and the A/A arm check nothing twice. The output is then null.
 */
export async function checkedSession(ctx: GpuContext, kernel: KernelSpec | KernelProgram, c: OpCase, inputs: readonly ArrayBuffer[], oracles: readonly OracleResult[], shareWith?: Session, reuse = false): Promise<CheckedSession> {
  const session = await Session.prepare(ctx, kernel, c, inputs, shareWith);
  try {
    session.upload();
    const t0 = performance.now();
    await session.dispatch();
    const firstRunNs = (performance.now() - t0) * 1e6;
    const key = reuse ? programKey(kernel, c) : '';
    const kept = reuse ? ctx.host.reportsOf<CorrectnessReport[]>(inputs, key, oracles) : undefined;
    if (kept) return { session, reports: kept, correct: kept.every((r) => r.correct), output: null, firstRunNs };
    const output = await session.readback();
    const written = await session.sourceWrites();
    const reports = ctx.host.time(() => oracles.map((o) => withSourceWrites(checkOutput(c.dst, o, session.dstBefore(), output, 'inputRounding' in kernel ? kernel.inputRounding : undefined), written)));
    ctx.host.checks++;
    if (reuse) ctx.host.keepReports(inputs, key, oracles, reports);
    return { session, reports, correct: reports.every((r) => r.correct), output, firstRunNs };
  } catch (e) {
    session.destroy();
    throw e;
  }
}
