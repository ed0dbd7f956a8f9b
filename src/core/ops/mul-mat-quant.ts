// MUL_MAT with a quantized src0 (type0 = a weight format: ggml block types by ggml id, Track-1
// formats): ggml_mul_mat(W, x) where W [K, M] is stored packed (src/core/quant/weights.ts) and
// src1 [K, N] is f32 or f16 (ggml quantizes the weights, never src1). One batch, packed tensors.
// The oracle multiplies the *dequantized* weights in f64 (the format's exact semantics); the
// quantization error against the f32 weights they were made from is the formats command's
// column, not the check. Native: a GEMV template (N ≤ 8) and mul_mat.wgsl's tiling with SRC0_Q
// (mul-mat.ts), both decoding through the generated `wq()`; generated: the gemv and matmul families with the same
// decode in their src0 loads, and the sgmatrix family decoding each K tile into f16 workgroup memory (f16
// activations past N = 8 run there only: the contract, mul-mat.ts, declines them where it is missing).
import gemvWgsl from '../../../kernels/MUL_MAT/mul_mat_q_gemv.wgsl?raw';
import type { MatmulOperand } from '../families/matmul-wgsl';
import { uniformSchema } from '../codegen/uniforms';
import type { MatmulSnippet } from '../families/matmul';
import { deviceOffsetElements, gather, randomBuffer } from '../hostdata';
import { inputSeed } from '../inputs';
import { type KernelSpec, nativeTemplated, scalarLoader } from '../kernel';
import { benchmarkWeights, decodeWeightRows, shapeProblem, weightFormat, weightStoredBytes, weightWords, type WeightFormat } from '../quant/weights';
import { weightDecodeWgsl } from '../quant/weights-wgsl';
import { blockDecodeWgsl, hasBlockDecode, type BlockDecode } from '../quant/block-wgsl';
import { contiguous, elementStrides, nelements, typeSizeBytes, type DType, type TensorDesc } from '../tensor';
import { OpCaseError, type ByteCounts, type OpCase, type OracleResult } from './types';

/** A MUL_MAT case whose weights are a quantized format (type0 beyond f32/f16). */
export function isQuantMulMat(c: OpCase): boolean {
  return (c.params.type0 ?? 0) > 1;
}

const formatOf = (c: OpCase): WeightFormat => weightFormat(c.params.type0);

/** The quantized case: packed weights as u32 words, src1 [K, N] and dst [M, N] packed. */
export function quantMulMatCase(dims: readonly number[], layout: string, p: Readonly<Record<string, number>>, label: string, src1Type: DType): OpCase {
  const f = weightFormat(p.type0);
  if (layout !== 'contiguous') throw new OpCaseError(`MUL_MAT with quantized src0 (${f.name}) takes layout contiguous only (the packed weights have no views), got '${layout}'`);
  if (dims.length === 4 && dims[3] !== 1) throw new OpCaseError(`MUL_MAT with quantized src0 (${f.name}) takes one batch (MxNxK), got B = ${dims[3]}`);
  const [M, N, K] = dims;
  const why = shapeProblem(f, K);
  if (why) throw new OpCaseError(`MUL_MAT ${dims.join('x')}: ${why}`);
  const src0 = contiguous('i32', [weightWords(f, M, K)]);
  const src1 = contiguous(src1Type, [K, N]);
  const dst = contiguous('f32', [M, N]);
  return Object.freeze({ op: 'MUL_MAT', dims: Object.freeze([...dims]), layout, label, srcs: Object.freeze([src0, src1]), dst, inplace: false, params: p });
}

const mnk = (c: OpCase) => ({ M: c.dst.ne[0], N: c.dst.ne[1], K: c.srcs[1].ne[0] });

export function quantInputs(c: OpCase, seed: number): ArrayBuffer[] {
  const { M, K } = mnk(c);
  return [benchmarkWeights(formatOf(c), M, K, inputSeed(seed, 0)).words.buffer as ArrayBuffer, randomBuffer(c.srcs[1], inputSeed(seed, 1))];
}

/** Rows of weights the oracle decodes at a time (a slab of f32, reused). */
const ORACLE_SLAB_WEIGHTS = 1 << 20;

/**
 * dotOracle's answer (f64 sums, epsFloor = Σ|w·x| / √K) with the weights decoded a slab of rows at a
 * time from the packed words: a 16384² matrix never exists as f32 or f64 at once. With a sample,
 * only the rows it names are decoded.
 */
