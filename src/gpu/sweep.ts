// The sweep: Level 1 over the product of valid candidates from an op's schedule space, each
// checked against the oracle and the variant it would replace before its time is read; then
// the refusal rules and a proposal in schedulesFor's vocabulary. It writes nothing.
import { UsageError } from '../core/errors';
import { opByName, schedulesFor } from '../core/ops/registry';
import type { OpCase, OpDef, OracleResult } from '../core/ops/types';
import { enumerateSpace, parseSpace, scheduleKey, SPACES, validateSchedule, type Schedule, type SpaceRestriction } from '../core/schedule/schedule';
import { computeMetrics, peaksFor } from '../core/metrics/roofline';
import { checkOutput } from '../core/stats/correctness';
import { composeProposal, judgeCandidate, type CandidateJudgement } from '../core/stats/sweep-rules';
import { median, relativeSpread } from '../core/stats/timing';
import { WATCHDOG_FACTOR } from '../core/stats/verdict';
import { readElement, GUARD_BYTES } from '../core/hostdata';
import { forEachElement } from '../core/tensor';
import type { ProgressFn } from '../worker/api';
import type { GpuContext } from './device';
import type { CandidateStatus, SweepCandidate, SweepReference, SweepRequest, SweepResult, SweepShapeCell } from '../core/results';

export type { CandidateStatus, SweepCandidate, SweepReference, SweepRequest, SweepResult, SweepShapeCell } from '../core/results';
import { makeInputs, oracleSample } from './level1';
import { measure } from './measure';
import { Session } from './session';


/** The family's space, restricted knob by knob (a bad knob or value is a ScheduleError). */
export function sweepSpace(op: OpDef, restrict?: unknown): { candidates: Schedule[]; space: SpaceRestriction } {
  const r = parseSpace(restrict ?? {}, op.family);
  const space: SpaceRestriction = {};
  for (const [knob, spec] of Object.entries(SPACES[op.family])) space[knob] = r[knob] ?? [...spec.values];
  return { candidates: enumerateSpace(op.family, r), space };
}

/** The output as an oracle: the sweep compares a candidate with the variant it would replace. */
function outputAsOracle(c: OpCase, deviceBytes: ArrayBuffer, oracle: OracleResult): OracleResult {
  const view = new DataView(deviceBytes);
  const all = new Float64Array(oracle.indices ? oracle.indices.length : oracle.ref.length);
  const shifted = { ...c.dst, offsetBytes: c.dst.offsetBytes + GUARD_BYTES };
  let k = 0;
  forEachElement(shifted, (i, off) => {
    if (oracle.indices) {
      if (k < oracle.indices.length && oracle.indices[k] === i) all[k++] = readElement(view, c.dst.type, off);
    } else all[i] = readElement(view, c.dst.type, off);
  });
  return { ref: all, epsFloor: oracle.epsFloor, terms: oracle.terms, indices: oracle.indices };
}

interface Live {
  key: string;
  schedule: Schedule;
  session: Session;
  samplesNs: number[];
}

