import { describe, expect, it } from 'vitest';
import { ELEMENTS, type ElementName } from './element';

describe('element codecs', () => {
  for (const el of Object.values(ELEMENTS)) {
    it(`${el.name}: every code decodes and re-encodes to itself (NaN codes decode to NaN)`, () => {
      for (let c = 0; c < 1 << el.bits; c++) {
        const v = el.decode(c);
        if (el.isNaNCode(c)) expect(v).toBeNaN();
        else if (Number.isFinite(v)) expect(el.encode(v)).toBe(c);
      }
    });
  }

  it('decodes hand-worked codes', () => {
    const dec = (n: ElementName, c: number) => ELEMENTS[n].decode(c);
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((c) => dec('e2m1', c))).toEqual([0, 0.5, 1, 1.5, 2, 3, 4, 6]);
    expect(dec('e2m1', 0xf)).toBe(-6);
    expect(Object.is(dec('e2m1', 0x8), -0)).toBe(true);
    expect(dec('e4m3', 0x7e)).toBe(448);
    expect(dec('e4m3', 0x08)).toBe(2 ** -6);
    expect(dec('e4m3', 0x01)).toBe(2 ** -9);
    expect(dec('e4m3', 0x38)).toBe(1);
    expect(dec('e4m3', 0x7f)).toBeNaN();
    expect(dec('e4m3', 0xff)).toBeNaN();
    expect(dec('e5m2', 0x7b)).toBe(57344);
    expect(dec('e5m2', 0x7c)).toBe(Infinity);
    expect(dec('e5m2', 0xfc)).toBe(-Infinity);
    expect(dec('e5m2', 0x7d)).toBeNaN();
    expect(dec('e5m2', 0x01)).toBe(2 ** -16);
    expect(dec('int4', 0x8)).toBe(-8);
    expect(dec('int4', 0x7)).toBe(7);
    expect(dec('int3', 0x4)).toBe(-4);
    expect(dec('int2', 0x3)).toBe(-1);
    expect(dec('int8', 0x80)).toBe(-128);
  });

  it('max finite and emax follow the OCP tables', () => {
    const pick = (n: ElementName) => [ELEMENTS[n].maxFinite, ELEMENTS[n].emax];
    expect(pick('e2m1')).toEqual([6, 2]);
    expect(pick('e4m3')).toEqual([448, 8]);
    expect(pick('e5m2')).toEqual([57344, 15]);
    expect(pick('int2')).toEqual([1, 0]);
    expect(pick('int4')).toEqual([7, 2]);
    expect(pick('int8')).toEqual([127, 6]);
  });

  it('ties round to the even code', () => {
    const e2m1 = ELEMENTS.e2m1;
    expect(e2m1.decode(e2m1.encode(2.5))).toBe(2);
    expect(e2m1.decode(e2m1.encode(3.5))).toBe(4);
    expect(e2m1.decode(e2m1.encode(5))).toBe(4);
    expect(e2m1.decode(e2m1.encode(0.25))).toBe(0);
    expect(e2m1.decode(e2m1.encode(0.75))).toBe(1);
    expect(e2m1.decode(e2m1.encode(-2.5))).toBe(-2);
    expect(ELEMENTS.e4m3.encode(17)).toBe(0x58); // 16 (0x58) and 18 (0x59): even wins
    expect(ELEMENTS.e4m3.encode(19)).toBe(0x5a); // 18 (0x59) and 20 (0x5a)
    expect(ELEMENTS.e4m3.encode(1.5 * 2 ** -9)).toBe(0x02); // subnormal tie 1 vs 2 → 2
    expect(ELEMENTS.e5m2.encode(1.125)).toBe(0x3c); // 1 (0x3c) and 1.25 (0x3d)
    expect(ELEMENTS.int4.encode(2.5)).toBe(2);
    expect(ELEMENTS.int4.encode(3.5)).toBe(4);
    expect(ELEMENTS.int4.decode(ELEMENTS.int4.encode(-2.5))).toBe(-2);
    expect(ELEMENTS.int4.decode(ELEMENTS.int4.encode(-3.5))).toBe(-4);
  });

  it('saturates out-of-range values to ±max finite, Inf included', () => {
    expect(ELEMENTS.e2m1.encode(100)).toBe(7);
    expect(ELEMENTS.e2m1.encode(-Infinity)).toBe(0xf);
    expect(ELEMENTS.e4m3.encode(1e6)).toBe(0x7e);
    expect(ELEMENTS.e4m3.encode(464)).toBe(0x7e); // past the 448/480 midpoint: still saturates
    expect(ELEMENTS.e4m3.encode(-Infinity)).toBe(0xfe);
    expect(ELEMENTS.e5m2.encode(1e9)).toBe(0x7b);
    expect(ELEMENTS.e5m2.encode(Infinity)).toBe(0x7b);
    expect(ELEMENTS.int4.encode(100)).toBe(7);
    expect(ELEMENTS.int4.encode(-100)).toBe(0x8);
  });

  it('NaN goes to the element NaN code where there is one, else throws', () => {
    expect(ELEMENTS.e4m3.encode(NaN)).toBe(0x7f);
    expect(ELEMENTS.e5m2.encode(NaN)).toBe(0x7e);
    expect(() => ELEMENTS.e2m1.encode(NaN)).toThrow(/e2m1 has no NaN/);
    expect(() => ELEMENTS.int8.encode(NaN)).toThrow(/int8 has no NaN/);
  });
});
