import { describe, expect, it } from 'vitest';
import { deviceBufferSizeBytes, deviceOffsetElements, f16BitsToF32, f32ToF16Bits, gather, GUARD_BYTES, prng, randomBuffer, randomIntBuffer, readElement, SENTINEL_U32, withGuards, writeElement } from './hostdata';
import { checkOutput } from './stats/correctness';
import { contiguous, stridedRows } from './tensor';
import { f16Encode } from './quant/half';

describe('host data', () => {
  it('draws the same sequence for the same seed', () => {
    const a = prng(42);
    const b = prng(42);
    const xs = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(prng(43)()).not.toBe(xs[0]);
  });

  it('f32ToF16Bits equals f16Encode of the f32 over every exponent, ties, subnormals, ±0, Inf and NaN', () => {
    const next = prng(11);
    const bits = new Uint32Array(1);
    const f = new Float32Array(bits.buffer);
    for (let e = 0; e < 256; e++) {
      for (let k = 0; k < 200; k++) {
        // Random mantissas, and mantissas whose dropped bits are exactly half (ties) or half ± 1.
        const low = k % 4 === 0 ? 0x1000 : k % 4 === 1 ? 0x0fff : k % 4 === 2 ? 0x1001 : Math.floor(next() * 0x2000);
        const hi = Math.floor(next() * 0x400) << 13;
        bits[0] = ((k & 8 ? 1 : 0) << 31) | (e << 23) | hi | low;
        if (e === 255 && (hi | low)) continue; // NaN payloads: checked below
        expect(f32ToF16Bits(f[0]), `0x${bits[0].toString(16)}`).toBe(f16Encode(f[0]));
      }
    }
    for (const x of [0, -0, Infinity, -Infinity, 65504, 65519.99, 65520, 2 ** -24, 2 ** -25, 3 * 2 ** -26, 2 ** -14, NaN]) expect(f32ToF16Bits(x), String(x)).toBe(f16Encode(Math.fround(x)));
  });

  it('converts f16 exactly, subnormals and rounding included', () => {
    expect(f32ToF16Bits(1)).toBe(0x3c00);
    expect(f32ToF16Bits(-2)).toBe(0xc000);
    expect(f32ToF16Bits(65504)).toBe(0x7bff);
    expect(f32ToF16Bits(1e6)).toBe(0x7c00);
    expect(f32ToF16Bits(2 ** -24)).toBe(0x0001);
    expect(f16BitsToF32(0x0001)).toBe(2 ** -24);
    expect(f16BitsToF32(0x3555)).toBeCloseTo(0.333251953125, 12);
    // 1 + 2^-11 is halfway between 1 and the next half: ties to even (1).
    expect(f32ToF16Bits(1 + 2 ** -11)).toBe(0x3c00);
    expect(f32ToF16Bits(1 + 3 * 2 ** -11)).toBe(0x3c02);
    expect(Number.isNaN(f16BitsToF32(f32ToF16Bits(NaN)))).toBe(true);
  });

  it('fills every byte of a view buffer and gathers through strides', () => {
    const t = stridedRows('f32', [3, 2], 5, 1);
    const buf = randomBuffer(t, 7);
    const all = new Float32Array(buf);
    expect(all.length).toBe(10);
    expect([...all].every((x) => x >= -1 && x < 1 && x !== 0)).toBe(true);
    expect([...gather(t, buf)]).toEqual([all[1], all[2], all[3], all[6], all[7], all[8]].map(Number));
  });

  it('wraps device buffers in sentinel guard bands', () => {
    const data = new Float32Array([1, 2, 3]).buffer;
    const g = withGuards(data);
    expect(g.byteLength).toBe(deviceBufferSizeBytes(12));
    expect(g.byteLength).toBe(GUARD_BYTES + 16 + GUARD_BYTES);
    const u = new Uint32Array(g);
    expect(u[0]).toBe(SENTINEL_U32);
    expect(new Float32Array(g, GUARD_BYTES, 3)).toEqual(new Float32Array([1, 2, 3]));
    expect(u[GUARD_BYTES / 4 + 3]).toBe(SENTINEL_U32);
    expect(deviceOffsetElements(contiguous('f32', [4]))).toBe(64);
    expect(deviceOffsetElements(stridedRows('f32', [3, 2], 5, 1))).toBe(65);
  });

  it('carries i32 tensors exactly: seeded integers in a range, exact reads, an exact bound', () => {
    const t = contiguous('i32', [5, 2]);
    const buf = randomIntBuffer(t, 3, -2, 3);
    const v = [...new Int32Array(buf)];
    expect(v.length).toBe(10);
    expect(v.every((x) => Number.isInteger(x) && x >= -2 && x < 3)).toBe(true);
    expect([...new Int32Array(randomIntBuffer(t, 3, -2, 3))]).toEqual(v);
    expect([...gather(t, buf)]).toEqual(v);
    expect([...new Int32Array(randomBuffer(t, 1))].every((x) => x >= 0 && x < 8)).toBe(true);
    const view = new DataView(new ArrayBuffer(4));
    writeElement(view, 'i32', 0, -7);
    expect(readElement(view, 'i32', 0)).toBe(-7);
    expect(() => writeElement(view, 'i32', 0, 2.5)).toThrow(/not an i32/);
    expect(deviceOffsetElements(t)).toBe(64);
    // An integer output off by one is wrong: the bound for i32 is 0.
    const dst = contiguous('i32', [2]);
    const before = withGuards(new ArrayBuffer(8));
    const after = before.slice(0);
    new Int32Array(after, GUARD_BYTES, 2).set([4, 6]);
    const oracle = { ref: Float64Array.from([4, 5]), epsFloor: new Float64Array(2), terms: 1 };
    const report = checkOutput(dst, oracle, before, after);
    expect(report.correct).toBe(false);
    expect(report.outOfBound).toBe(1);
    expect(report.maxErr).toBe(1);
    new Int32Array(after, GUARD_BYTES, 2).set([4, 5]);
    expect(checkOutput(dst, oracle, before, after).correct).toBe(true);
  });
});
