// The one checked session: prepare → upload → one dispatch → readback → check against each
// oracle. Level 1, the lane and the sweep all start a kernel here; a kernel's time is read only
// from a session this returned correct.
import type { KernelSpec } from '../core/kernel';
import type { KernelProgram } from '../core/program';
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
  /** The dst buffer after the run, guards included. */
  readonly output: ArrayBuffer;
  /** Wall time of the first dispatch (compile and first-touch included), ns: a rough size for the first timed batch. */
  readonly firstRunNs: number;
}

/**
 * `shareWith`: run on that session's tensors (compared variants never differ in where their
 * buffers landed). The session is the caller's to destroy; on any failure it is destroyed here.
 */
export async function checkedSession(ctx: GpuContext, kernel: KernelSpec | KernelProgram, c: OpCase, inputs: readonly ArrayBuffer[], oracles: readonly OracleResult[], shareWith?: Session): Promise<CheckedSession> {
  const session = await Session.prepare(ctx, kernel, c, inputs, shareWith);
  try {
    session.upload();
    const t0 = performance.now();
    await session.dispatch();
    const firstRunNs = (performance.now() - t0) * 1e6;
    const output = await session.readback();
    const written = await session.sourceWrites();
    const reports = ctx.host.time(() => oracles.map((o) => withSourceWrites(checkOutput(c.dst, o, session.dstBefore(), output, 'inputRounding' in kernel ? kernel.inputRounding : undefined), written)));
    return { session, reports, correct: reports.every((r) => r.correct), output, firstRunNs };
  } catch (e) {
    session.destroy();
    throw e;
  }
}
