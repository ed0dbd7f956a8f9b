// The sweep: Level 1 over the product of valid candidates from an op's schedule space, each
// checked against the oracle and the variant it would replace before its time is read; then
// the refusal rules and a proposal in schedulesFor's vocabulary. It writes nothing.
import { UsageError } from '../core/errors';
import { SWEEP_CAPS } from '../core/input/caps';
import { computeMetrics, peaksFor, peaksForKernel } from '../core/metrics/roofline';
import { kernelFeatures } from '../core/program';
import { opByName } from '../core/ops/registry';
import { defaultSweepShapes, opFamilies, type OpCase, type OpDef } from '../core/ops/types';
import { outputAsOracle } from '../core/output-oracle';
import { planOf, type CasePlan } from '../core/plan/plan';
import { resolveKernel, type CaseRequest } from '../core/resolve-kernel';
import { ProgressTracker, UNIT_CHECK, UNIT_MEASURE, type ProgressFn } from '../core/progress';
import { compareCandidates } from '../core/stats/sweep-rank';
import type { CandidateStatus, SweepCandidate, SweepReference, SweepRequest, SweepResult, SweepShapeCell } from '../core/results';
import { enumerateSpace, parseOpSpace, scheduleKey, SPACES, validateSchedule, type Schedule, type SpaceRestriction } from '../core/schedule/schedule';
import { composeProposal, judgeCandidate, type CandidateJudgement, type ShapeSamples } from '../core/stats/sweep-rules';
import { median, relativeSpread } from '../core/stats/timing';
import { WATCHDOG_FACTOR } from '../core/stats/verdict';
import { checkedSession } from './checked';
import type { GpuContext } from './device';
import { alternatingRounds, roundSide, type RoundSide } from './rounds';
import type { Session } from './session';

export type { CandidateStatus, SweepCandidate, SweepReference, SweepRequest, SweepResult, SweepShapeCell } from '../core/results';

/** The family's space, restricted knob by knob (a bad knob or value is a ScheduleError). */
export function sweepSpace(op: OpDef, restrict?: unknown): { candidates: Schedule[]; space: SpaceRestriction } {
  const { family, restrict: r } = parseOpSpace(restrict ?? {}, opFamilies(op));
  const space: SpaceRestriction = family === op.family ? {} : { family: [family] };
  for (const [knob, spec] of Object.entries(SPACES[family])) space[knob] = r[knob] ?? [...(spec.sweep ?? spec.values)];
  const { family: _f, ...knobs } = r;
  return { candidates: enumerateSpace(family, knobs), space };
}

/** Refused before any GPU work: a table the stored result could not hold (hours of timing, then nothing saved). */
export function checkSweepTable(candidates: number, shapes: number): void {
  if (candidates * shapes > SWEEP_CAPS.cells)
    throw new UsageError(`the sweep's table would be ${candidates} candidates × ${shapes} shapes = ${candidates * shapes} cells, over the cap of ${SWEEP_CAPS.cells} a stored sweep holds: narrow it with --shapes or --space`);
}

interface Live {
  key: string;
  schedule: Schedule;
  side: RoundSide;
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
  const entries: readonly CaseRequest[] = req.shapes?.length ? req.shapes : defaultSweepShapes(op);
  const cases: OpCase[] = [];
  const plans = new Map<OpCase, CasePlan>();
  const excludedShapes: { shape: string; reason: string }[] = [];
  for (const e of entries) {
    const plan = planOf(op, e);
    const c = plan.c;
    const rejection = plan.contract(ctx.adapter);
    if (rejection) excludedShapes.push({ shape: c.label, reason: `${rejection.code}: ${rejection.reason}` });
    else {
      cases.push(c);
      plans.set(c, plan);
    }
  }
  if (!cases.length) throw new UsageError(`no shape of ${op.name} is inside the generated contract: nothing to sweep`);
  checkSweepTable(all.length, cases.length);

  const invalid = new Map<string, string>();
  const valid: Schedule[] = [];
  for (const s of all) {
    const reasons = validateSchedule(s, ctx.adapter);
    if (reasons.length) invalid.set(scheduleKey(s), reasons.join('; '));
    else valid.push(s);
  }
  // A space with no candidate that is valid here and fits some shape has nothing to time: refuse it
  // before any GPU work rather than run to an empty table.
  if (!valid.some((s) => cases.some((c) => !op.fits(s, c, ctx.adapter.limits).length))) {
    const why = valid.length ? `none of its ${valid.length} valid candidates fits any shape (${op.fits(valid[0], cases[0], ctx.adapter.limits).join('; ')})` : `all ${all.length} candidates are invalid here (${[...invalid.values()][0] ?? 'empty space'})`;
    throw new UsageError(`the ${op.name} space has no candidate to time: ${why}`);
  }
  const refused = new Map<string, { status: CandidateStatus; reason: string }>();
  const unfit = new Map<string, { shape: string; features: Record<string, number> }[]>();
  /** Each candidate's device features: one on subgroup matrices is held to the MMA ceiling. */
  const candFeatures = new Map<string, { readonly features: readonly string[] }>();
  const samples = new Map<string, ShapeSamples[]>();
  const reference: SweepReference[] = [];

  // Work units per shape: one check per valid candidate, then one measurement per live side per
  // rep. Checks skipped and candidates refused leave the total, so the rate stays measured.
  const progress = new ProgressTracker({ [UNIT_CHECK]: cases.length * valid.length, [UNIT_MEASURE]: cases.length * reps * (valid.length + 1) }, onProgress, () => performance.now());