export async function runSweep(ctx: GpuContext, req: SweepRequest, onProgress?: ProgressFn): Promise<SweepResult> {
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  const reps = req.reps ?? 9;
  if (!Number.isInteger(reps) || reps < 2) throw new UsageError(`reps must be an integer ≥ 2 (a spread needs two), got ${reps}`);
  const seed = req.seed ?? 1;
  const wallBoundMs = req.wallBoundMs ?? 10_000;
  const op = opByName(req.op);
  const { candidates: all, space } = sweepSpace(op, req.space);

  // Shapes: the contract's rejections have no generated path to sweep.
  const entries = req.shapes?.length ? req.shapes.map((s) => ({ dims: s.dims, layout: s.layout ?? op.layouts[0].name })) : [...op.matrix];
  const cases: OpCase[] = [];
  const excludedShapes: { shape: string; reason: string }[] = [];
  for (const e of entries) {
    const c = op.makeCase(e.dims, e.layout);
    const rejection = op.require(c, ctx.adapter);
    if (rejection) excludedShapes.push({ shape: c.label, reason: `${rejection.code}: ${rejection.reason}` });
    else cases.push(c);
  }
  if (!cases.length) throw new UsageError(`no shape of ${op.name} is inside the generated contract: nothing to sweep`);

  const invalid = new Map<string, string>();
  const valid: Schedule[] = [];
  for (const s of all) {
    const reasons = validateSchedule(s, ctx.adapter);
    if (reasons.length) invalid.set(scheduleKey(s), reasons.join('; '));
    else valid.push(s);
  }
  const refused = new Map<string, { status: CandidateStatus; reason: string }>();
  const unfit = new Map<string, { shape: string; features: Record<string, number> }[]>();
  const samples = new Map<string, { shape: string; features: Record<string, number>; refNs: number[]; candNs: number[] }[]>();
  const reference: SweepReference[] = [];

  const totalUnits = cases.length * (valid.length + reps);
  let doneUnits = 0;
  const tick = (label: string) => {
    const fraction = totalUnits ? Math.min(1, doneUnits / totalUnits) : 1;
    const elapsed = performance.now() - t0;
    onProgress?.({ label, fraction, etaMs: fraction > 0 ? (elapsed / fraction) * (1 - fraction) : null });
  };

  for (const c of cases) {
    const features = op.features(c);
    const inputs = makeInputs(c, seed);
    const oracle = op.oracle(c, inputs, oracleSample(op, c, seed));
    // The variant a candidate would replace: the registry's current pick for this shape.
    const current = schedulesFor(op.name, c, ctx.adapter);
    const refKernel = current ? op.generate(current, c) : op.native(c);
    const refLabel = current ? scheduleKey(current) : 'native';
    const live: Live[] = [];
    const refSession = await Session.prepare(ctx, refKernel, c, inputs);
    try {
      refSession.upload();
      await refSession.dispatch();
      const refBytes = await refSession.readback();
      const refCheck = checkOutput(c.dst, oracle, refSession.dstBefore(), refBytes);
      if (!refCheck.correct) throw new UsageError(`the reference ${refLabel} is wrong on ${c.label} (${refCheck.failures[0] ?? ''}): fix it before sweeping`);
      const asOracle = outputAsOracle(c, refBytes, oracle);

      // Correctness before time: against the oracle and against the variant it would replace.
      for (const s of valid) {
        const key = scheduleKey(s);
        doneUnits++;
        if (refused.has(key)) continue;
        tick(`${op.name} ${c.label}: checking ${key}`);
        const why = op.fits(s, c);
        if (why.length) {
          unfit.set(key, [...(unfit.get(key) ?? []), { shape: c.label, features }]);
          continue;
        }
        let session: Session | null = null;
        try {
          // On the reference's buffers: candidates differ only in their kernel.
          session = await Session.prepare(ctx, op.generate(s, c), c, inputs, refSession);
          session.upload();
          await session.dispatch();
          const out = await session.readback();
          const vsOracle = checkOutput(c.dst, oracle, session.dstBefore(), out);
          const vsRef = checkOutput(c.dst, asOracle, session.dstBefore(), out);
          if (!vsOracle.correct || !vsRef.correct) {
            const bad = !vsOracle.correct ? vsOracle : vsRef;
            refused.set(key, { status: 'wrong', reason: `output differs from ${!vsOracle.correct ? 'the oracle' : `the variant it would replace (${refLabel})`} on ${c.label}: ${bad.failures[0] ?? `worst err/bound ${bad.worstRatio.toFixed(2)}`}` });
            session.destroy();
            continue;
          }
          live.push({ key, schedule: s, session, samplesNs: [] });
        } catch (e) {
          session?.destroy();
          const name = (e as Error).name;
          if (name !== 'DeviceRejection' && name !== 'WgslCompileError') throw e;
          refused.set(key, { status: 'device-rejection', reason: `${c.label}: ${(e as Error).message}` });
        }
      }

      // Round-robin reps, direction alternating, so drift favours no candidate.
      const refNs: number[] = [];
      let refRuns = req.minRuns;
      const runsOf = new Map<string, number>();
      for (let rep = 0; rep < reps; rep++) {
        tick(`${op.name} ${c.label}: rep ${rep + 1}/${reps} (${live.length} candidates)`);
        const order: (Live | null)[] = rep % 2 === 0 ? [null, ...live] : [...[...live].reverse(), null];
        for (const cand of order) {
          if (cand === null) {
            const t = await measure(ctx, refSession, { minRuns: refRuns, wallBoundMs });
            refRuns = t.runs;
            refNs.push(t.medianNs);
            continue;
          }
          if (refused.has(cand.key)) continue;
          const t = await measure(ctx, cand.session, { minRuns: runsOf.get(cand.key) ?? req.minRuns, wallBoundMs });
          runsOf.set(cand.key, t.runs);
          cand.samplesNs.push(t.medianNs);
          const refMedian = refNs.length ? median(refNs) : null;
          if (refMedian !== null && t.medianNs > WATCHDOG_FACTOR * refMedian) {
            refused.set(cand.key, { status: 'too-slow', reason: `${c.label}: median ${(t.medianNs / 1e3).toFixed(1)} µs is over ${WATCHDOG_FACTOR}× the reference (${(refMedian / 1e3).toFixed(1)} µs); reps not finished` });
          }
        }
        doneUnits++;
      }
      reference.push({ shape: c.label, variant: refLabel, medianNs: median(refNs), spread: relativeSpread(refNs) });
      for (const cand of live) {
        if (refused.has(cand.key)) continue;
        samples.set(cand.key, [...(samples.get(cand.key) ?? []), { shape: c.label, features, refNs: [...refNs], candNs: cand.samplesNs }]);
      }
    } finally {
      refSession.destroy();
      live.forEach((l) => l.session.destroy());
    }
  }

  const peaks = peaksFor(ctx.adapter, ctx.calibration);
  const judged: { key: string; schedule: Schedule; judgement: CandidateJudgement }[] = [];
  const candidates: SweepCandidate[] = all.map((s) => {
    const key = scheduleKey(s);
    if (invalid.has(key)) return { key, schedule: s, status: 'invalid', reason: invalid.get(key)!, shapes: [], rule: null, meanWinGain: null };
    const gone = refused.get(key);
    if (gone) return { key, schedule: s, status: gone.status, reason: gone.reason, shapes: [], rule: null, meanWinGain: null };
    const unfitShapes = unfit.get(key) ?? [];
    const timed = samples.get(key) ?? [];
    if (!timed.length) return { key, schedule: s, status: 'invalid', reason: `takes none of the shapes (${unfitShapes.map((u) => u.shape).join(', ')}): ${op.fits(s, cases[0]).join('; ')}`, shapes: [], rule: null, meanWinGain: null };
    const judgement = judgeCandidate(timed, unfitShapes);
    judged.push({ key, schedule: s, judgement });
    const cells: SweepShapeCell[] = cases.map((c) => {
      const j = judgement.shapes.find((x) => x.shape === c.label);
      if (!j) return { shape: c.label, medianNs: null, spread: null, gain: null, outcome: 'unfit', metrics: null };
      const reps = timed.find((x) => x.shape === c.label)!.candNs;
      const bytes = op.bytes(c);
      const metrics = computeMetrics({ minNs: Math.min(...reps), medianNs: j.candMedianNs }, op.flops(c), bytes.readBytes + bytes.writeBytes, peaks);
      return { shape: c.label, medianNs: j.candMedianNs, spread: j.candSpread, gain: j.gain, outcome: j.outcome, metrics };
    });
    return { key, schedule: s, status: judgement.outcome, reason: judgement.reason, shapes: cells, rule: judgement.rule, meanWinGain: judgement.meanWinGain };
  });
  const rank = (c: SweepCandidate) => (c.status === 'accepted' ? 0 : c.status === 'noise' || c.status === 'no-rule' ? 1 : 2);
  candidates.sort((a, b) => rank(a) - rank(b) || (b.meanWinGain ?? -Infinity) - (a.meanWinGain ?? -Infinity));
  onProgress?.({ label: 'done', fraction: 1, etaMs: 0 });
  return {
    kind: 'sweep',
    op: op.name,
    adapter: ctx.adapter,
    settings: { reps, seed, space },
    shapes: cases.map((c) => c.label),
    excludedShapes,
    reference,
    candidates,
    proposal: composeProposal(judged),
    startedAt,
    durationMs: performance.now() - t0,
  };
}
