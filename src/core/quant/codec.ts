// The Track-1 codec: a rows × cols f32 matrix ↔ packed codes + block scales. One source of truth
// for the host packer and the CPU oracle (the WGSL decode is generated from the same tables).
//
// Scale choice per block (amax = max |x| over the block):
//   fp32 / fp16: s = amax / maxFinite, stored (fp16: rounded to nearest even, subnormals kept);
//                elements are encoded against the stored s, so decode·encode agree.
//   e8m0:        s = 2^(floor(log2 amax) − emax_elem) clamped to 2^±127 (OCP MX v1.0 §6.3);
//                elements saturate to ±maxFinite. An all-zero block stores 2^-127.
//   nvfp4:       global g = amax_tensor / (6·448) in FP32; block scale E4M3(amax_block / (6·g));
//                elements against s = E4M3·g (NVIDIA's NVFP4 recipe, TensorRT Model Optimizer).
// Elements round to nearest even and saturate to ±maxFinite (ints symmetric: ±(2^(N-1)−1)).
// NaN/Inf weights are refused with a QuantFormatError: no Track-1 block encoding can carry them
// without poisoning the scale (OCP MX would make the whole block NaN), so the lab never encodes them.
import { QuantFormatError } from '../errors';
import { packCodes, packedWords, unpackCode } from './bitpack';
import { ELEMENTS } from './element';
import { f16Decode, f16Encode } from './half';
import { elementOf, quantFormat, type QuantFormat } from './formats';
import { floorLog2 } from './rne';
import { e8m0FromExponent, SCALE_BITS, scaleDecode, f32ToBits } from './scale';

export interface QuantizedMatrix {
  readonly format: string;
  readonly rows: number;
  readonly cols: number;
  /** rows·cols element codes, row-major, one LSB-first stream. */
  readonly codes: Uint32Array;
  /** rows·blocksPerRow scale codes, LSB-first at the scale kind's width (32, 16 or 8 bits). */
  readonly scales: Uint32Array;
  /** nvfp4's tensor-wide FP32 global (1 for every other format). */
  readonly globalScale: number;
}

export function blocksPerRow(f: QuantFormat, cols: number): number {
  return Math.ceil(cols / f.blockSize);
}

/** Bytes as stored: the code stream, the scales, and nvfp4's 4-byte global. */
export function storedBytes(f: QuantFormat, rows: number, cols: number): number {
  const codeBytes = Math.ceil((rows * cols * ELEMENTS[f.element].bits) / 8);
  const scaleBytes = (rows * blocksPerRow(f, cols) * SCALE_BITS[f.scale]) / 8;
  return codeBytes + scaleBytes + (f.scale === 'e4m3_fp32_global' ? 4 : 0);
}

export function checkShape(f: QuantFormat, rows: number, cols: number): void {
  for (const [what, n] of [['rows', rows], ['cols', cols]] as const) {
    if (!Number.isInteger(n) || n < 1) throw new QuantFormatError(`${f.name}: ${what} must be a positive integer, got ${n}`);
  }
  if (!f.raggedTail && cols % f.blockSize !== 0) {
    throw new QuantFormatError(`${f.name}: a row of ${cols} is not a multiple of its block size ${f.blockSize}, and ${f.name} forbids a ragged tail block`);
  }
}