export function quantOracle(c: OpCase, srcs: readonly ArrayBuffer[], sample?: Int32Array): OracleResult {
  const { M, N, K } = mnk(c);
  const f = formatOf(c);
  const words = new Uint32Array(srcs[0]);
  const x = gather(c.srcs[1], srcs[1]); // [N][K]
  const count = sample ? sample.length : M * N;
  const ref = new Float64Array(count);
  const epsFloor = new Float64Array(count);
  const rootK = Math.sqrt(K);
  // Output slots per row m: every n (full), or the sample's positions whose element is in row m.
  const slotsOf = new Map<number, number[]>();
  sample?.forEach((e, s) => {
    const slots = slotsOf.get(e % M);
    if (slots) slots.push(s);
    else slotsOf.set(e % M, [s]);
  });
  const rowsNeeded = sample ? [...slotsOf.keys()].sort((a, b) => a - b) : null;
  const slab = Math.max(1, Math.floor(ORACLE_SLAB_WEIGHTS / K));
  const w = new Float32Array(slab * K);
  const one = (row: number, slot: number, n: number) => {
    let sum = 0;
    let mag = 0;
    const wb = row * K;
    const xb = n * K;
    for (let k = 0; k < K; k++) {
      const p = w[wb + k] * x[xb + k];
      sum += p;
      mag += Math.abs(p);
    }
    ref[slot] = sum;
    epsFloor[slot] = mag / rootK;
  };
  if (!rowsNeeded) {
    for (let r0 = 0; r0 < M; r0 += slab) {
      const r1 = Math.min(M, r0 + slab);
      decodeWeightRows(f, words, M, K, r0, r1, w);
      for (let m = r0; m < r1; m++) for (let n = 0; n < N; n++) one(m - r0, m + M * n, n);
    }
    return { ref, epsFloor, terms: K };
  }
  for (const m of rowsNeeded) {
    decodeWeightRows(f, words, M, K, m, m + 1, w);
    for (const s of slotsOf.get(m)!) one(0, s, Math.floor(sample![s] / M) % N);
  }
  return { ref, epsFloor, terms: K, indices: sample };
}

/** The weights as the format stores them, src1 and dst: what GB/s counts. */
export function quantBytes(c: OpCase): ByteCounts {
  const { M, K } = mnk(c);
  const t1 = c.srcs[1];
  return { readBytes: weightStoredBytes(formatOf(c), M, K) + nelements(t1) * typeSizeBytes[t1.type], writeBytes: nelements(c.dst) * 4 };
}

export function quantFeatures(c: OpCase): Readonly<Record<string, number>> {
  const { M, N, K } = mnk(c);
  return { M, N, K, batch: 1, type0: c.params.type0, type1: c.params.type1 ?? 0, f16: c.srcs[1].type === 'f16' ? 1 : 0, quant: 1 };
}

export function quantDecode(c: OpCase): string {
  const { M, K } = mnk(c);
  return weightDecodeWgsl(c.params.type0, M, K, deviceOffsetElements(c.srcs[0]));
}

/** The block-at-a-time decode (32 weights a call) where the format has one at this K, else null (one weight a call). */
export function quantBlocks(c: OpCase): BlockDecode | null {
  const { M, K } = mnk(c);
  return hasBlockDecode(c.params.type0, K) ? blockDecodeWgsl(c.params.type0, deviceOffsetElements(c.srcs[0]), 'src0', { rows: M, cols: K }) : null;
}

const UNIFORM = uniformSchema('Params', { M: 'u32', N: 'u32', K: 'u32', s11: 'u32', sd1: 'u32', off1: 'u32', offd: 'u32' });
const GEMV_ROWS = 4;
const GEMV_TPR = 64;

/** The GEMV template (N ≤ 8): block-at-a-time where the format has it at this K (every format when K % 32 == 0), one weight at a time otherwise; past N = 8 mul-mat.ts runs mul_mat.wgsl with SRC0_Q. */
export function quantNative(c: OpCase): KernelSpec {
  const { M, N, K } = mnk(c);
  const values = { M, N, K, s11: elementStrides(c.srcs[1])[1], sd1: elementStrides(c.dst)[1], off1: deviceOffsetElements(c.srcs[1]), offd: deviceOffsetElements(c.dst) };
  const wg = GEMV_ROWS * GEMV_TPR;
  const blocks = quantBlocks(c);
  const decode = blocks ? blocks.wgsl : quantDecode(c);
  const defines = { SRC1_F16: c.srcs[1].type === 'f16', LD1: scalarLoader('src1', 1, c.srcs[1].type === 'f16'), BLOCKS: blocks !== null, HAS_MIN: blocks?.hasMin ?? false, DECODE: decode, ROWS: GEMV_ROWS, TPR: GEMV_TPR, BLOCK: Math.min(formatOf(c).blockSize, 32), NCOLS: N, WG: wg, PART: wg * N };
  return nativeTemplated('MUL_MAT/mul_mat_q_gemv.wgsl', gemvWgsl, ['src0', 'src1', 'dst', 'params'], [Math.ceil(M / GEMV_ROWS), 1, 1], UNIFORM, values, defines);
}

function operand(t: TensorDesc): MatmulOperand {
  const st = elementStrides(t);
  return { offset: deviceOffsetElements(t), rowStride: st[1], batchStride2: st[2], batchStride3: st[3] };
}

/** The families' snippet: src0 addressed as logical weights (row stride K), read through `wq`. */
export function quantSnippet(c: OpCase): MatmulSnippet {
  const { M, N, K } = mnk(c);
  const blocks = quantBlocks(c);
  return {
    M, N, K, ne12: 1, ne13: 1, r2: 1, r3: 1, ne02: 1, ne03: 1,
    src0: { offset: 0, rowStride: K, batchStride2: M * K, batchStride3: M * K },
    src1: operand(c.srcs[1]),
    dst: operand(c.dst),
    type0: 'f32',
    type1: c.srcs[1].type === 'f16' ? 'f16' : 'f32',
    weights: quantDecode(c),
    ...(blocks ? { weightBlocks: blocks } : {}),
  };
}

/** The weight format's name, for reasons ('q4_0'). */
export function quantFormatName(c: OpCase): string {
  return formatOf(c).name;
}
