// Host-side tensor bytes: deterministic inputs, element reads and writes by byte offset.
import { type DType, type TensorDesc, forEachElement, isContiguous, nelements, typeSizeBytes } from './tensor';
import { f16Decode, f16Values } from './quant/half';

/** Bytes before and after every tensor on the device, filled with a sentinel to catch stray writes. */
export const GUARD_BYTES = 256;

/** A signalling-NaN bit pattern no kernel produces by arithmetic: any change means a stray write. */
export const SENTINEL_U32 = 0x7fa5a5a5;

/** Mulberry32: small, fast, and the same sequence in every runtime. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** IEEE half → float (exact): the quant codec's f16 (src/core/quant/half.ts), one implementation. */
export const f16BitsToF32 = f16Decode;

/** float → IEEE half: x is first an f32 (a tensor element), then rounded to nearest even, subnormals kept. */
const F32_SCRATCH = new Float32Array(1);
const F32_BITS = new Uint32Array(F32_SCRATCH.buffer);

/**
 * f16Encode(Math.fround(x)) — the nearest f16, ties to even — from the f32's bits: a 16384² f16
 * matrix is 268M conversions (hostdata.test.ts pins it equal to f16Encode over every exponent).
 */
export function f32ToF16Bits(x: number): number {
  F32_SCRATCH[0] = x;
  const b = F32_BITS[0];
  const sign = (b >>> 16) & 0x8000;
  const a = b & 0x7fffffff;
  if (a > 0x7f800000) return 0x7e00; // NaN, as f16Encode
  if (a >= 0x477ff000) return sign | 0x7c00; // ≥ 65520 (and Inf) rounds to Inf
  if (a >= 0x38800000) {
    // Normal: rebias the exponent (127 → 15), round the 13 dropped bits to nearest even.
    let h = (a - 0x38000000) >>> 13;
    const rem = a & 0x1fff;
    if (rem > 0x1000 || (rem === 0x1000 && h & 1)) h++;
    return sign | h;
  }
  if (a <= 0x33000000) return sign; // ≤ 2^-25: ties to the even zero
  // Subnormal: the value in units of 2^-24, rounded to nearest even.
  const m = (a & 0x7fffff) | 0x800000;
  const shift = 126 - (a >>> 23);
  let h = m >>> shift;
  const rem = m & ((1 << shift) - 1);
  const half = 1 << (shift - 1);
  if (rem > half || (rem === half && h & 1)) h++;
  return sign | h;
}

export function readElement(view: DataView, type: DType, byteOffset: number): number {
  switch (type) {
    case 'f32':
      return view.getFloat32(byteOffset, true);
    case 'f16':
      return f16BitsToF32(view.getUint16(byteOffset, true));
    case 'i32':
      return view.getInt32(byteOffset, true);
  }
}

export function writeElement(view: DataView, type: DType, byteOffset: number, value: number): void {
  switch (type) {
    case 'f32':
      return view.setFloat32(byteOffset, value, true);
    case 'f16':
      return view.setUint16(byteOffset, f32ToF16Bits(value), true);
    case 'i32':
      if (!Number.isInteger(value) || value < -(2 ** 31) || value >= 2 ** 31) throw new RangeError(`${value} is not an i32`);
      return view.setInt32(byteOffset, value, true);
  }
}

/** Integers in [lo, hi), seeded: indices, positions and labels an op's own inputs() draws. */
export function randomIntBuffer(t: TensorDesc, seed: number, lo: number, hi: number): ArrayBuffer {
  if (t.type !== 'i32') throw new Error(`randomIntBuffer fills i32 tensors, not ${t.type}`);
  if (!(Number.isInteger(lo) && Number.isInteger(hi) && hi > lo)) throw new Error(`randomIntBuffer needs integers lo < hi, got [${lo}, ${hi})`);
  const buf = new ArrayBuffer(t.bufferSizeBytes);
  const next = prng(seed);
  const v = new Int32Array(buf);
  for (let i = 0; i < v.length; i++) v[i] = lo + Math.floor(next() * (hi - lo));
  return buf;
}

/**
 * The packed buffer a tensor lives in, every element uniform in [-1, 1): bytes outside the
 * tensor (gaps of a view) are filled too, so a kernel that reads the wrong place gets a
 * wrong answer instead of a lucky zero.
 */
export function randomBuffer(t: TensorDesc, seed: number): ArrayBuffer {
  // i32 sources default to small non-negative integers; ops whose indices need a range give inputs().
  if (t.type === 'i32') return randomIntBuffer(t, seed, 0, 8);
  const buf = new ArrayBuffer(t.bufferSizeBytes);
  const next = prng(seed);
  if (t.type === 'f32') {
    const f = new Float32Array(buf);
    for (let i = 0; i < f.length; i++) f[i] = next() * 2 - 1;
  } else {
    const h = new Uint16Array(buf);
    for (let i = 0; i < h.length; i++) h[i] = f32ToF16Bits(next() * 2 - 1);
  }
  return buf;
}

/** A buffer filled with the sentinel: what an output starts as, so unwritten elements show. */
export function sentinelBuffer(sizeBytes: number): ArrayBuffer {
  const buf = new ArrayBuffer(Math.ceil(sizeBytes / 4) * 4);
  new Uint32Array(buf).fill(SENTINEL_U32);
  return buf.byteLength === sizeBytes ? buf : buf.slice(0, sizeBytes);
}

/** The tensor's elements in ggml order as f64. */
export function gather(t: TensorDesc, buf: ArrayBuffer): Float64Array {
  // Packed f32/f16 tensors (the usual source) through typed views: 268M elements in seconds, not minutes.
  if (isContiguous(t) && t.type !== 'i32' && t.offsetBytes % typeSizeBytes[t.type] === 0) {
    const n = nelements(t);
    if (t.type === 'f32') return Float64Array.from(new Float32Array(buf, t.offsetBytes, n));
    const table = f16Values();
    const h = new Uint16Array(buf, t.offsetBytes, n);
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = table[h[i]];
    return out;
  }
  const out = new Float64Array(nelements(t));
  const view = new DataView(buf);
  forEachElement(t, (i, off) => {
    out[i] = readElement(view, t.type, off);
  });
  return out;
}

/** Device buffers carry GUARD_BYTES of sentinel on both sides: [guard | tensor bytes | guard]. */
export function withGuards(data: ArrayBuffer): ArrayBuffer {
  const size = deviceBufferSizeBytes(data.byteLength);
  const out = sentinelBuffer(size);
  new Uint8Array(out).set(new Uint8Array(data), GUARD_BYTES);
  return out;
}

/** Device size for a packed buffer of `sizeBytes`: guards on both sides, rounded to 16 B. */
export function deviceBufferSizeBytes(sizeBytes: number): number {
  return GUARD_BYTES + Math.ceil(sizeBytes / 16) * 16 + GUARD_BYTES;
}

/** Where a tensor's element [0,0,0,0] sits in its device buffer, in elements. */
export function deviceOffsetElements(t: TensorDesc): number {
  const bytes = GUARD_BYTES + t.offsetBytes;
  const ts = typeSizeBytes[t.type];
  if (bytes % ts) throw new Error(`tensor offset ${t.offsetBytes} B is not a multiple of its element size`);
  return bytes / ts;
}
