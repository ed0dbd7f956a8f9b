import { describe, expect, it } from 'vitest';
import { deriveRule } from '../schedule/derive-rule';
import { composeProposal, judgeCandidate, judgeShape } from './sweep-rules';

const reps = (center: number, spread: number) => [center * (1 - spread / 2), center, center, center * (1 + spread / 2), center];

describe('sweep refusal rules (synthetic samples)', () => {
  it('refuses a gain inside the noise', () => {
    // 4% faster, but each side spreads 3%: 4% ≤ 6%.
    const j = judgeCandidate([{ shape: '4096x512', features: { ne0: 4096, rows: 512 }, refNs: reps(100, 0.03), candNs: reps(96, 0.03) }]);
    expect(j.outcome).toBe('noise');
    expect(j.shapes[0].gain).toBeCloseTo(0.04, 10);
    expect(j.shapes[0].noise).toBeCloseTo(0.06, 10);
    expect(j.reason).toMatch(/the best gain, 4\.0% on 4096x512, is inside the noise \(spread 6\.0%\)/);
  });

  it('calls a candidate twice as slow slower, not noise', () => {
    // Median 200 vs 100 on one shape, 150 vs 100 on the other: gains −100% and −50%.
    const j = judgeCandidate([
      { shape: '4096x512', features: { ne0: 4096, rows: 512 }, refNs: reps(100, 0.03), candNs: reps(200, 0.03) },
      { shape: '256x16', features: { ne0: 256, rows: 16 }, refNs: reps(100, 0.03), candNs: reps(150, 0.03) },
    ]);
    expect(j.outcome).toBe('slower');
    expect(j.reason).toBe('50.0% slower than the reference at best (256x16), slower on every shape it takes');
  });

  it('accepts a gain outside the noise', () => {
    const j = judgeCandidate([{ shape: '4096x512', features: { ne0: 4096, rows: 512 }, refNs: reps(100, 0.02), candNs: reps(80, 0.02) }]);
    expect(j.outcome).toBe('accepted');
    expect(j.rule).toEqual([]);
    expect(j.meanWinGain).toBeCloseTo(0.2, 10);
  });

  it('derives a threshold that excludes the shapes a candidate loses', () => {
    const j = judgeCandidate([
      { shape: '4096x512', features: { ne0: 4096, rows: 512 }, refNs: reps(100, 0.01), candNs: reps(70, 0.01) },
      { shape: '2048x512', features: { ne0: 2048, rows: 512 }, refNs: reps(100, 0.01), candNs: reps(80, 0.01) },
      { shape: '64x512', features: { ne0: 64, rows: 512 }, refNs: reps(100, 0.01), candNs: reps(150, 0.01) },
    ]);
    expect(j.outcome).toBe('accepted');
    expect(j.rule).toEqual([{ feature: 'ne0', min: 2048 }]);
  });

  it('refuses a candidate whose losing shape no rule can exclude', () => {
    // Wins at ne0 = 1024 and 4096, loses at 2048 in between, same rows: no threshold or
    // divisibility separates them.
    const j = judgeCandidate([
      { shape: '1024x8', features: { ne0: 1024, rows: 8 }, refNs: reps(100, 0.01), candNs: reps(70, 0.01) },
      { shape: '2048x8', features: { ne0: 2048, rows: 8 }, refNs: reps(100, 0.01), candNs: reps(130, 0.01) },
      { shape: '4096x8', features: { ne0: 4096, rows: 8 }, refNs: reps(100, 0.01), candNs: reps(70, 0.01) },
    ]);
    expect(j.outcome).toBe('no-rule');
    expect(j.reason).toMatch(/no shape rule includes the wins \(1024x8, 4096x8\) and excludes the losses \(2048x8\)/);
  });

  it('treats shapes a candidate cannot take as losses its rule must exclude', () => {
    const j = judgeCandidate([{ shape: '4096x8', features: { ne0: 4096, rows: 8 }, refNs: reps(100, 0.01), candNs: reps(70, 0.01) }], [{ shape: '4093x8', features: { ne0: 4093, rows: 8 } }]);
    expect(j.outcome).toBe('accepted');
    expect(j.rule).toEqual([{ feature: 'ne0', multipleOf: 2 }]);
  });

  it('classifies each shape as win, lose or noise', () => {
    expect(judgeShape({ shape: 'a', features: {}, refNs: [100, 100, 100], candNs: [97, 97, 97] }).outcome).toBe('win');
    // A 1% gain with no spread is under the 2% effect floor: inside what the timer can produce.
    const small = judgeShape({ shape: 'a', features: {}, refNs: [100, 100, 100], candNs: [99, 99, 99] });
    expect(small.outcome).toBe('noise');
    expect(small.floor).toBe(0.02);
    // Four 1 ns ticks of a 100 ns kernel: a 3% gain is under that floor.
    expect(judgeShape({ shape: 'a', features: {}, refNs: [100, 100, 100], candNs: [97, 97, 97], resolutionNs: 1 }).outcome).toBe('noise');
    expect(judgeShape({ shape: 'a', features: {}, refNs: [90, 100, 110], candNs: [95, 99, 105] }).outcome).toBe('noise');
    expect(judgeShape({ shape: 'a', features: {}, refNs: [90, 100, 110], candNs: [95, 101, 105] }).outcome).toBe('lose');
  });

  it('derives rules from divisibility and pairs of conditions', () => {
    expect(deriveRule([{ ne0: 4096 }, { ne0: 1024 }], [{ ne0: 4093 }])).toEqual([{ feature: 'ne0', multipleOf: 2 }]);
    // 1000 is a multiple of 8 but not of 16; 4093 of neither.
    expect(deriveRule([{ ne0: 4096 }, { ne0: 1024 }], [{ ne0: 4093 }, { ne0: 1000 }])).toEqual([{ feature: 'ne0', multipleOf: 16 }]);
    // rows ≤ 64 and ne0 ≥ 1024 together are needed: each loss breaks one of them.
    const rule = deriveRule(
      [{ ne0: 4096, rows: 8 }, { ne0: 2048, rows: 64 }],
      [{ ne0: 512, rows: 8 }, { ne0: 4096, rows: 512 }],
    );
    expect(rule).toEqual([{ feature: 'ne0', min: 2048 }, { feature: 'rows', max: 64 }]);
    expect(deriveRule([], [{ ne0: 1 }])).toBeNull();
  });

  it('composes a proposal: best gain first, later rules only for shapes not yet routed', () => {
    const shape = (name: string, ne0: number, ref: number, cand: number) => ({ shape: name, features: { ne0 }, refNs: reps(ref, 0.01), candNs: reps(cand, 0.01) });
    const big = judgeCandidate([shape('4096', 4096, 100, 60), shape('64', 64, 100, 130)]);
    const small = judgeCandidate([shape('4096', 4096, 100, 90), shape('64', 64, 100, 80)]);
    const p = composeProposal([
      { key: 'small', schedule: 's', judgement: small },
      { key: 'big', schedule: 'b', judgement: big },
    ]);
    expect(p.map((e) => [e.key, e.covers, e.when])).toEqual([
      ['big', ['4096'], [{ feature: 'ne0', min: 4096 }]],
      ['small', ['64'], []],
    ]);
  });
});
