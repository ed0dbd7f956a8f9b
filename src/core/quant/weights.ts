// Weight formats as ops see them: every ggml block type the codec reads (Q4_0…Q8_0, MXFP4, the
// K-quants) and every Track-1 format, each with a numeric id (ggml's type id for ggml types, so
// `type0=2` still means Q4_0; 1000 + its index for Track-1) and one packed layout in u32 words:
//   ggml types: rows of blocks byte for byte as GGUF stores them, rows back to back (a row is
//               K/blockSize blocks), the whole zero-padded to a word;
//   Track-1:    the code stream (rows·cols codes, LSB-first), then the scale stream, then nvfp4's
//               global scale as f32 bits (one word; every format carries it, 1.0 elsewhere).
// The packer, the oracle (decodeWeights) and the WGSL decode (weights-wgsl.ts) read this layout.
import { QuantFormatError } from '../errors';
import { prng } from '../hostdata';
import { dequantize, quantize, type QuantizedMatrix } from './codec';
import { packedWords, unpackCode } from './bitpack';
import { ELEMENTS } from './element';
import { bitsPerWeight as track1Bits, QUANT_FORMATS } from './formats';
import { GGML_TYPES, ggmlDequantizeInto, ggmlQuantize, ggmlType } from './ggml';
import { GGML_K_TYPES, ggmlKDequantize, QK_K } from './ggml-k';
import { f16Encode } from './half';
import { f32FromBits, f32ToBits, SCALE_BITS, scaleDecode } from './scale';

export type WeightKind = 'ggml' | 'ggml-k' | 'track1';

export interface WeightFormat {
  /** What `--param type0=…`, labels and tables say: q4_0, q6_k, nvfp4, mxfp4_t1… */
  readonly name: string;
  readonly id: number;
  readonly kind: WeightKind;
  /** The codec's own name (Track-1's mxfp4 is listed as mxfp4_t1: ggml's MXFP4 keeps 'mxfp4'). */
  readonly codecName: string;
  readonly blockSize: number;
  /** ggml blocks: bytes per block. */
  readonly blockBytes?: number;
  /** A row may end in a partial block (Track-1's FP32/FP16-scaled formats). */
  readonly raggedTail: boolean;
  /** The lab can encode f32 weights into it (the K-quants are read-only: their quantizers are not ported). */
  readonly canEncode: boolean;
  readonly doc: string;
}

/** f32 and f16 keep ggml's ids 0 and 1 beside the formats (MUL_MAT's type0 enum lists all). */
export const PLAIN_TYPES = [
  { value: 0, name: 'f32' },
  { value: 1, name: 'f16' },
] as const;

const TRACK1_BASE_ID = 1000;

export const WEIGHT_FORMATS: readonly WeightFormat[] = Object.freeze([
  ...GGML_TYPES.map((t) => ({ name: t.name, id: t.ggmlTypeId, kind: 'ggml' as const, codecName: t.name, blockSize: t.blockSize, blockBytes: t.blockBytes, raggedTail: false, canEncode: true, doc: `ggml ${t.name.toUpperCase()} (${t.blockBytes} B per ${t.blockSize} weights)` })),
  ...GGML_K_TYPES.map((t) => ({ name: t.name, id: t.ggmlTypeId, kind: 'ggml-k' as const, codecName: t.name, blockSize: QK_K, blockBytes: t.blockBytes, raggedTail: false, canEncode: false, doc: `ggml ${t.name.toUpperCase()} super-blocks (${t.blockBytes} B per ${QK_K}); read-only: random valid blocks, no encoder` })),
  ...QUANT_FORMATS.map((f, i) => ({ name: f.name === 'mxfp4' ? 'mxfp4_t1' : f.name, id: TRACK1_BASE_ID + i, kind: 'track1' as const, codecName: f.name, blockSize: f.blockSize, raggedTail: f.raggedTail, canEncode: true, doc: `Track-1 ${f.element} block ${f.blockSize}, ${f.scale} scale` })),
].map((f) => Object.freeze(f)));

const BY_NAME = new Map(WEIGHT_FORMATS.map((f) => [f.name, f]));
const BY_ID = new Map(WEIGHT_FORMATS.map((f) => [f.id, f]));

