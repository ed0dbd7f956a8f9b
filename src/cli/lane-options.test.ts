import { describe, expect, it } from 'vitest';
import { parseFactors, parseRepeatOption } from './lane-options';

describe('the lane options of controls and passes', () => {
  it('takes --repeat N or --repeat auto with its target and cap', () => {
    expect(parseRepeatOption({})).toEqual({});
    expect(parseRepeatOption({ repeat: '7' })).toEqual({ repeat: 7 });
    expect(parseRepeatOption({ repeat: 'auto' })).toEqual({ repeatAuto: { targetWidth: 0.02, maxPasses: 30 } });
    expect(parseRepeatOption({ repeat: 'auto', 'repeat-target': '0.01', 'repeat-max': '60' })).toEqual({ repeatAuto: { targetWidth: 0.01, maxPasses: 60 } });
  });

  it('refuses a bad --repeat, target or cap by name, with the limit', () => {
    expect(() => parseRepeatOption({ repeat: '0' })).toThrow("--repeat must be a whole number from 1 to 1000, got '0'");
    expect(() => parseRepeatOption({ repeat: '1e9' })).toThrow("--repeat must be a whole number from 1 to 1000, got '1e9'");
    expect(() => parseRepeatOption({ repeat: '5000' })).toThrow('--repeat is 5000, above the cap of 1000');
    expect(() => parseRepeatOption({ repeat: '5', 'repeat-max': '9' })).toThrow('--repeat-target and --repeat-max go with --repeat auto');
    expect(() => parseRepeatOption({ repeat: 'auto', 'repeat-target': '2' })).toThrow(/--repeat-target must be a relative width in \(0, 1\)/);
    expect(() => parseRepeatOption({ repeat: 'auto', 'repeat-max': '5' })).toThrow(/--repeat-max must be an integer in \[6, 1000\] \(fewer than 6 passes give no 95% interval/);
    expect(() => parseRepeatOption({ repeat: 'auto', 'repeat-max': '1001' })).toThrow(/--repeat-max must be an integer in \[6, 1000\]/);
  });

  it('takes --factors as planted slowdowns in (1, 3], sorted, each once', () => {
    expect(parseFactors(undefined)).toBeUndefined();
    expect(parseFactors('1.05,1.02,1.05')).toEqual([1.02, 1.05]);
    for (const bad of ['1', '0.9', '3.5', 'x', '1.02,', '-1.1']) expect(() => parseFactors(bad)).toThrow(/--factors must be planted slowdowns F in \(1, 3\]/);
    expect(() => parseFactors('1.1,1.2,1.3,1.4,1.5,1.6,1.7,1.8,1.9')).toThrow('--factors takes at most 8 factors, got 9');
  });
});
