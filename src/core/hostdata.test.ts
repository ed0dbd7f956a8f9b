import { describe, expect, it } from 'vitest';
import { deviceBufferSizeBytes, deviceOffsetElements, f16BitsToF32, f32ToF16Bits, gather, GUARD_BYTES, prng, randomBuffer, SENTINEL_U32, withGuards } from './hostdata';
import { contiguous, stridedRows } from './tensor';

describe('host data', () => {
  it('draws the same sequence for the same seed', () => {
    const a = prng(42);
    const b = prng(42);
    const xs = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(prng(43)()).not.toBe(xs[0]);
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
});