export const knownWeightFormatNames = (): string => WEIGHT_FORMATS.map((f) => f.name).join(', ');

/** A format by name (case-insensitive) or id; unknown: a QuantFormatError listing the known ones. */
export function weightFormat(nameOrId: string | number): WeightFormat {
  const f = typeof nameOrId === 'number' ? BY_ID.get(nameOrId) : BY_NAME.get(nameOrId.toLowerCase());
  if (!f) throw new QuantFormatError(`unknown weight format ${typeof nameOrId === 'number' ? `id ${nameOrId}` : `'${nameOrId}'`} (known: ${knownWeightFormatNames()})`);
  return f;
}

export function isWeightFormatId(id: number): boolean {
  return BY_ID.has(id);
}

/** Every value a type param may take, by name: f32, f16, then the formats (enum ParamSpec values). */
export const TYPE_PARAM_VALUES: readonly { value: number; name: string; named?: boolean }[] = Object.freeze([...PLAIN_TYPES, ...WEIGHT_FORMATS.map((f) => ({ value: f.id, name: f.name, named: true }))]);

/** Stored bits per weight for whole blocks (nvfp4's per-tensor global not counted). */
export function weightBits(f: WeightFormat): number {
  if (f.kind === 'track1') return track1Bits(QUANT_FORMATS.find((q) => q.name === f.codecName)!);
  return (f.blockBytes! * 8) / f.blockSize;
}

/** Why a rows × cols matrix cannot be held (null when it can): ggml blocks and the fixed-block formats forbid ragged rows. */
export function shapeProblem(f: WeightFormat, cols: number): string | null {
  if (f.raggedTail || cols % f.blockSize === 0) return null;
  return `${f.name}: K = ${cols} is not a multiple of its block size ${f.blockSize}, and ${f.name} forbids a ragged tail block`;
}

function checkShape(f: WeightFormat, rows: number, cols: number): void {
  const why = shapeProblem(f, cols);
  if (why) throw new QuantFormatError(why);
  if (!Number.isInteger(rows) || rows < 1) throw new QuantFormatError(`${f.name}: rows must be a positive integer, got ${rows}`);
}

/** Words of the code stream (Track-1) or the block rows (ggml): where the scale stream starts. */
export function codeWords(f: WeightFormat, rows: number, cols: number): number {
  if (f.kind !== 'track1') return Math.ceil((rows * (cols / f.blockSize) * f.blockBytes!) / 4);
  return packedWords(rows * cols, ELEMENTS[QUANT_FORMATS.find((q) => q.name === f.codecName)!.element].bits);
}

function scaleWords(f: WeightFormat, rows: number, cols: number): number {
  const q = QUANT_FORMATS.find((x) => x.name === f.codecName)!;
  return packedWords(rows * Math.ceil(cols / q.blockSize), SCALE_BITS[q.scale]);
}

/** u32 words the packed matrix takes (its tensor's element count). */
export function weightWords(f: WeightFormat, rows: number, cols: number): number {
  checkShape(f, rows, cols);
  return f.kind === 'track1' ? codeWords(f, rows, cols) + scaleWords(f, rows, cols) + 1 : codeWords(f, rows, cols);
}

/** Bytes as stored by the format itself (what GB/s of weights counts; the word padding is not). */
export function weightStoredBytes(f: WeightFormat, rows: number, cols: number): number {
  if (f.kind !== 'track1') return rows * (cols / f.blockSize) * f.blockBytes!;
  const q = QUANT_FORMATS.find((x) => x.name === f.codecName)!;
  const codes = Math.ceil((rows * cols * ELEMENTS[q.element].bits) / 8);
  return codes + (rows * Math.ceil(cols / q.blockSize) * SCALE_BITS[q.scale]) / 8 + (q.scale === 'e4m3_fp32_global' ? 4 : 0);
}

/** The distribution benchmark weights are drawn from, as results state it. */
export const WEIGHT_DISTRIBUTION = 'seeded Gaussian σ = 0.02 (Box–Muller over mulberry32), 0.2% outliers ×10; matrices over 4M weights repeat their first ⌊4M/K⌋ rows';