export function quantize(formatName: string, weights: ArrayLike<number>, rows: number, cols: number): QuantizedMatrix {
  const f = quantFormat(formatName);
  checkShape(f, rows, cols);
  if (weights.length !== rows * cols) throw new QuantFormatError(`${f.name}: ${weights.length} weights given for ${rows} × ${cols}`);
  const el = elementOf(f);
  let tensorAmax = 0;
  for (let i = 0; i < weights.length; i++) {
    const x = weights[i];
    if (!Number.isFinite(x)) {
      throw new QuantFormatError(`${f.name}: weight [${Math.floor(i / cols)}, ${i % cols}] is ${x}; ${f.name} cannot encode NaN/Inf (a block scale would become NaN), so the encoder refuses it`);
    }
    tensorAmax = Math.max(tensorAmax, Math.abs(x));
  }
  const globalScale = f.scale === 'e4m3_fp32_global' && tensorAmax > 0 ? Math.fround(tensorAmax / (6 * ELEMENTS.e4m3.maxFinite)) : 1;
  const nb = blocksPerRow(f, cols);
  const codes = new Uint32Array(rows * cols);
  const scaleCodes = new Uint32Array(rows * nb);
  for (let r = 0; r < rows; r++) {
    for (let b = 0; b < nb; b++) {
      const start = r * cols + b * f.blockSize;
      const end = r * cols + Math.min(cols, (b + 1) * f.blockSize);
      let amax = 0;
      for (let i = start; i < end; i++) amax = Math.max(amax, Math.abs(weights[i]));
      const { code, scale } = blockScale(f, amax, globalScale, r, b);
      scaleCodes[r * nb + b] = code;
      for (let i = start; i < end; i++) {
        const q = scale === 0 ? 0 : Math.min(el.maxFinite, Math.max(-el.maxFinite, weights[i] / scale));
        codes[i] = el.encode(q);
      }
    }
  }
  return {
    format: f.name,
    rows,
    cols,
    codes: packCodes(codes, el.bits),
    scales: packCodes(scaleCodes, SCALE_BITS[f.scale]),
    globalScale,
  };
}

/** The stored code of one block's scale and the multiplier its elements are encoded against. */
function blockScale(f: QuantFormat, amax: number, globalScale: number, row: number, block: number): { code: number; scale: number } {
  const el = elementOf(f);
  switch (f.scale) {
    case 'fp32': {
      const scale = Math.fround(amax / el.maxFinite);
      return { code: f32ToBits(scale), scale };
    }
    case 'fp16': {
      const code = f16Encode(amax / el.maxFinite);
      const scale = f16Decode(code);
      if (!Number.isFinite(scale)) {
        throw new QuantFormatError(`${f.name}: block ${block} of row ${row} needs scale ${amax / el.maxFinite}, beyond FP16's max 65504`);
      }
      return { code, scale };
    }
    case 'e8m0': {
      const code = amax === 0 ? e8m0FromExponent(-127) : e8m0FromExponent(floorLog2(amax) - el.emax);
      return { code, scale: scaleDecode('e8m0', code) };
    }
    case 'e4m3_fp32_global': {
      const code = ELEMENTS.e4m3.encode(amax / (6 * globalScale));
      return { code, scale: ELEMENTS.e4m3.decode(code) * globalScale };
    }
  }
}

/** Weight [row, col] as the format stores it, rounded to f32 as a kernel computes it. */
export function dequantizeAt(q: QuantizedMatrix, f: QuantFormat, row: number, col: number): number {
  const el = elementOf(f);
  const nb = blocksPerRow(f, q.cols);
  const e = el.decode(unpackCode(q.codes, el.bits, row * q.cols + col));
  const s = scaleDecode(f.scale, unpackCode(q.scales, SCALE_BITS[f.scale], row * nb + Math.floor(col / f.blockSize)));
  // e·s is exact in f64 for every format here; nvfp4 then multiplies by the global: one f32 rounding.
  return Math.fround(f.scale === 'e4m3_fp32_global' ? e * s * q.globalScale : e * s);
}

export function dequantize(q: QuantizedMatrix): Float32Array {
  const f = quantFormat(q.format);
  checkShape(f, q.rows, q.cols);
  const el = elementOf(f);
  if (q.codes.length !== packedWords(q.rows * q.cols, el.bits)) throw new QuantFormatError(`${f.name}: code stream has ${q.codes.length} words, expected ${packedWords(q.rows * q.cols, el.bits)}`);
  const out = new Float32Array(q.rows * q.cols);
  for (let r = 0; r < q.rows; r++) for (let c = 0; c < q.cols; c++) out[r * q.cols + c] = dequantizeAt(q, f, r, c);
  return out;
}
