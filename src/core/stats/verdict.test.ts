import { describe, expect, it } from 'vitest';
import { summarizeSpeedups, timingVerdict, watchdogFired } from './verdict';

describe('lane verdicts (median of ratios)', () => {
  it('rules parity when the spread covers 1, whatever the median', () => {
    // The seed's four replays of one RMS_NORM_BACK pair: a 12% spread against 5% tolerance.
    expect(timingVerdict([1.12, 0.99, 1.08, 1.01])).toBe('parity');
    expect(timingVerdict([0.5, 0.6, 0.7, 1.2])).toBe('parity');
    expect(timingVerdict([1.0, 1.3, 1.4])).toBe('parity');
  });

  it('rules faster when the median is above 1 and the spread does not reach 1', () => {
    expect(timingVerdict([1.02, 1.05, 1.04, 1.3, 1.01])).toBe('faster');
  });

  it('rules slower below 1 − tolerance, within-tolerance between', () => {
    expect(timingVerdict([0.3, 0.33, 0.31, 0.32, 0.35])).toBe('slower');
    expect(timingVerdict([0.96, 0.97, 0.97, 0.98, 0.99])).toBe('within-tolerance');
    expect(timingVerdict([0.96, 0.97, 0.97, 0.98, 0.99], 0.02)).toBe('slower');
    expect(timingVerdict([0.949, 0.95, 0.951])).toBe('within-tolerance');
    expect(timingVerdict([0.94, 0.945, 0.949])).toBe('slower');
  });

  it('summarizes with the median and min–max', () => {
    expect(summarizeSpeedups([1.1, 0.9, 1.3, 1.0, 1.2])).toEqual({ median: 1.1, min: 0.9, max: 1.3 });
    expect(() => timingVerdict([])).toThrow(/at least one pass/);
  });

  it('fires the watchdog at 100× the native median or past the wall bound', () => {
    expect(watchdogFired(100_001, 1000, 1e12)).toBe(true);
    expect(watchdogFired(99_000, 1000, 1e12)).toBe(false);
    expect(watchdogFired(5e9, 4e9, 2e9)).toBe(true);
  });
});