/** rows × cols f32 weights from WEIGHT_DISTRIBUTION: heavy-tailed like trained weights, not uniform. */
export function realisticWeights(rows: number, cols: number, seed: number): Float32Array {
  const rnd = prng(seed);
  const out = new Float32Array(rows * cols);
  for (let i = 0; i < out.length; i++) {
    const g = Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
    out[i] = 0.02 * g * (rnd() < 0.002 ? 10 : 1);
  }
  return out;
}

/** The packed words of `weights` (rows × cols, row-major) in format f. */
export function encodeWeights(f: WeightFormat, weights: Float32Array, rows: number, cols: number): Uint32Array {
  checkShape(f, rows, cols);
  const out = new Uint32Array(weightWords(f, rows, cols));
  if (f.kind === 'ggml-k') throw new QuantFormatError(`${f.name}: the lab reads ${f.name} but has no encoder (ggml's iterative quantizer is not ported); use randomKBlocks`);
  if (f.kind === 'ggml') {
    const bytes = new Uint8Array(out.buffer);
    const rowBytes = (cols / f.blockSize) * f.blockBytes!;
    for (let r = 0; r < rows; r++) bytes.set(ggmlQuantize(f.codecName, weights.subarray(r * cols, (r + 1) * cols)), r * rowBytes);
    return out;
  }
  const q = quantize(f.codecName, weights, rows, cols);
  out.set(q.codes, 0);
  out.set(q.scales, q.codes.length);
  out[out.length - 1] = f32ToBits(q.globalScale);
  return out;
}

/** Random valid K-quant super-blocks: random codes and sub-scales, f16 super-scales sized like trained weights. */
export function randomKBlocks(f: WeightFormat, rows: number, cols: number, seed: number): Uint32Array {
  checkShape(f, rows, cols);
  const rnd = prng(seed);
  const out = new Uint32Array(weightWords(f, rows, cols));
  const bytes = new Uint8Array(out.buffer);
  const blocks = rows * (cols / QK_K);
  for (let i = 0; i < blocks * f.blockBytes!; i++) bytes[i] = Math.floor(rnd() * 256);
  const view = new DataView(out.buffer);
  for (let b = 0; b < blocks; b++) {
    const o = b * f.blockBytes!;
    // d, dmin ≈ 1e-3 so weights land near ±0.02·(a few σ); Q6_K keeps d at its end.
    const d = () => f16Encode(0.0005 + 0.001 * rnd());
    if (f.name === 'q6_k') view.setUint16(o + 208, d(), true);
    else {
      view.setUint16(o, d(), true);
      view.setUint16(o + 2, d(), true);
    }
  }
  return out;
}

/** The oracle's weights: what the packed words decode to, as f32 (the format's exact semantics). */
export function decodeWeights(f: WeightFormat, words: Uint32Array, rows: number, cols: number): Float32Array {
  if (f.kind === 'track1' && rows * cols <= POOL_WEIGHTS) {
    checkWords(f, words, rows, cols);
    return dequantize(track1Matrix(f, words, rows, cols));
  }
  return decodeWeightRows(f, words, rows, cols, 0, rows);
}

function checkWords(f: WeightFormat, words: Uint32Array, rows: number, cols: number): void {
  checkShape(f, rows, cols);
  if (words.length < weightWords(f, rows, cols)) throw new QuantFormatError(`${f.name}: ${words.length} words for ${rows} × ${cols}, expected ${weightWords(f, rows, cols)}`);
}

/** The Track-1 streams of the packed words as the codec's matrix (views, no copies). */
function track1Matrix(f: WeightFormat, words: Uint32Array, rows: number, cols: number): QuantizedMatrix {
  const cw = codeWords(f, rows, cols);
  const sw = scaleWords(f, rows, cols);
  return { format: f.codecName, rows, cols, codes: words.subarray(0, cw), scales: words.subarray(cw, cw + sw), globalScale: f32FromBits(words[cw + sw]) };
}

/**
 * Rows [r0, r1) of decodeWeights' matrix, (r1 − r0) · cols values: the oracles decode the rows
 * they need, a slab at a time, instead of a whole 16384² matrix (and its f64 copy) at once.
 */
