import { describe, expect, it } from 'vitest';
import { f16Decode, f16Encode } from './half';

describe('f16 codec', () => {
  it('every non-NaN f16 code decodes and re-encodes to itself; NaN codes decode to NaN', () => {
    const wrong: number[] = [];
    for (let c = 0; c < 0x10000; c++) {
      const v = f16Decode(c);
      const isNaNCode = ((c >> 10) & 0x1f) === 0x1f && (c & 0x3ff) !== 0;
      if (isNaNCode ? !Number.isNaN(v) : f16Encode(v) !== c) wrong.push(c);
    }
    expect(wrong).toEqual([]);
  });

  it('decodes hand-worked patterns', () => {
    expect(f16Decode(0x3c00)).toBe(1);
    expect(f16Decode(0x7bff)).toBe(65504);
    expect(f16Decode(0x0001)).toBe(2 ** -24);
    expect(f16Decode(0x03ff)).toBe(2 ** -14 - 2 ** -24);
    expect(f16Decode(0x0400)).toBe(2 ** -14);
    expect(f16Decode(0xc000)).toBe(-2);
    expect(f16Decode(0x7c00)).toBe(Infinity);
    expect(Object.is(f16Decode(0x8000), -0)).toBe(true);
  });

  it('rounds to nearest even through the subnormals and at overflow', () => {
    expect(f16Encode(2 ** -25)).toBe(0x0000); // tie 0 vs 1 → 0
    expect(f16Encode(3 * 2 ** -25)).toBe(0x0002); // tie 1 vs 2 → 2
    expect(f16Encode(2 ** -26)).toBe(0x0000);
    expect(f16Encode(2 ** -14 - 2 ** -25)).toBe(0x0400); // tie 0x3ff vs 0x400 → 0x400
    expect(f16Encode(1 + 2 ** -11)).toBe(0x3c00);
    expect(f16Encode(1 + 3 * 2 ** -11)).toBe(0x3c02);
    expect(f16Encode(65519)).toBe(0x7bff);
    expect(f16Encode(65520)).toBe(0x7c00); // the tie with 65536 rounds up to Inf
    expect(f16Encode(-1e9)).toBe(0xfc00);
    expect(f16Encode(NaN)).toBe(0x7e00);
    expect(f16Encode(-0)).toBe(0x8000);
  });
});
