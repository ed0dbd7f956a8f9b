// The sweep table's order: best first. Accepted candidates by their mean winning gain, then the
// timed refusals (no rule, inside noise, slower) by their mean gain over the shapes they ran —
// so a candidate twice as slow sits below one inside the noise — then what never got timed
// (wrong, too slow, rejected by the device, invalid).
import type { SweepCandidate } from '../results';

const GROUP: Record<SweepCandidate['status'], number> = { accepted: 0, 'no-rule': 1, noise: 1, slower: 1, 'too-slow': 2, wrong: 3, 'device-rejection': 3, invalid: 4 };

/** Mean gain over the shapes a candidate was timed on (its win gain when accepted). */
export function candidateScore(c: Pick<SweepCandidate, 'status' | 'meanWinGain' | 'shapes'>): number {
  if (c.status === 'accepted' && c.meanWinGain !== null) return c.meanWinGain;
  const gains = c.shapes.map((s) => s.gain).filter((g): g is number => g !== null);
  return gains.length ? gains.reduce((a, b) => a + b, 0) / gains.length : -Infinity;
}

export function compareCandidates(a: SweepCandidate, b: SweepCandidate): number {
  return GROUP[a.status] - GROUP[b.status] || candidateScore(b) - candidateScore(a) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}
