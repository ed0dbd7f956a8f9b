// The sweep's refusal rules, on plain samples: a gain inside the noise, a loss no shape rule
// can exclude. (Wrong output and the watchdog are ruled before any of this runs.)
import { deriveRule } from '../schedule/derive-rule';
import { allHold, describeConditions, type Condition, type Features } from '../schedule/shape-rules';
import { median, relativeSpread } from './timing';
import { effectFloor } from './verdict';

export interface ShapeSamples {
  readonly shape: string;
  readonly features: Features;
  /** Per-rep medians of the variant the candidate would replace. */
  readonly refNs: readonly number[];
  /** Per-rep medians of the candidate. */
  readonly candNs: readonly number[];
  /** The timer's resolution: a gain must clear the effect floor too (verdict.ts). */
  readonly resolutionNs?: number | null;
}

export interface ShapeJudgement {
  readonly shape: string;
  readonly features: Features;
  readonly refMedianNs: number;
  readonly candMedianNs: number;
  readonly refSpread: number;
  readonly candSpread: number;
  /** 1 − t_cand / t_ref (medians). */
  readonly gain: number;
  /** spread_cand + spread_ref: a gain must exceed this to count. */
  readonly noise: number;
  /** The effect floor (max of 2% and 4 timer ticks of the candidate's median): a gain must exceed it too. */
  readonly floor: number;
  /** win: gain > noise; lose: slower than the reference at all (gain < 0); else inside the noise. */
  readonly outcome: 'win' | 'lose' | 'noise';
}

export type CandidateOutcome = 'accepted' | 'noise' | 'slower' | 'no-rule';

export interface CandidateJudgement {
  readonly outcome: CandidateOutcome;
  readonly reason: string;
  readonly shapes: readonly ShapeJudgement[];
  /** The shape rule that routes to this candidate (accepted only). */
  readonly rule: readonly Condition[] | null;
  /** Mean gain over the shapes it wins. */
  readonly meanWinGain: number;
}

export function judgeShape(s: ShapeSamples): ShapeJudgement {
  const refMedianNs = median(s.refNs);
  const candMedianNs = median(s.candNs);
  const refSpread = relativeSpread(s.refNs);
  const candSpread = relativeSpread(s.candNs);
  const gain = 1 - candMedianNs / refMedianNs;
  const noise = candSpread + refSpread;
  const floor = effectFloor(s.resolutionNs, candMedianNs);
  const outcome = gain > noise && gain > floor ? 'win' : gain < 0 ? 'lose' : 'noise';
  return { shape: s.shape, features: s.features, refMedianNs, candMedianNs, refSpread, candSpread, gain, noise, floor, outcome };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/**
 * `unfit` are shapes the candidate cannot take at all (e.g. vec4 on an odd row): they count
 * as losses, so its rule must route them elsewhere.
 */
export function judgeCandidate(samples: readonly ShapeSamples[], unfit: readonly { shape: string; features: Features }[] = []): CandidateJudgement {
  const shapes = samples.map(judgeShape);
  const wins = shapes.filter((s) => s.outcome === 'win');
  const losses: { shape: string; features: Features }[] = [...shapes.filter((s) => s.outcome === 'lose'), ...unfit];
  const meanWinGain = wins.length ? wins.reduce((a, s) => a + s.gain, 0) / wins.length : 0;
  if (!wins.length) {
    const best = [...shapes].sort((a, b) => b.gain - a.gain)[0];
    // Say what happened: slower than the reference everywhere is not noise.
    const slower = best !== undefined && best.gain < 0;
    return {
      outcome: slower ? 'slower' : 'noise',
      reason: !best
        ? 'no shapes'
        : slower
          ? `${pct(-best.gain)} slower than the reference at best (${best.shape}), slower on every shape it takes`
          : `the best gain, ${pct(best.gain)} on ${best.shape}, is inside the noise (${best.gain <= best.noise ? `spread ${pct(best.noise)}` : `effect floor ${pct(best.floor)}`})`,
      shapes,
      rule: null,
      meanWinGain,
    };
  }
  const rule = deriveRule(
    wins.map((s) => s.features),
    losses.map((s) => s.features),
  );
  if (!rule) {
    return {
      outcome: 'no-rule',
      reason: `no shape rule includes the wins (${wins.map((s) => s.shape).join(', ')}) and excludes the losses (${losses.map((s) => s.shape).join(', ')})`,
      shapes,
      rule: null,
      meanWinGain,
    };
  }
  return {
    outcome: 'accepted',
    reason: `wins ${wins.map((s) => `${s.shape} (${pct(s.gain)} > ${pct(s.noise)})`).join(', ')}${losses.length ? `; rule "${describeConditions(rule)}" excludes ${losses.map((s) => s.shape).join(', ')}` : ''}`,
    shapes,
    rule,
    meanWinGain,
  };
}

export interface ProposalEntry<S> {
  readonly key: string;
  readonly schedule: S;
  readonly when: readonly Condition[];
  readonly covers: readonly string[];
  readonly meanWinGain: number;
}

/**
 * Orders accepted candidates into schedulesFor entries: the best mean gain first; a later
 * candidate enters only for winning shapes no earlier rule already routes.
 */
export function composeProposal<S>(accepted: readonly { key: string; schedule: S; judgement: CandidateJudgement }[]): ProposalEntry<S>[] {
  const ranked = [...accepted].filter((a) => a.judgement.outcome === 'accepted').sort((a, b) => b.judgement.meanWinGain - a.judgement.meanWinGain);
  const entries: ProposalEntry<S>[] = [];
  const routed = new Set<string>();
  for (const a of ranked) {
    const rule = a.judgement.rule ?? [];
    const fresh = a.judgement.shapes.filter((s) => s.outcome === 'win' && !routed.has(s.shape));
    if (!fresh.length) continue;
    const covers = a.judgement.shapes.filter((s) => !routed.has(s.shape) && allHold(rule, s.features)).map((s) => s.shape);
    covers.forEach((s) => routed.add(s));
    entries.push({ key: a.key, schedule: a.schedule, when: rule, covers, meanWinGain: a.judgement.meanWinGain });
  }
  return entries;
}