export function decodeWeightRows(f: WeightFormat, words: Uint32Array, rows: number, cols: number, r0: number, r1: number, out = new Float32Array((r1 - r0) * cols)): Float32Array {
  checkWords(f, words, rows, cols);
  if (!(Number.isInteger(r0) && Number.isInteger(r1) && 0 <= r0 && r0 <= r1 && r1 <= rows)) throw new QuantFormatError(`${f.name}: rows [${r0}, ${r1}) outside 0…${rows}`);
  if (r0 === r1) return out;
  if (f.kind === 'track1') return dequantizeRows(track1Matrix(f, words, rows, cols), r0, r1, out);
  const rowBytes = (cols / f.blockSize) * f.blockBytes!;
  const bytes = new Uint8Array(words.buffer, words.byteOffset + r0 * rowBytes, (r1 - r0) * rowBytes);
  if (f.kind === 'ggml') ggmlDequantizeInto(ggmlType(f.codecName), bytes, (r1 - r0) * (cols / f.blockSize), out, 0);
  else out.set(ggmlKDequantize(f.codecName, bytes, (r1 - r0) * cols));
  return out;
}

/**
 * The codec's dequantize for large matrices, the same arithmetic (fround(e·s), nvfp4
 * fround((e·s)·g)) with the element decode looked up in a table: weights.test.ts pins it equal.
 */
export function dequantizeFast(q: QuantizedMatrix): Float32Array {
  return dequantizeRows(q, 0, q.rows, new Float32Array(q.rows * q.cols));
}

/** dequantizeFast of rows [r0, r1) into out (row r0 at 0). */
function dequantizeRows(q: QuantizedMatrix, r0: number, r1: number, out: Float32Array): Float32Array {
  const fmt = QUANT_FORMATS.find((x) => x.name === q.format)!;
  const el = ELEMENTS[fmt.element];
  const lut = elementTable(fmt.element);
  const nb = Math.ceil(q.cols / fmt.blockSize);
  const sBits = SCALE_BITS[fmt.scale];
  const global = fmt.scale === 'e4m3_fp32_global';
  const mask = (1 << el.bits) - 1;
  const base = r0 * q.cols;
  for (let r = r0; r < r1; r++) {
    for (let b = 0; b < nb; b++) {
      const s = scaleDecode(fmt.scale, unpackCode(q.scales, sBits, r * nb + b));
      const end = Math.min(q.cols, (b + 1) * fmt.blockSize);
      for (let c = b * fmt.blockSize; c < end; c++) {
        const i = r * q.cols + c;
        const bit = i * el.bits;
        const w = Math.floor(bit / 32);
        const sh = bit - w * 32;
        let v = q.codes[w] >>> sh;
        if (sh + el.bits > 32) v |= q.codes[w + 1] << (32 - sh);
        const e = lut[v & mask];
        out[i - base] = global ? e * s * q.globalScale : e * s;
      }
    }
  }
  return out;
}

const ELEMENT_TABLES = new Map<string, Float64Array>();
/** Every code's value of an element type, built once per type. */
function elementTable(name: keyof typeof ELEMENTS): Float64Array {
  let t = ELEMENT_TABLES.get(name);
  if (!t) {
    const el = ELEMENTS[name];
    t = Float64Array.from({ length: 1 << el.bits }, (_, c) => el.decode(c));
    ELEMENT_TABLES.set(name, t);
  }
  return t;
}

/**
 * Above this many weights a benchmark matrix repeats its first ⌊POOL_WEIGHTS / K⌋ rows (encoded
 * once) when its rows start on word boundaries: a 16384² matrix would otherwise take minutes of
 * host encoding. The repeated rows are the same seeded draw (and nvfp4's global scale, a max over
 * the tensor, is the same), so the error measured on them is the whole matrix's.
 */
export const POOL_WEIGHTS = 1 << 22;

/** Words per row of each stream when every row starts on a word boundary (null otherwise). */
function rowWords(f: WeightFormat, cols: number): { code: number; scale: number } | null {
  if (f.kind !== 'track1') {
    const bytes = (cols / f.blockSize) * f.blockBytes!;
    return bytes % 4 === 0 ? { code: bytes / 4, scale: 0 } : null;
  }
  const q = QUANT_FORMATS.find((x) => x.name === f.codecName)!;
  const codeBits = cols * ELEMENTS[q.element].bits;
  const scaleBits = Math.ceil(cols / q.blockSize) * SCALE_BITS[q.scale];
  return codeBits % 32 === 0 && scaleBits % 32 === 0 ? { code: codeBits / 32, scale: scaleBits / 32 } : null;
}

