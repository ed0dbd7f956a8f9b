// ggml's legacy block types, byte-for-byte as GGUF stores them, quantized and dequantized the way
// ggml's reference C does (src/ggml-quants.c: quantize_row_*_ref, dequantize_row_*), with every
// float operation rounded to f32 as C evaluates it. Layouts (src/ggml-common.h):
//   Q4_0  {f16 d; u8 qs[16]}            x = (q − 8)·d,  q in qs[j] low nibble (elem j) / high (j+16)
//   Q4_1  {f16 d; f16 m; u8 qs[16]}     x = q·d + m
//   Q5_0  {f16 d; u8 qh[4]; u8 qs[16]}  x = (q − 16)·d, bit 4 of elem j in qh bit j
//   Q5_1  {f16 d; f16 m; u8 qh[4]; u8 qs[16]}
//   Q8_0  {f16 d; i8 qs[32]}            x = q·d
//   MXFP4 {u8 e (E8M0); u8 qs[16]}      x = kvalues[q]·2^(e−128), kvalues = 2·E2M1
// Dequantize of Q4_1/Q5_1 computes fround(fround(q·d) + m), the unfused ISO-C evaluation; a build
// that contracts it into an FMA can differ by one f32 ulp.
// ggml's encoders read NaN/Inf as garbage (casts of NaN to int are undefined), so they are refused.
import { QuantFormatError } from '../errors';
import { f16Encode, f16Values } from './half';

export type GgmlTypeName = 'q4_0' | 'q4_1' | 'q5_0' | 'q5_1' | 'q8_0' | 'mxfp4';

export interface GgmlType {
  readonly name: GgmlTypeName;
  /** ggml's type id (enum ggml_type), as a GGUF tensor header carries it. */
  readonly ggmlTypeId: number;
  readonly blockSize: number;
  readonly blockBytes: number;
}

export const GGML_TYPES: readonly GgmlType[] = Object.freeze([
  { name: 'q4_0', ggmlTypeId: 2, blockSize: 32, blockBytes: 18 },
  { name: 'q4_1', ggmlTypeId: 3, blockSize: 32, blockBytes: 20 },
  { name: 'q5_0', ggmlTypeId: 6, blockSize: 32, blockBytes: 22 },
  { name: 'q5_1', ggmlTypeId: 7, blockSize: 32, blockBytes: 24 },
  { name: 'q8_0', ggmlTypeId: 8, blockSize: 32, blockBytes: 34 },
  { name: 'mxfp4', ggmlTypeId: 39, blockSize: 32, blockBytes: 17 },
]);

/** ggml's kvalues_mxfp4: twice the E2M1 values, so the E8M0 scale is taken at half. */
const KVALUES_MXFP4 = [0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12];

const f32 = Math.fround;

export function ggmlType(name: string): GgmlType {
  const t = GGML_TYPES.find((g) => g.name === name);
  if (!t) throw new QuantFormatError(`unknown ggml block type '${name}' (known: ${GGML_TYPES.map((g) => g.name).join(', ')})`);
  return t;
}

function checkLength(t: GgmlType, n: number): number {
  if (!Number.isInteger(n) || n < 1 || n % t.blockSize !== 0) {
    throw new QuantFormatError(`${t.name}: ${n} values is not a positive multiple of its block size ${t.blockSize}; ggml's ${t.name} has no ragged tail block`);
  }
  return n / t.blockSize;
}

/** C's (int8_t)/(uint8_t) of an in-range float: truncation toward zero. */
const trunc = Math.trunc;

/** C's roundf: half away from zero. */
function roundAway(x: number): number {
  return Math.sign(x) * Math.floor(Math.abs(x) + 0.5);
}

