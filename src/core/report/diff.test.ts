import { describe, expect, it } from 'vitest';
import { diffLanes, formatDiff } from './diff';
import type { LaneJson } from './json';
import { sampleAdapter, sampleLane } from '../../../test/fixtures/sample-results';

/** A copy of the lane with ADD's first shape set to these medians (speedup = native / generated). */
function withFirstShape(base: LaneJson, nativeNs: number, generatedNs: number): LaneJson {
  const copy = structuredClone(base) as LaneJson & { pairs: { shapes: { nativeMedianNs: number | null; generatedMedianNs: number | null; speedupMedian: number | null }[] }[] };
  const s = copy.pairs[0].shapes[0];
  s.nativeMedianNs = nativeNs;
  s.generatedMedianNs = generatedNs;
  s.speedupMedian = nativeNs / generatedNs;
  return copy;
}

describe('lab diff (lane baseline against a new lane)', () => {
  const base = withFirstShape(sampleLane(), 100_000, 80_000); // speedup 1.25

  it('finds a regression beyond the threshold and only that one', () => {
    // Native 2% slower (inside the 5% tolerance), generated 100 → 110 µs: speedup 102/110 = 0.927,
    // change (0.927 − 1.25) / 1.25 = −25.8%.
    const b = withFirstShape(base, 102_000, 110_000);
    const d = diffLanes(base, b, 5);
    if (!d.comparable) throw new Error(d.reason);
    const row = d.rows[0];
    expect(row.speedupA).toBeCloseTo(1.25, 6);
    expect(row.speedupB).toBeCloseTo(0.92727, 4);
    expect(row.change).toBeCloseTo(-0.25818, 4);
    expect(row.regression).toBe(true);
    expect(d.regressions).toBe(1);
    expect(formatDiff(d)).toMatch(/1 of \d+ shapes regressed by more than 5%/);
  });

  it('lets a fall inside the threshold pass: 1.25 → 1.20 is −4%', () => {
    const b = withFirstShape(base, 100_000, 100_000 / 1.2);
    const d = diffLanes(base, b, 5);
    if (!d.comparable) throw new Error(d.reason);
    expect(d.rows[0].change).toBeCloseTo(-0.04, 6);
    expect(d.regressions).toBe(0);
    expect(diffLanes(base, b, 3).comparable && (diffLanes(base, b, 3) as { regressions: number }).regressions).toBe(1);
  });

  it('refuses when the native column moved, or across adapters', () => {
    const moved = withFirstShape(base, 130_000, 80_000);
    const d = diffLanes(base, moved);
    expect(d.comparable).toBe(false);
    expect(formatDiff(d)).toMatch(/not compared: the native column moved beyond the 5% tolerance/);
    const other = sampleLane({ adapter: sampleAdapter({ vendor: 'amd', architecture: 'rdna-3', device: 'gfx1100' }) });
    expect(diffLanes(base, other)).toEqual({ comparable: false, reason: expect.stringMatching(/different adapters/) });
  });
});
