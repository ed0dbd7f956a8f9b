import { describe, expect, it } from 'vitest';
import type { SweepCandidate } from '../results';
import { candidateScore, compareCandidates } from './sweep-rank';

const cand = (key: string, status: SweepCandidate['status'], gains: (number | null)[], meanWinGain: number | null = null): SweepCandidate =>
  ({ key, schedule: { family: 'elementwise' }, status, reason: '', rule: null, meanWinGain, shapes: gains.map((gain, i) => ({ shape: `s${i}`, medianNs: 1, spread: 0.01, gain, outcome: null, metrics: null })) }) as unknown as SweepCandidate;

describe('sweep ranking: best first', () => {
  it('scores accepted by their win gain, the rest by their mean gain over timed shapes', () => {
    expect(candidateScore(cand('a', 'accepted', [0.2, -0.1], 0.2))).toBe(0.2);
    // (−1.0 + −0.5) / 2 = −0.75: twice as slow (gain −100%) and 1.5× slower.
    expect(candidateScore(cand('b', 'slower', [-1.0, -0.5, null]))).toBe(-0.75);
    expect(candidateScore(cand('c', 'wrong', []))).toBe(-Infinity);
  });

  it('puts the slowest timed refusal below one inside the noise, and untimed refusals last', () => {
    const list = [cand('wrong', 'wrong', []), cand('slow', 'slower', [-1.0, -0.9]), cand('acc-small', 'accepted', [0.1], 0.1), cand('noise', 'noise', [0.01, -0.02]), cand('acc-big', 'accepted', [0.3], 0.3), cand('inv', 'invalid', [])];
    expect(list.sort(compareCandidates).map((c) => c.key)).toEqual(['acc-big', 'acc-small', 'noise', 'slow', 'wrong', 'inv']);
  });
});