export function ggmlQuantize(name: string, x: ArrayLike<number>): Uint8Array {
  const t = ggmlType(name);
  const nb = checkLength(t, x.length);
  for (let i = 0; i < x.length; i++) {
    if (!Number.isFinite(x[i])) throw new QuantFormatError(`${t.name}: value ${i} is ${x[i]}; ggml's ${t.name} reference quantizer has no defined result for NaN/Inf, so the encoder refuses it`);
  }
  const out = new Uint8Array(nb * t.blockBytes);
  const view = new DataView(out.buffer);
  for (let b = 0; b < nb; b++) {
    const xb = Array.from({ length: 32 }, (_, j) => f32(x[b * 32 + j]));
    const o = b * t.blockBytes;
    switch (t.name) {
      case 'q4_0':
      case 'q5_0': {
        const levels = t.name === 'q4_0' ? 8 : 16;
        let amax = 0;
        let max = 0;
        for (const v of xb) if (amax < Math.abs(v)) [amax, max] = [Math.abs(v), v];
        const d = f32(max / -levels);
        const id = d ? f32(1 / d) : 0;
        view.setUint16(o, f16Encode(d), true);
        const q = xb.map((v) => Math.min(2 * levels - 1, trunc(f32(f32(v * id) + levels + 0.5))));
        writeNibbles(out, o + (t.name === 'q4_0' ? 2 : 6), q);
        if (t.name === 'q5_0') view.setUint32(o + 2, highBits(q), true);
        break;
      }
      case 'q4_1':
      case 'q5_1': {
        let min = Infinity;
        let max = -Infinity;
        for (const v of xb) [min, max] = [Math.min(min, v), Math.max(max, v)];
        const top = t.name === 'q4_1' ? 15 : 31;
        const d = f32(f32(max - min) / top);
        const id = d ? f32(1 / d) : 0;
        view.setUint16(o, f16Encode(d), true);
        view.setUint16(o + 2, f16Encode(min), true);
        // Q4_1 clamps to 15; Q5_1's reference does not clamp (uint8_t cast), and keeps 5 bits of it.
        const q = xb.map((v) => {
          const r = trunc(f32(f32(f32(v - min) * id) + 0.5));
          return t.name === 'q4_1' ? Math.min(15, r) : r & 0x1f;
        });
        writeNibbles(out, o + (t.name === 'q4_1' ? 4 : 8), q);
        if (t.name === 'q5_1') view.setUint32(o + 4, highBits(q), true);
        break;
      }
      case 'q8_0': {
        let amax = 0;
        for (const v of xb) amax = Math.max(amax, Math.abs(v));
        const d = f32(amax / 127);
        const id = d ? f32(1 / d) : 0;
        view.setUint16(o, f16Encode(d), true);
        for (let j = 0; j < 32; j++) view.setInt8(o + 2 + j, roundAway(f32(xb[j] * id)));
        break;
      }
      case 'mxfp4': {
        let amax = 0;
        for (const v of xb) amax = Math.max(amax, Math.abs(v));
        // ggml: (uint8_t)(floorf(log2f(amax)) − 2 + 127); log2f is taken as Math.log2 rounded to f32.
        const e = amax > 0 ? Math.floor(f32(Math.log2(amax))) - 2 + 127 : 0;
        if (e < 0 || e > 254) throw new QuantFormatError(`mxfp4: block ${b} amax ${amax} puts the E8M0 exponent at ${e}, outside ggml's 0…254`);
        out[o] = e;
        const d = e8m0Half(e);
        const q = xb.map((v) => bestMxfp4Index(v, d));
        writeNibbles(out, o + 1, q);
        break;
      }
    }
  }
  return out;
}

export function ggmlDequantize(name: string, bytes: Uint8Array, n: number): Float32Array {
  const t = ggmlType(name);
  const nb = checkLength(t, n);
  if (bytes.length !== nb * t.blockBytes) throw new QuantFormatError(`${t.name}: ${bytes.length} bytes for ${n} values, expected ${nb * t.blockBytes}`);
  const y = new Float32Array(n);
  ggmlDequantizeInto(t, bytes, nb, y, 0);
  return y;
}

/**
 * nb blocks of `bytes` (from its start) dequantized into y at `at`: ggml's dequantize_row_* with
 * one loop per type (no per-weight dispatch or allocation), the same f32 roundings as C — a store
 * into the Float32Array rounds once, Math.fround marks the inner roundings of Q4_1/Q5_1.
 */
