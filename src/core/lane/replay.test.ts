import { describe, expect, it } from 'vitest';
import type { LaneControl, LaneResult, LaneShape } from '../results';
import type { ShapeVerdict } from '../stats/verdict';
import { sensitivityReport, summarizeReplays } from './replay';

const shape = (name: string, verdict: ShapeVerdict, nativeMedianNs: number, speedupMedian: number): LaneShape =>
  ({ shape: name, verdict, nativeMedianNs, speedupMedian }) as unknown as LaneShape;
const lane = (...shapes: LaneShape[]): LaneResult => ({ pairs: [{ op: 'ADD', shapes }] }) as unknown as LaneResult;

describe('lane replays', () => {
  it('counts verdicts per shape, the flip rate and whether native stayed put', () => {
    const replays = [
      lane(shape('64x8', 'faster', 1000, 1.2), shape('7x3', 'parity', 500, 1.0)),
      lane(shape('64x8', 'faster', 1010, 1.21), shape('7x3', 'parity', 900, 1.01)),
      lane(shape('64x8', 'parity', 990, 1.01), shape('7x3', 'parity', 510, 0.99)),
      lane(shape('64x8', 'faster', 1000, 1.19), shape('7x3', 'within-tolerance', 505, 0.97)),
    ];
    const [a, b] = summarizeReplays(replays);
    expect(a).toMatchObject({ op: 'ADD', shape: '64x8', replays: 4, counts: { faster: 3, parity: 1 }, modal: 'faster', flipRate: 0.25, nativeStable: true });
    expect(a.nativeSpread).toBeCloseTo(20 / 1000, 12);
    expect(b).toMatchObject({ modal: 'parity', flipRate: 0.25, nativeStable: false });
    // (900 − 500) / median(500, 505, 510, 900) = 400 / 507.5
    expect(b.nativeSpread).toBeCloseTo(400 / 507.5, 12);
  });

  it('reports the smallest planted slowdown seen as slower in ≥ 95% of replays, and false A/A verdicts', () => {
    const times = (n: number, f: (i: number) => LaneResult) => Array.from({ length: n }, (_, i) => f(i));
    const byControl = new Map<LaneControl, LaneResult[]>([
      ['aa', times(10, (i) => lane(shape('64x8', i === 3 ? 'faster' : 'parity', 1000, 1), shape('big', 'parity', 9000, 1)))],
      ['slow:1.05', times(10, (i) => lane(shape('64x8', i < 7 ? 'slower' : 'within-tolerance', 1000, 0.95), shape('big', 'slower', 9000, 0.95)))],
      ['slow:1.1', times(10, () => lane(shape('64x8', 'slower', 1000, 0.9), shape('big', 'slower', 9000, 0.91)))],
      ['slow:1.2', times(10, () => lane(shape('64x8', 'slower', 1000, 0.83), shape('big', 'slower', 9000, 0.83)))],
    ]);
    const [small, big] = sensitivityReport(byControl);
    expect(small).toMatchObject({ shape: '64x8', aaFalse: 1, aaReplays: 10, smallestSeen: 1.1 });
    expect(small.slowerShare).toEqual({ '1.05': 0.7, '1.1': 1, '1.2': 1 });
    expect(big).toMatchObject({ shape: 'big', aaFalse: 0, smallestSeen: 1.05 });
  });
});
