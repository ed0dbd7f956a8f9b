import { describe, expect, it } from 'vitest';
import { opByName } from './ops/registry';
import { FULL_ORACLE_MAX_TERMS, ORACLE_SAMPLE_SIZE, oracleSample, oracleTerms } from './oracle-sample';

describe('oracle sampling', () => {
  const add = opByName('ADD');
  const big = add.makeCase([4096, 4096], 'contiguous'); // 16 777 216 output elements

  it('checks every element of a case the CPU oracle can afford', () => {
    expect(oracleTerms(add, big)).toBe(16777216);
    expect(oracleSample(add, big)).toBeUndefined();
  });

  it('samples 16384 sorted elements, both ends included, above 3e8 multiply-adds', () => {
    const costly = { flops: () => 2 * (FULL_ORACLE_MAX_TERMS + 2) };
    expect(oracleTerms(costly, big)).toBe(FULL_ORACLE_MAX_TERMS + 2);
    const s = oracleSample(costly, big, 1)!;
    expect(s.length).toBe(ORACLE_SAMPLE_SIZE);
    // mulberry32(48): the first picks after 0, and the last before 4096² − 1.
    expect([...s.slice(0, 4)]).toEqual([0, 628, 3985, 5743]);
    expect([...s.slice(-3)]).toEqual([16774435, 16775702, 16777215]);
    for (let i = 1; i < s.length; i++) expect(s[i]).toBeGreaterThan(s[i - 1]);
    expect(oracleSample(costly, big, 2)![1]).not.toBe(628);
  });

  it('never samples an output no larger than the sample', () => {
    const small = add.makeCase([128, 128], 'contiguous'); // exactly 16384 elements
    expect(oracleSample({ flops: () => 1e12 }, small)).toBeUndefined();
  });

  it('counts multiply-adds as half the flops: MUL_MAT 1024³ is sampled, 128³ is not', () => {
    const mm = opByName('MUL_MAT');
    const large = mm.makeCase([1024, 1024, 1024], 'contiguous');
    expect(oracleTerms(mm, large)).toBe(1073741824); // 1024³ multiply-adds
    expect(oracleSample(mm, large)!.length).toBe(ORACLE_SAMPLE_SIZE);
    const small = mm.makeCase([128, 128, 128], 'contiguous');
    expect(oracleTerms(mm, small)).toBe(2097152);
    expect(oracleSample(mm, small)).toBeUndefined();
  });
});