export function ggmlDequantizeInto(t: GgmlType, bytes: Uint8Array, nb: number, y: Float32Array, at: number): void {
  const F16 = f16Values();
  const bb = t.blockBytes;
  const u16 = (o: number) => bytes[o] | (bytes[o + 1] << 8);
  const u32 = (o: number) => (bytes[o] | (bytes[o + 1] << 8) | (bytes[o + 2] << 16) | (bytes[o + 3] << 24)) >>> 0;
  for (let b = 0; b < nb; b++) {
    const o = b * bb;
    const out = at + b * 32;
    switch (t.name) {
      case 'q4_0': {
        const d = F16[u16(o)];
        for (let j = 0; j < 16; j++) {
          const q = bytes[o + 2 + j];
          y[out + j] = ((q & 15) - 8) * d;
          y[out + j + 16] = ((q >> 4) - 8) * d;
        }
        break;
      }
      case 'q4_1': {
        const d = F16[u16(o)];
        const m = F16[u16(o + 2)];
        for (let j = 0; j < 16; j++) {
          const q = bytes[o + 4 + j];
          y[out + j] = f32((q & 15) * d) + m;
          y[out + j + 16] = f32((q >> 4) * d) + m;
        }
        break;
      }
      case 'q5_0': {
        const d = F16[u16(o)];
        const qh = u32(o + 2);
        for (let j = 0; j < 16; j++) {
          const q = bytes[o + 6 + j];
          y[out + j] = (((q & 15) | (((qh >>> j) & 1) << 4)) - 16) * d;
          y[out + j + 16] = (((q >> 4) | (((qh >>> (j + 16)) & 1) << 4)) - 16) * d;
        }
        break;
      }
      case 'q5_1': {
        const d = F16[u16(o)];
        const m = F16[u16(o + 2)];
        const qh = u32(o + 4);
        for (let j = 0; j < 16; j++) {
          const q = bytes[o + 8 + j];
          y[out + j] = f32(((q & 15) | (((qh >>> j) & 1) << 4)) * d) + m;
          y[out + j + 16] = f32(((q >> 4) | (((qh >>> (j + 16)) & 1) << 4)) * d) + m;
        }
        break;
      }
      case 'q8_0': {
        const d = F16[u16(o)];
        for (let j = 0; j < 32; j++) y[out + j] = ((bytes[o + 2 + j] << 24) >> 24) * d;
        break;
      }
      case 'mxfp4': {
        const d = e8m0Half(bytes[o]);
        for (let j = 0; j < 16; j++) {
          const q = bytes[o + 1 + j];
          y[out + j] = KVALUES_MXFP4[q & 15] * d;
          y[out + j + 16] = KVALUES_MXFP4[q >> 4] * d;
        }
        break;
      }
    }
  }
}

/** ggml_e8m0_to_fp32_half: 2^(e − 128) as f32 (subnormal for e < 2). */
function e8m0Half(e: number): number {
  return 2 ** (e - 128);
}

/** ggml's best_index_mxfp4: the first of the 16 codes with the least f32 |kvalue·d − x|. */
function bestMxfp4Index(x: number, d: number): number {
  let best = 0;
  let bestErr = Math.abs(f32(f32(KVALUES_MXFP4[0] * d) - x));
  for (let i = 1; i < 16; i++) {
    const err = Math.abs(f32(f32(KVALUES_MXFP4[i] * d) - x));
    if (err < bestErr) [best, bestErr] = [i, err];
  }
  return best;
}

/** Elements j and j+16 share byte j: low nibble, high nibble (bits above 4 dropped). */
function writeNibbles(out: Uint8Array, at: number, q: readonly number[]): void {
  for (let j = 0; j < 16; j++) out[at + j] = (q[j] & 0x0f) | ((q[j + 16] & 0x0f) << 4);
}

/** Bit 4 of element j goes to bit j of the 32-bit qh word. */
function highBits(q: readonly number[]): number {
  let qh = 0;
  for (let j = 0; j < 32; j++) qh |= ((q[j] >> 4) & 1) << j;
  return qh >>> 0;
}
