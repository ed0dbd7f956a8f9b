import { describe, expect, it } from 'vitest';
import { packCodes, packedWords, unpackCodes } from './bitpack';

describe('LSB-first bit packing', () => {
  it('a 4-bit stream is byte-identical to low-nibble-first nibbles', () => {
    const words = packCodes([0x1, 0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0xf], 4);
    expect(Array.from(words)).toEqual([0x87654321, 0x0000000f]);
    expect(Array.from(new Uint8Array(words.buffer))).toEqual([0x21, 0x43, 0x65, 0x87, 0x0f, 0, 0, 0]);
  });

  it('3-bit codes straddle the word boundary (code 10 splits 2 + 1 bits)', () => {
    const codes = new Array(12).fill(0);
    codes[10] = 0b011;
    codes[11] = 0b101;
    expect(Array.from(packCodes(codes, 3))).toEqual([0xc0000000, 0b1010]);
  });

  it('round-trips every width 1…8 on a pseudo-random stream, and 16/32', () => {
    for (const w of [1, 2, 3, 4, 5, 6, 7, 8, 16, 32]) {
      const n = 97;
      const codes = Array.from({ length: n }, (_, i) => Number((BigInt(i) * 2654435761n) % (1n << BigInt(w))));
      const words = packCodes(codes, w);
      expect(words.length).toBe(packedWords(n, w));
      expect(Array.from(unpackCodes(words, w, n))).toEqual(codes);
    }
  });

  it('refuses a code wider than its width', () => {
    expect(() => packCodes([16], 4)).toThrow(/code 16 at 0 does not fit 4 bits/);
  });
});
