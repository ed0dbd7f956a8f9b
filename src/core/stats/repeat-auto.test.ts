import { describe, expect, it } from 'vitest';
import { medianInterval, medianIntervalWidth, repeatAutoDone } from './repeat-auto';

describe('--repeat auto: passes until the median is pinned down', () => {
  it('takes the order statistics whose coverage is at least 95%', () => {
    // Five passes: min–max covers only 93.75% — no interval yet.
    expect(medianInterval([1, 2, 3, 4, 5])).toBeNull();
    // Six: min–max covers 96.9%.
    expect(medianInterval([6, 1, 5, 2, 4, 3])).toEqual({ lo: 1, hi: 6 });
    // Nine: 2nd and 8th (96.1%); seventeen: 5th and 13th (95.1%).
    expect(medianInterval([9, 1, 8, 2, 7, 3, 6, 4, 5])).toEqual({ lo: 2, hi: 8 });
    expect(medianInterval(Array.from({ length: 17 }, (_, i) => i + 1))).toEqual({ lo: 5, hi: 13 });
  });

  it('stops when the interval is within the target share of the median, or at the cap', () => {
    const auto = { targetWidth: 0.02, maxPasses: 12 };
    // Six tight passes (H200-like, 0.4% apart): done at six.
    const tight = [0.98, 0.982, 0.979, 0.981, 0.983, 0.98];
    expect(medianIntervalWidth(tight)).toBeCloseTo(0.004 / 0.9805, 9);
    expect(repeatAutoDone(tight, auto)).toBe(true);
    expect(repeatAutoDone(tight.slice(0, 5), auto)).toBe(false);
    // Noisy passes (SwiftShader-like): not done until the cap.
    const noisy = [0.9, 1.1, 0.95, 1.05, 1.0, 0.92, 1.08, 0.97, 1.03, 0.99, 1.01];
    expect(repeatAutoDone(noisy, auto)).toBe(false);
    expect(repeatAutoDone([...noisy, 1.0], auto)).toBe(true);
    // One outlier among nine passes is outside the 2nd–8th interval: it does not hold the stop back.
    expect(repeatAutoDone([1.0, 1.001, 0.999, 1.002, 0.998, 1.0, 1.001, 0.999, 1.5], auto)).toBe(true);
  });
});
