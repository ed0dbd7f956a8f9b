import { describe, expect, it } from 'vitest';
import refVectors from './__fixtures__/ggml-ref-vectors.json';
import { GGML_TYPES, ggmlDequantize, ggmlQuantize } from './ggml';

const hex = (b: Uint8Array) => Array.from(b, (v) => v.toString(16).padStart(2, '0')).join('');

function block(values: Record<number, number>, fill = 0): Float32Array {
  const x = new Float32Array(32).fill(fill);
  for (const [i, v] of Object.entries(values)) x[Number(i)] = v;
  return x;
}

describe('ggml block types, worked from ggml-quants.c', () => {
  it('Q4_0: d = max/−8, q = min(15, trunc(x/d + 8.5)), elements j and j+16 share byte j', () => {
    const x = block({ 0: -8, 1: 7, 2: 0.5, 3: -0.5, 16: 3.2, 17: 7.6 });
    const b = ggmlQuantize('q4_0', x);
    expect(hex(b)).toBe('003c' + 'b0ff8988' + '88'.repeat(12));
    expect(Array.from(ggmlDequantize('q4_0', b, 32).subarray(0, 4))).toEqual([-8, 7, 1, 0]);
    expect(Array.from(ggmlDequantize('q4_0', b, 32).subarray(16, 18))).toEqual([3, 7]);
  });

  it('Q4_0: a positive max gives a negative d (max maps to code 0)', () => {
    const b = ggmlQuantize('q4_0', block({ 0: 8, 1: -4 }));
    expect(hex(b.subarray(0, 3))).toBe('00bc' + '80'); // d = −1 (0xbc00); q0 = 0, q16 = 8
    expect(b[3] & 0xf).toBe(12); // −4 → trunc(4 + 8.5) = 12
    expect(Array.from(ggmlDequantize('q4_0', b, 32).subarray(0, 2))).toEqual([8, -4]);
  });

  it('Q4_1: d = (max − min)/15, m = min, q = min(15, trunc((x − m)/d + 0.5))', () => {
    const b = ggmlQuantize('q4_1', block({ 0: -1, 1: 14, 2: 0.5, 3: 2.4 }));
    expect(hex(b)).toBe('003c' + '00bc' + '101f1213' + '11'.repeat(12));
    expect(Array.from(ggmlDequantize('q4_1', b, 32).subarray(0, 5))).toEqual([-1, 14, 1, 2, 0]);
  });

  it('Q5_0: bit 4 of element j in qh bit j, q = min(31, trunc(x/d + 16.5))', () => {
    const b = ggmlQuantize('q5_0', block({ 0: -16, 1: 15, 2: 0.5, 20: -3 }));
    // qh = every bit but 0 (q=0) and 20 (q=13): 0xffeffffe, little-endian.
    expect(hex(b)).toBe('003c' + 'feffefff' + '000f0100d0' + '00'.repeat(11));
    const y = ggmlDequantize('q5_0', b, 32);
    expect([y[0], y[1], y[2], y[3], y[20]]).toEqual([-16, 15, 1, 0, -3]);
  });

  it('Q5_1: d = (max − min)/31, no clamp before the 5-bit split', () => {
    const b = ggmlQuantize('q5_1', block({ 0: -1, 1: 30, 2: 15.2 }));
    expect(hex(b)).toBe('003c' + '00bc' + '06000000' + '101f10' + '11'.repeat(13));
    expect(Array.from(ggmlDequantize('q5_1', b, 32).subarray(0, 4))).toEqual([-1, 30, 15, 0]);
  });

  it('Q8_0: d = amax/127, q = roundf(x/d) (half away from zero, unlike the Track-1 encoder)', () => {
    const b = ggmlQuantize('q8_0', block({ 0: 63.5, 1: 0.25, 2: -0.25, 3: 0.75 }));
    expect(hex(b.subarray(0, 6))).toBe('0038' + '7f01ff02');
    expect(Array.from(ggmlDequantize('q8_0', b, 32).subarray(0, 4))).toEqual([63.5, 0.5, -0.5, 1]);
    expect(b.length).toBe(34);
  });

  it('MXFP4: e = floor(log2 amax) − 2 + 127, first code of least error wins ties (not even)', () => {
    const b = ggmlQuantize('mxfp4', block({ 0: 6, 1: -6, 2: 0.25, 3: 5, 4: -2.5, 5: 0.75 }));
    expect(hex(b.subarray(0, 7))).toBe('7f' + '070f00060c01');
    expect(Array.from(ggmlDequantize('mxfp4', b, 32).subarray(0, 6))).toEqual([6, -6, 0, 4, -2, 0.5]);
  });

  it('MXFP4: E8M0 codes 0 and 1 decode through f32 subnormals (2^-128, 2^-127)', () => {
    const b = new Uint8Array(17);
    b[1] = 0x07; // element 0: kvalue 12
    expect(ggmlDequantize('mxfp4', b, 32)[0]).toBe(Math.fround(12 * 2 ** -128));
    b[0] = 1;
    expect(ggmlDequantize('mxfp4', b, 32)[0]).toBe(Math.fround(12 * 2 ** -127));
  });

  for (const t of GGML_TYPES) {
    it(`${t.name}: quantize ∘ dequantize is idempotent on pseudo-random blocks, all-zero blocks decode to 0`, () => {
      const n = 32 * 16;
      const x = new Float32Array(n);
      let s = 12345;
      for (let i = 0; i < n; i++) {
        s = (Math.imul(s, 1103515245) + 12345) >>> 0;
        x[i] = (s / 2 ** 32 - 0.5) * 2 ** ((i >> 5) - 6);
      }
      const q = ggmlQuantize(t.name, x);
      expect(q.length).toBe((n / 32) * t.blockBytes);
      expect(hex(ggmlQuantize(t.name, ggmlDequantize(t.name, q, n)))).toBe(hex(q));
      // Q4_0/Q5_0 store d = 0/−8 = −0 (0x8000) and decode −0, as ggml's C does; compare by value.
      expect(ggmlDequantize(t.name, ggmlQuantize(t.name, new Float32Array(32)), 32).every((v) => v === 0)).toBe(true);
    });
  }

  it('Q4_0 of an all-zero block stores d = −0 like ggml (0/−8)', () => {
    expect(hex(ggmlQuantize('q4_0', new Float32Array(32)).subarray(0, 3))).toBe('008088');
  });

  it('bad input: unknown type, a row not a multiple of 32, NaN, wrong byte count', () => {
    expect(() => ggmlQuantize('q3_0', new Float32Array(32))).toThrow(/unknown ggml block type 'q3_0'/);
    expect(() => ggmlQuantize('q8_0', new Float32Array(40))).toThrow(/q8_0: 40 values is not a positive multiple of its block size 32/);
    expect(() => ggmlQuantize('q4_0', block({ 5: NaN }))).toThrow(/q4_0: value 5 is NaN/);
    expect(() => ggmlDequantize('q4_1', new Uint8Array(19), 32)).toThrow(/q4_1: 19 bytes for 32 values, expected 20/);
  });
});

describe('ggml block types against vectors from ggml’s own C reference', () => {
  const vectors = refVectors as Record<string, { input: string; bytes: string; dequant: string }>;
  for (const t of GGML_TYPES) {
    it(`${t.name}: quantize bytes and dequantized f32 bits match ggml (12 blocks: uniform, quarter steps, outlier, 2^-40…2^26 scales)`, () => {
      const v = vectors[t.name];
      const x = new Float32Array(new Uint32Array(v.input.split(' ').map((h) => parseInt(h, 16))).buffer);
      const q = ggmlQuantize(t.name, x);
      expect(hex(q)).toBe(v.bytes);
      const y = new Uint32Array(ggmlDequantize(t.name, q, x.length).buffer);
      expect(Array.from(y, (u) => u.toString(16).padStart(8, '0')).join(' ')).toBe(v.dequant);
    });
  }
});