/** Rows of the pool a large matrix repeats (rows itself when it is small or its rows are not word-aligned). */
export function poolRows(f: WeightFormat, rows: number, cols: number): number {
  if (rows * cols <= POOL_WEIGHTS || !rowWords(f, cols)) return rows;
  return Math.max(1, Math.min(rows, Math.floor(POOL_WEIGHTS / cols)));
}

/**
 * The last pool encoded (format, rows, cols, seed → its words and f32 source): `lab formats` asks
 * for the same pool twice per format (the error column, then the device inputs) and the same f32
 * draw once per format; one entry each keeps a 16384² run from encoding anything twice.
 */
let lastSource: { key: string; source: Float32Array } | null = null;
let lastPool: { key: string; words: Uint32Array; source: Float32Array | null } | null = null;

function seededSource(rows: number, cols: number, seed: number): Float32Array {
  const key = `${rows}x${cols}@${seed}`;
  if (lastSource?.key !== key) lastSource = { key, source: realisticWeights(rows, cols, seed) };
  return lastSource.source;
}

function encodedPool(f: WeightFormat, pool: number, cols: number, seed: number): { words: Uint32Array; source: Float32Array | null } {
  const key = `${f.name}:${pool}x${cols}@${seed}`;
  if (lastPool?.key !== key) {
    const source = f.canEncode ? seededSource(pool, cols, seed) : null;
    lastPool = { key, words: source ? encodeWeights(f, source, pool, cols) : randomKBlocks(f, pool, cols, seed), source };
  }
  return lastPool;
}

/** Copies the first `n` words of `a` over a[at, at + len) repeatedly (doubling): a pool repeated without a per-row loop. */
function repeatWords(a: Uint32Array, n: number, at: number, len: number): void {
  let filled = Math.min(n, len);
  while (filled < len) {
    const take = Math.min(filled, len - filled);
    a.copyWithin(at + filled, at, at + take);
    filled += take;
  }
}

/**
 * The packed words a benchmark uses: realistic weights encoded, or random blocks where the lab has
 * no encoder. `words` is always a fresh buffer (callers may hand it to a device or a worker); the
 * f32 `source` is shared with the cache and must not be written.
 */
export function benchmarkWeights(f: WeightFormat, rows: number, cols: number, seed: number): { words: Uint32Array; source: Float32Array | null } {
  const pool = poolRows(f, rows, cols);
  const { words: poolWords, source } = encodedPool(f, pool, cols, seed);
  if (pool === rows) return { words: poolWords.slice(), source };
  const rw = rowWords(f, cols)!;
  const words = new Uint32Array(weightWords(f, rows, cols));
  const poolCode = rw.code * pool;
  // Row r is pool row r % pool in each stream: the pool's rows, then copies of them.
  words.set(poolWords.subarray(0, poolCode), 0);
  repeatWords(words, poolCode, 0, rw.code * rows);
  if (f.kind === 'track1') {
    const at = rw.code * rows;
    words.set(poolWords.subarray(poolCode, poolCode + rw.scale * pool), at);
    repeatWords(words, rw.scale * pool, at, rw.scale * rows);
    words[words.length - 1] = poolWords[poolWords.length - 1];
  }
  return { words, source };
}

export interface QuantError {
  /** ggml test-backend-ops' NMSE: Σ(x − y)² / Σx². */
  readonly nmse: number;
  /** max |x − y| / |x| over weights with |x| ≥ 1% of the largest (tiny weights would only measure underflow). */
  readonly maxRelError: number;
}

export function quantError(source: Float32Array, decoded: Float32Array): QuantError {
  let num = 0;
  let den = 0;
  let amax = 0;
  for (let i = 0; i < source.length; i++) amax = Math.max(amax, Math.abs(source[i]));
  let maxRel = 0;
  for (let i = 0; i < source.length; i++) {
    const d = source[i] - decoded[i];
    num += d * d;
    den += source[i] * source[i];
    if (Math.abs(source[i]) >= 0.01 * amax) maxRel = Math.max(maxRel, Math.abs(d) / Math.abs(source[i]));
  }
  return { nmse: den > 0 ? num / den : 0, maxRelError: maxRel };
}
