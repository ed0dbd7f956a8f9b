import { describe, expect, it } from 'vitest';
import refVectors from './__fixtures__/ggml-k-ref-vectors.json';
import { GGML_K_TYPES, ggmlKDequantize, scaleMinK4 } from './ggml-k';

const fromHex = (h: string) => Uint8Array.from(h.match(/../g) ?? [], (b) => parseInt(b, 16));

describe('ggml K-quants, dequantize', () => {
  it('get_scale_min_k4: sub-blocks 0–3 take 6 bits of bytes j and j+4; 4–7 split over three bytes', () => {
    const s = Uint8Array.from([0xc1, 0x02, 0x03, 0x44, 0x85, 0x06, 0x07, 0x48, 0x9a, 0xbc, 0xde, 0xf0]);
    expect(scaleMinK4(0, s, 0)).toEqual([0x01, 0x05]);
    expect(scaleMinK4(3, s, 0)).toEqual([0x04, 0x08]);
    // j = 4: d = (s[8] & 0xf) | (s[0] >> 6) << 4 = 0xa | 0x30; m = (s[8] >> 4) | (s[4] >> 6) << 4 = 0x9 | 0x20
    expect(scaleMinK4(4, s, 0)).toEqual([0x3a, 0x29]);
    expect(scaleMinK4(7, s, 0)).toEqual([0x10 | 0x0, 0xf | 0x10]);
  });

  it('Q4_K: a hand-made super-block (d = 1, dmin = 0.5, sub-block 0 scale 2 min 3)', () => {
    const b = new Uint8Array(144);
    new DataView(b.buffer).setUint16(0, 0x3c00, true); // d = 1
    new DataView(b.buffer).setUint16(2, 0x3800, true); // dmin = 0.5
    b[4] = 2; // sub-block 0 scale
    b[8] = 3; // sub-block 0 min
    b[5] = 1; // sub-block 1 scale (min 0)
    b[16] = 0x5a; // element 0 (low nibble 0xa) and element 32 (high nibble 5)
    const y = ggmlKDequantize('q4_k', b, 256);
    expect(y[0]).toBe(2 * 10 - 1.5);
    expect(y[1]).toBe(-1.5);
    expect(y[32]).toBe(5);
    expect(y[64]).toBe(0);
  });

  for (const t of GGML_K_TYPES) {
    it(`${t.name}: bytes from ggml's quantize_row_${t.name}_ref dequantize to ggml's f32 bits`, () => {
      const v = (refVectors as Record<string, { bytes: string; dequant: string }>)[t.name];
      const bytes = fromHex(v.bytes);
      expect(bytes.length).toBe(3 * t.blockBytes);
      const y = new Uint32Array(ggmlKDequantize(t.name, bytes, 768).buffer);
      expect(Array.from(y, (u) => u.toString(16).padStart(8, '0')).join(' ')).toBe(v.dequant);
    });
  }

  it('bad input: unknown type, not a multiple of 256, wrong byte count', () => {
    expect(() => ggmlKDequantize('q3_k', new Uint8Array(0), 256)).toThrow(/unknown ggml K-quant type 'q3_k'/);
    expect(() => ggmlKDequantize('q6_k', new Uint8Array(210), 200)).toThrow(/q6_k: 200 values is not a positive multiple of its super-block size 256/);
    expect(() => ggmlKDequantize('q5_k', new Uint8Array(170), 256)).toThrow(/q5_k: 170 bytes for 256 values, expected 176/);
  });
});