  for (const c of cases) {
    const features = op.features(c);
    const { inputs, oracle } = ctx.host.get(plans.get(c)!, seed);
    // The variant a candidate would replace: what `auto` runs on this shape today.
    const today = resolveKernel(plans.get(c)!, { kind: 'auto' }, ctx.adapter);
    const refKernel = today.kernel;
    const refLabel = today.scheduleKey ?? 'native';
    const live: Live[] = [];
    const ref = await checkedSession(ctx, refKernel, c, inputs, [oracle]);
    const refSession: Session = ref.session;
    try {
      if (!ref.correct) throw new UsageError(`the reference ${refLabel} is wrong on ${c.label} (${ref.reports[0].failures[0] ?? ''}): fix it before sweeping`);
      const asOracle = outputAsOracle(c, ref.output!, oracle);

      // Correctness before time: against the oracle and against the variant it would replace.
      for (const s of valid) {
        const key = scheduleKey(s);
        if (refused.has(key)) {
          progress.drop(1, UNIT_CHECK);
          continue;
        }
        progress.tick(`${op.name} ${c.label}: checking ${key}`);
        const why = op.fits(s, c, ctx.adapter.limits);
        if (why.length) {
          unfit.set(key, [...(unfit.get(key) ?? []), { shape: c.label, features }]);
          progress.drop(1, UNIT_CHECK);
          continue;
        }
        try {
          // On the reference's buffers: candidates differ only in their kernel.
          const kernel = op.generate(s, c);
          candFeatures.set(key, kernelFeatures(kernel));
          const checked = await checkedSession(ctx, kernel, c, inputs, [oracle, asOracle], refSession);
          progress.advance(1, UNIT_CHECK);
          const [vsOracle, vsRef] = checked.reports;
          if (!checked.correct) {
            const bad = !vsOracle.correct ? vsOracle : vsRef;
            refused.set(key, { status: 'wrong', reason: `output differs from ${!vsOracle.correct ? 'the oracle' : `the variant it would replace (${refLabel})`} on ${c.label}: ${bad.failures[0] ?? `worst err/bound ${bad.worstRatio.toFixed(2)}`}` });
            checked.session.destroy();
            continue;
          }
          live.push({ key, schedule: s, side: roundSide(key, checked.session, req.minRuns) });
        } catch (e) {
          const name = (e as Error).name;
          if (name !== 'DeviceRejection' && name !== 'WgslCompileError') throw e;
          progress.advance(1, UNIT_CHECK);
          refused.set(key, { status: 'device-rejection', reason: `${c.label}: ${(e as Error).message}` });
        }
      }
      // Candidates that will not be timed on this shape: their reps leave the total.
      progress.drop(reps * (valid.length - live.length), UNIT_MEASURE);

      // Round-robin reps, direction alternating, so drift favours no candidate.
      const refSide = roundSide('reference', refSession, req.minRuns);
      let resolutionNs: number | null = null;
      await alternatingRounds(ctx, [refSide, ...live.map((l) => l.side)], { rounds: reps, wallBoundMs, progress }, {
        onSide: (side, rep) => progress.tick(`${op.name} ${c.label}: rep ${rep + 1}/${reps} (${live.length} candidates) ${side.name}`),
        after: (side, t, _rep, refMedian) => {
          resolutionNs = t.resolutionNs;
          if (side === refSide || refMedian === null || !(t.medianNs > WATCHDOG_FACTOR * refMedian)) return null;
          const reason = `${c.label}: median ${(t.medianNs / 1e3).toFixed(1)} µs is over ${WATCHDOG_FACTOR}× the reference (${(refMedian / 1e3).toFixed(1)} µs); reps not finished`;
          refused.set(side.name, { status: 'too-slow', reason });
          return reason;
        },
      });
      const refNs = refSide.samplesNs;
      reference.push({ shape: c.label, variant: refLabel, medianNs: median(refNs), spread: relativeSpread(refNs) });
      for (const cand of live) {
        if (refused.has(cand.key)) continue;
        samples.set(cand.key, [...(samples.get(cand.key) ?? []), { shape: c.label, features, refNs: [...refNs], candNs: cand.side.samplesNs, resolutionNs }]);
      }
    } finally {
      refSession.destroy();
      live.forEach((l) => l.side.session.destroy());
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
    if (!timed.length) return { key, schedule: s, status: 'invalid', reason: `takes none of the shapes (${unfitShapes.map((u) => u.shape).join(', ')}): ${op.fits(s, cases[0], ctx.adapter.limits).join('; ')}`, shapes: [], rule: null, meanWinGain: null };
    const judgement = judgeCandidate(timed, unfitShapes);
    judged.push({ key, schedule: s, judgement });
    const cells: SweepShapeCell[] = cases.map((c) => {
      const j = judgement.shapes.find((x) => x.shape === c.label);
      if (!j) return { shape: c.label, medianNs: null, spread: null, gain: null, outcome: 'unfit', metrics: null };
      const reps = timed.find((x) => x.shape === c.label)!.candNs;
      const bytes = op.bytes(c);
      const metrics = computeMetrics({ minNs: Math.min(...reps), medianNs: j.candMedianNs }, op.flops(c), bytes.readBytes + bytes.writeBytes, peaksForKernel(peaks, candFeatures.get(key) ?? {}, ctx.calibration));
      return { shape: c.label, medianNs: j.candMedianNs, spread: j.candSpread, gain: j.gain, outcome: j.outcome, metrics };
    });
    return { key, schedule: s, status: judgement.outcome, reason: judgement.reason, shapes: cells, rule: judgement.rule, meanWinGain: judgement.meanWinGain };
  });
  candidates.sort(compareCandidates);
  progress.finish();
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
