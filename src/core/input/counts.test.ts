import { describe, expect, it } from 'vitest';
import { RUN_CAPS } from './caps';
import { checkCountOptions, countDeclaration, countOption, parseCount } from './counts';

describe('counts a run is asked for', () => {
  it('takes decimal digits from 1 to the cap, and nothing else', () => {
    expect(parseCount('5', 'repeat', '--repeat')).toBe(5);
    expect(parseCount(' 1000 ', 'repeat', '--repeat')).toBe(1000);
    expect(parseCount('16384', 'minRuns', '--min-runs')).toBe(RUN_CAPS.minRuns);
    for (const t of ['1e9', '1e308', '0x10', '2.5', '-1', '0', '000', '', 'Infinity', 'NaN', '1_000']) {
      expect(() => parseCount(t, 'repeat', '--repeat'), t).toThrow(`--repeat must be a whole number from 1 to 1000, got '${t.trim()}'`);
    }
    expect(() => parseCount('1001', 'repeat', '--repeat')).toThrow('--repeat is 1001, above the cap of 1000');
    expect(() => parseCount('9007199254740993', 'replay', '--replay')).toThrow('--replay is 9007199254740993, above the cap of 100');
    // A long number is not echoed whole.
    expect(() => parseCount('9'.repeat(400), 'steps', '--steps')).toThrow(`--steps is ${'9'.repeat(40)}…, above the cap of 1000`);
  });

  it("maps a flag to its cap; every count option a command declares is checked at once", () => {
    expect(countOption({ 'min-runs': '20' }, 'min-runs')).toBe(20);
    expect(countOption({}, 'min-runs')).toBeUndefined();
    expect(() => countOption({ bogus: '1' }, 'bogus')).toThrow('--bogus has no cap in RUN_CAPS');
    const declared = { op: { type: 'string' }, steps: countDeclaration('steps'), seed: countDeclaration('seed'), repeat: countDeclaration('repeat', { auto: true }), 'min-runs': countDeclaration('minRuns') };
    expect(() => checkCountOptions({ op: 'ADD', steps: '1e9' }, declared)).toThrow("--steps must be a whole number from 1 to 1000, got '1e9'");
    expect(() => checkCountOptions({ seed: '4294967296' }, declared)).toThrow('--seed is 4294967296, above the cap of 4294967295');
    expect(() => checkCountOptions({ op: 'ADD', repeat: '3', 'min-runs': '7' }, declared)).not.toThrow();
    // 'auto' only where the declaration takes it; an option not declared a count is not read as one.
    expect(() => checkCountOptions({ repeat: 'auto' }, declared)).not.toThrow();
    expect(() => checkCountOptions({ steps: 'auto' }, declared)).toThrow("--steps must be a whole number from 1 to 1000, got 'auto'");
    expect(() => checkCountOptions({ repeat: '0' }, declared)).toThrow("--repeat must be a whole number from 1 to 1000, got '0'");
    expect(() => checkCountOptions({ op: '1e9' }, declared)).not.toThrow();
  });
});
