import { describe, expect, it } from 'vitest';
import { groupedSamples, median, relativeSpread, resolutionFromTimestamps, runDurationsNs, runsForSpan, summarizeTimestamps } from './timing';

describe('timing statistics', () => {
  it('takes medians and spreads', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(relativeSpread([90, 100, 120])).toBeCloseTo(0.3, 12);
  });

  it('detects the timer resolution from raw timestamps', () => {
    const q = 65536n;
    expect(resolutionFromTimestamps([10n * q, 10n * q, 11n * q, 13n * q])).toBe(65536);
    expect(resolutionFromTimestamps([1000n, 1003n, 1010n, 1011n])).toBe(1);
    expect(resolutionFromTimestamps([64n, 96n, 160n])).toBe(32);
    expect(resolutionFromTimestamps([5n, 5n, 5n])).toBeNull();
  });

  it('pairs begin/end timestamps into per-run durations, clamping backwards pairs to 0', () => {
    expect(runDurationsNs([100n, 150n, 150n, 210n, 300n, 290n])).toEqual([50, 60, 0]);
  });

  it('grows a batch until the span reaches 100× the resolution', () => {
    // 10 runs of 5 µs = 50 µs; the target is 6.55 ms: about 1442 runs (10% margin).
    expect(runsForSpan(10, 50_000, 100 * 65_536, 100_000)).toBe(1442);
    expect(runsForSpan(10, 10_000_000, 100 * 65_536, 100_000)).toBe(10);
    expect(runsForSpan(10, 50_000, 100 * 65_536, 500)).toBe(500);
    // A 5 ms floor on hardware: 10 runs of 8 µs grow to 688.
    expect(runsForSpan(10, 80_000, 5e6, 100_000)).toBe(688);
  });

  it('keeps per-run samples when the timer resolves single runs', () => {
    const s = summarizeTimestamps([1000, 1100, 1050, 990, 5000], 1, false);
    expect(s.method).toBe('timestamp');
    expect(s.samplesNs).toHaveLength(5);
    expect([s.minNs, s.medianNs, s.maxNs]).toEqual([990, 1050, 5000]);
    expect(s.note).toMatch(/serialized latency/);
  });

  it('groups runs when single runs are below the timer grain (quantized timestamps)', () => {
    // 200 runs of a 5 µs kernel under a 65.5 µs grid: each run reads 0 or 65536.
    const durations: number[] = Array.from({ length: 2000 }, (_, i) => (i % 13 === 0 ? 65536 : 0));
    const s = summarizeTimestamps(durations, 65536, false);
    expect(s.method).toBe('timestamp-grouped');
    const trueMean = durations.reduce((a, b) => a + b, 0) / durations.length;
    expect(s.medianNs).toBeGreaterThan(trueMean * 0.7);
    expect(s.medianNs).toBeLessThan(trueMean * 1.3);
    expect(groupedSamples(durations, 65536).length).toBeGreaterThanOrEqual(5);
  });
});

describe('noise you can see', () => {
  it('reports p20 and p80 beside min, median and max, and flags a spread past 10% as noisy', async () => {
    const { quantile, interQuintileSpread, summarize, NOISY_SPREAD } = await import('./timing');
    const steady = [100, 101, 99, 100, 102, 98, 100, 100, 101, 99];
    expect(quantile([1, 2, 3, 4, 5], 0.2)).toBeCloseTo(1.8, 12);
    expect(quantile([1, 2, 3, 4, 5], 0.8)).toBeCloseTo(4.2, 12);
    const s = summarize(steady, 10, 1, 'timestamp', 1000, false);
    expect([s.p20Ns, s.p80Ns, s.noisy]).toEqual([99, 101, false]);
    // SwiftShader under load: 8× between min and max, a wide middle too.
    const wild = [100, 120, 800, 105, 300, 110, 150, 95, 400, 130];
    expect(interQuintileSpread(wild)).toBeGreaterThan(NOISY_SPREAD);
    expect(summarize(wild, 10, 1, 'timestamp', 1000, false).noisy).toBe(true);
    // One outlier alone does not make a result noisy: the quintiles ignore it.
    expect(summarize([100, 100, 100, 100, 100, 100, 100, 100, 100, 900], 10, 1, 'timestamp', 1000, false).noisy).toBe(false);
  });
});
