// Fixed-width codes packed LSB-first into u32 words: code i occupies bits [i·w, i·w + w) of the
// stream, bit 0 being the low bit of word 0. Codes of 3, 5 or 6 bits straddle word boundaries. On
// a little-endian byte view a 4-bit stream is the classic low-nibble-first layout, an 8-bit one is
// one byte per code.

export function packedWords(count: number, width: number): number {
  return Math.ceil((count * width) / 32);
}

export function packCodes(codes: ArrayLike<number>, width: number): Uint32Array {
  checkWidth(width);
  const out = new Uint32Array(packedWords(codes.length, width));
  const mask = width === 32 ? 0xffffffff : (1 << width) - 1;
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i];
    if (!Number.isInteger(code) || code < 0 || code > mask) throw new RangeError(`code ${code} at ${i} does not fit ${width} bits`);
    const bit = i * width;
    const word = bit >>> 5;
    const shift = bit & 31;
    out[word] = (out[word] | (code << shift)) >>> 0;
    if (shift + width > 32) out[word + 1] = (out[word + 1] | (code >>> (32 - shift))) >>> 0;
  }
  return out;
}

/** Code i of a stream packed by packCodes. */
export function unpackCode(words: Uint32Array, width: number, i: number): number {
  const bit = i * width;
  const word = bit >>> 5;
  const shift = bit & 31;
  let v = words[word] >>> shift;
  if (shift + width > 32) v |= words[word + 1] << (32 - shift);
  return width === 32 ? v >>> 0 : v & ((1 << width) - 1);
}

export function unpackCodes(words: Uint32Array, width: number, count: number): Uint32Array {
  const out = new Uint32Array(count);
  for (let i = 0; i < count; i++) out[i] = unpackCode(words, width, i);
  return out;
}

function checkWidth(width: number): void {
  if (!Number.isInteger(width) || width < 1 || width > 32) throw new RangeError(`code width ${width} is not 1…32 bits`);
}
