import { describe, expect, it } from 'vitest';
import type { LaneControl, LaneResult, LaneShape } from '../results';
import type { ShapeVerdict } from '../stats/verdict';
import { durationClass, sensitivityControls, sensitivityGroups, sensitivityReport, summarizeReplays } from './replay';

const shape = (name: string, verdict: ShapeVerdict, nativeMedianNs: number, speedupMedian: number): LaneShape =>
  ({ shape: name, verdict, nativeMedianNs, speedupMedian }) as unknown as LaneShape;
const lane = (...shapes: LaneShape[]): LaneResult => ({ pairs: [{ op: 'ADD', shapes }], skipped: [] }) as unknown as LaneResult;

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

  it('reports per planted factor the measured factor, detection and slower rates, and the smallest detected', () => {
    const times = (n: number, f: (i: number) => LaneResult) => Array.from({ length: n }, (_, i) => f(i));
    const planted = (s: LaneShape, factor: number): LaneShape => ({ ...s, plant: { askedFactor: factor, measuredFactor: factor + 0.002, iterations: 10, attempts: 2, refused: null, smallestFactor: null } }) as LaneShape;
    const refusedSmall = (factor: number) => ({ op: 'ADD', reason: 'refused', plant: { shape: '64x8', askedFactor: factor, measuredFactor: null, iterations: null, attempts: 3, refused: 'too short', smallestFactor: 1.04 } });
    const byControl = new Map<LaneControl, LaneResult[]>([
      ['aa', times(10, (i) => lane(shape('64x8', i === 3 ? 'faster' : i === 4 ? 'within-tolerance' : 'parity', 20_000, 1), shape('big', 'parity', 900_000, 1)))],
      // 1.02× cannot be planted on the short kernel: refused on every replay.
      ['slow:1.02', times(10, () => ({ ...lane(planted(shape('big', 'within-tolerance', 900_000, 0.98), 1.02)), skipped: [refusedSmall(1.02)] }) as unknown as LaneResult)],
      ['slow:1.05', times(10, (i) => lane(planted(shape('64x8', i < 7 ? 'slower' : 'parity', 20_000, 0.95), 1.05), planted(shape('big', 'slower', 900_000, 0.95), 1.05)))],
      ['slow:1.1', times(10, () => lane(planted(shape('64x8', 'slower', 20_000, 0.9), 1.1), planted(shape('big', 'slower', 900_000, 0.91), 1.1)))],
    ]);
    const [small, big] = sensitivityReport(byControl);
    expect(small).toMatchObject({ shape: '64x8', aaFalse: 1, aaDetected: 2, aaReplays: 10, durationClass: '< 50 µs', smallestDetected: 1.1, smallestSeen: 1.1 });
    expect(small.planted['1.02']).toEqual({ askedFactor: 1.02, measuredFactor: null, replays: 0, refused: 10, smallestFactor: 1.04, detected: null, slower: null });
    expect(small.planted['1.05']).toMatchObject({ measuredFactor: 1.052, replays: 10, detected: 0.7, slower: 0.7 });
    // Detected (not parity) in every replay at 1.02 on the long kernel, though never beyond the tolerance.
    expect(big).toMatchObject({ shape: 'big', aaFalse: 0, durationClass: '> 500 µs', smallestDetected: 1.02, smallestSeen: 1.05 });
    expect(big.planted['1.02']).toMatchObject({ measuredFactor: 1.022, detected: 1, slower: 0 });
    const groups = sensitivityGroups([small, big]);
    expect(groups.map((g) => g.durationClass)).toEqual(['< 50 µs', '> 500 µs']);
    expect(groups[0]).toMatchObject({ aaReplays: 10, aaFalse: 1, aaDetected: 2 });
    expect(groups[0].planted['1.02']).toEqual({ replays: 0, refused: 10, detected: null, slower: null });
    expect(groups[1].planted['1.05']).toEqual({ replays: 10, refused: 0, detected: 1, slower: 1 });
  });

  it('replays A/A first, then the planted factors smallest first', () => {
    expect(sensitivityControls()).toEqual(['aa', 'slow:1.02', 'slow:1.05', 'slow:1.1', 'slow:1.2']);
    expect(sensitivityControls([1.05, 1.02])).toEqual(['aa', 'slow:1.02', 'slow:1.05']);
    expect(durationClass(49_999)).toBe('< 50 µs');
    expect(durationClass(50_000)).toBe('50–500 µs');
    expect(durationClass(500_000)).toBe('> 500 µs');
    expect(durationClass(null)).toBeNull();
  });
});
