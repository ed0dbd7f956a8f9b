import { describe, expect, it } from 'vitest';
import { effectFloor, MIN_EFFECT, outOfLinePasses, summarizeSpeedups, timingVerdict, watchdogFired } from './verdict';

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

describe('the effect floor', () => {
  it('is 2%, or four timer ticks of the median when that is more', () => {
    expect(effectFloor(32, 8000)).toBe(MIN_EFFECT);
    expect(effectFloor(32, 2000)).toBeCloseTo(0.064, 12);
    expect(effectFloor(1, 100)).toBeCloseTo(0.04, 12);
    expect(effectFloor(null, 8000)).toBe(MIN_EFFECT);
    // The native column's own spread over the passes: noise a gain must clear too.
    expect(effectFloor(32, 8000, 0.3)).toBe(0.3);
    expect(effectFloor(32, 8000, 0.001)).toBe(MIN_EFFECT);
    expect(timingVerdict([1.05, 1.1, 1.2], 0.05, effectFloor(1, 1e6, 0.25))).toBe('parity');
  });

  it('turns five equal ratios of one tick (the H200 A/A) into parity, and keeps real gains', () => {
    // One 32 ns tick on an 8 µs kernel, five times: spread 0, so only the floor can catch it.
    expect(timingVerdict([1.004, 1.004, 1.004, 1.004, 1.004], 0.05, effectFloor(32, 8000))).toBe('parity');
    expect(timingVerdict([1.0059, 1.0059, 1.0059, 1.0059, 1.0059], 0.05, effectFloor(32, 8000))).toBe('parity');
    expect(timingVerdict([1.018, 1.019, 1.0195], 0.05, 0.02)).toBe('parity');
    expect(timingVerdict([1.03, 1.031, 1.029], 0.05, 0.02)).toBe('faster');
    // A gain of 5% on a 2 µs kernel is under its 6.4% floor.
    expect(timingVerdict([1.05, 1.05, 1.05], 0.05, effectFloor(32, 2000))).toBe('parity');
    expect(timingVerdict([1.97, 1.97, 1.96], 0.05, effectFloor(32, 654_000))).toBe('faster');
  });

  it('asks a regression to clear the floor too', () => {
    expect(timingVerdict([0.94, 0.94, 0.94], 0.05, 0.02)).toBe('slower');
    expect(timingVerdict([0.94, 0.94, 0.94], 0.05, 0.064)).toBe('within-tolerance');
    expect(timingVerdict([0.909, 0.91, 0.911], 0.05, 0.064)).toBe('slower');
  });
});

describe('passes out of line', () => {
  it('names passes where either side strays more than 10% from its median', () => {
    // The H200 lane of 2026-11-29: three passes of both sides ~2.5× slow would be the median, so
    // one slow pass of five is what the rule can catch.
    expect(outOfLinePasses([1290, 3220, 1291, 1289, 1290], [654, 1650, 655, 653, 654])).toEqual([1]);
    expect(outOfLinePasses([1000, 1005, 995, 1002, 998], [500, 560, 501, 499, 500])).toEqual([1]);
    expect(outOfLinePasses([1000, 1050, 995, 1002, 998], [500, 501, 501, 499, 500])).toEqual([]);
    expect(outOfLinePasses([1000, 5000], [500, 500])).toEqual([]);
  });
});

