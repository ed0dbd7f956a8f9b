// MUL_MAT — ggml_mul_mat(a = src0, b = src1): src0 [K, M, ne02, ne03], src1 [K, N, ne12, ne13]
// → dst [M, N, ne12, ne13] f32, dst[m, n, i2, i3] = Σ_k src0[k, m, i2 / r2, i3 / r3] · src1[k, n, i2, i3]
// with r2 = ne12/ne02, r3 = ne13/ne03 (src0 broadcast over src1's batches). Like ggml, src0
// must not be transposed and the rows of both sources must be contiguous (nb00 == nb10 == the
// type size). src0 (weights) and src1 are f32 or f16 (params type0/type1, ggml's type ids);
// dst is f32, accumulated in f32.
import nativeWgsl from '../../../kernels/MUL_MAT/mul_mat.wgsl?raw';
import type { MatmulGeometry, MatmulOperand } from '../families/matmul-wgsl';
import { GEMV } from '../families/gemv';
import { MMVQ } from '../families/mmvq';
import { MATMUL, type MatmulSnippet } from '../families/matmul';
import { SGMATRIX, SGMATRIX_FEATURE, SGMATRIX_PLAIN, sgmatrixFits, type SgmatrixSchedule } from '../families/sgmatrix';
import { generatedPath } from '../families/types';
import type { DeviceLimits } from '../adapter';
import type { Schedule } from '../schedule/schedule';
import { deviceOffsetElements, gather } from '../hostdata';
import { type KernelSpec, scalarLoader } from '../kernel';
import { contiguous, elementStrides, isTransposed, permute, rowsContiguous, stridedRows, type DType, type TensorDesc } from '../tensor';
import { commonRejection } from './contract';
import { dotOracle } from './dot-oracle';
import { COMMON_BATCHES, MATMUL_DIM_NAMES, matmulBatches, tileNative, type BatchDefaults } from './matmul-common';
import { caseLabel, OpCaseError, paramsLabel, parseParams, type OpCase, type OpDef, type OracleResult, type ParamSpec, eachElementOnce } from './types';
import { randomBuffer } from '../hostdata';
import { inputSeed } from '../inputs';
import { isWeightFormatId, TYPE_PARAM_VALUES, weightFormat } from '../quant/weights';
import { isQuantMulMat, quantBytes, quantDecode, quantFeatures, quantFormatName, quantInputs, quantMulMatCase, quantNative, quantOracle, quantSnippet } from './mul-mat-quant';

/** ggml's type ids for the sources: GGML_TYPE_F32 = 0, GGML_TYPE_F16 = 1. */
const TYPE_VALUES = [
  { value: 0, name: 'f32' },
  { value: 1, name: 'f16' },
] as const;
const typeOf = (v: number): DType => (v === 1 ? 'f16' : 'f32');

const PARAMS_SPEC: readonly ParamSpec[] = [
  // Quantized weights by name or ggml id (type0=q4_0 or 2; Track-1 formats 1000+): mul-mat-quant.ts.
  { name: 'type0', type: 'enum', default: 0, values: TYPE_PARAM_VALUES, doc: "src0's type (the weights): f32, f16 or a weight format by name (q4_0, q6_k, nvfp4…) or ggml type id" },
  { name: 'type1', type: 'enum', default: 0, values: TYPE_VALUES, doc: "src1's element type (the activations): 0 f32, 1 f16" },
];

/** Up to this many src1 columns MUL_MAT is a GEMV-like product (decode): the gemv family's ground. */
export const SMALL_N = 8;

const LAYOUTS = [
  { name: 'contiguous', doc: 'src0 [K, M, B] and src1 [K, N, B] packed' },
  { name: 'batched-broadcast', doc: 'src1 has B batches (default 4), src0 B0 (default B/2): ggml broadcasts src0 over them (ne12/ne02 = B/B0; grouped K/V heads)' },
  { name: 'src0-rows-strided', doc: 'src0 is the middle third of each row of a packed [3K, M, B] tensor (a fused-QKV-style slice): rows 3K apart' },
  { name: 'src1-permuted', doc: "src1 = permute(0,2,1,3) of a packed [K, B, N] tensor, B default 2 (attention's K·Q): rows contiguous, row and batch strides swapped" },
  { name: 'src0-odd-stride', doc: 'src0 rows K+1 elements apart: rows not 16-byte aligned, so vec4 loads cannot take it' },
  {
    name: 'both-permuted',
    doc: "src0 = permute(0,2,1,3) of a packed [K, B0, M] and src1 of a packed [K, B, N], B default 2 (attention's K·Q: K and Q heads are views of token-major tensors; with B0 < B each K head serves B/B0 Q heads)",
  },
] as const;

/** Batches a layout uses when the shape gives none; the plain layout has no broadcast. */
const BATCHES: Readonly<Record<string, BatchDefaults>> = { ...COMMON_BATCHES, 'both-permuted': { batches: 2 } };

/** ggml_mul_mat's asserts, as reasons (empty when the operands are acceptable). */
export function operandProblems(src0: TensorDesc, src1: TensorDesc): string[] {
  const reasons: string[] = [];
  if (src0.ne[0] !== src1.ne[0]) reasons.push(`src0 and src1 rows differ in length (K = ${src0.ne[0]} vs ${src1.ne[0]})`);
  if (src1.ne[2] % src0.ne[2] || src1.ne[3] % src0.ne[3]) reasons.push(`src0 batches ${src0.ne[2]}x${src0.ne[3]} do not divide src1's ${src1.ne[2]}x${src1.ne[3]}`);
  if (isTransposed(src0)) reasons.push('src0 is transposed (ggml asserts !ggml_is_transposed(a))');
  if (!rowsContiguous(src0) || !rowsContiguous(src1)) reasons.push('rows of src0 and src1 must be contiguous (nb00 == nb10 == the type size)');
  for (const [name, t] of [['src0', src0.type], ['src1', src1.type]] as const) if (t !== 'f32' && t !== 'f16') reasons.push(`${name} is ${t}: MUL_MAT here takes f32 or f16 sources`);
  return reasons;
}

function makeCase(dims: readonly number[], layout: string = 'contiguous', params: Readonly<Record<string, number>> = {}): OpCase {
  if (dims.length < 3 || dims.length > 5) throw new OpCaseError(`MUL_MAT takes MxNxK or MxNxKxB (B batches), got ${dims.length} dims; MxNxKxBxB0 gives src0 B0 of them (ggml broadcasts src0 over src1's batches)`);
  dims.forEach((d, i) => {
    if (!Number.isSafeInteger(d) || d < 1) throw new OpCaseError(`MUL_MAT: dimension ${MATMUL_DIM_NAMES[i]} must be a positive integer, got ${d}`);
  });
  if (params.type1 !== undefined && isWeightFormatId(params.type1)) {
    throw new OpCaseError(`MUL_MAT: src1 cannot be quantized (type1 = ${weightFormat(params.type1).name}): ggml quantizes the weights (src0) only; src1 is f32 or f16`);
  }
  const p = parseParams('MUL_MAT', PARAMS_SPEC, params);
  const t0 = typeOf(p.type0);
  const t1 = typeOf(p.type1);
  if (!LAYOUTS.some((l) => l.name === layout)) throw new OpCaseError(`MUL_MAT has no layout '${layout}' (layouts: ${LAYOUTS.map((l) => l.name).join(', ')})`);
  if (p.type0 > 1) {
    if (dims.length > 4) throw new OpCaseError(`MUL_MAT with quantized src0 (${weightFormat(p.type0).name}) takes one batch (MxNxK), got ${dims.length} dims`);
    return quantMulMatCase(dims, layout, p, caseLabel(dims, layout, 'contiguous', paramsLabel(PARAMS_SPEC, p)), t1);
  }
  const [M, N, K] = dims;
  const { B, B0 } = matmulBatches('MUL_MAT', dims, layout, BATCHES[layout]);
  let src0 = contiguous(t0, [K, M, B0]);
  let src1 = contiguous(t1, [K, N, B]);
  switch (layout) {
    case 'src0-rows-strided':
      src0 = stridedRows(t0, [K, M, B0], 3 * K, K);
      break;
    case 'src1-permuted':
      src1 = permute(contiguous(t1, [K, B, N]), [0, 2, 1, 3]);
      break;
    case 'src0-odd-stride':
      src0 = stridedRows(t0, [K, M, B0], K + 1, 0);
      break;
    case 'both-permuted':
      src0 = permute(contiguous(t0, [K, B0, M]), [0, 2, 1, 3]);
      src1 = permute(contiguous(t1, [K, B, N]), [0, 2, 1, 3]);
      break;
  }
  const problems = operandProblems(src0, src1);
  if (problems.length) throw new OpCaseError(`MUL_MAT ${dims.join('x')} ${layout}: ${problems.join('; ')}`);
  const dst = contiguous('f32', [M, N, src1.ne[2], src1.ne[3]]);
  return Object.freeze({ op: 'MUL_MAT', dims: Object.freeze([...dims]), layout, label: caseLabel(dims, layout, 'contiguous', paramsLabel(PARAMS_SPEC, p)), srcs: Object.freeze([src0, src1]), dst, inplace: false, params: p });
}

/**
 * f64 dot products; epsFloor = Σ|a_k·b_k| / sqrt(K), so an element whose terms cancel is held
 * to the size of its terms. With `sample` only those dst elements are computed.
 */
function oracle(c: OpCase, srcs: readonly ArrayBuffer[], sample?: Int32Array): OracleResult {
  if (isQuantMulMat(c)) return quantOracle(c, srcs, sample);
  const [s0, s1] = c.srcs;
  // gather() packs each source in ggml order, so every row is K contiguous f64s.
  const K = s0.ne[0];
  return dotOracle(c.dst, K, [s0.ne[2], s0.ne[3]], gather(s0, srcs[0]), { row: K, k: 1 }, gather(s1, srcs[1]), { row: K, k: 1 }, sample);
}

/** The case as the generated path sees it: device offsets and element strides, plain numbers. */
function geometry(c: OpCase): MatmulGeometry {
  if (isQuantMulMat(c)) return { label: `MUL_MAT ${c.label}`, ...quantSnippet(c) };
  const [src0, src1] = c.srcs;
  const operand = (t: TensorDesc): MatmulOperand => {
    const st = elementStrides(t);
    return { offset: deviceOffsetElements(t), rowStride: st[1], batchStride2: st[2], batchStride3: st[3] };
  };
  return {
    label: `MUL_MAT ${c.label}`,
    M: c.dst.ne[0],
    N: c.dst.ne[1],
    K: src0.ne[0],
    ne12: src1.ne[2],
    ne13: src1.ne[3],
    r2: src1.ne[2] / src0.ne[2],
    r3: src1.ne[3] / src0.ne[3],
    src0: operand(src0),
    src1: operand(src1),
    dst: operand(c.dst),
  };
}

function native(c: OpCase): KernelSpec {
  if (isQuantMulMat(c) && c.dst.ne[1] <= SMALL_N) return quantNative(c);
  // f16 sources are read as u32 words and widened (unpack2x16float): no shader-f16 needed.
  const defines = { SRC0_Q: false, SRC0_F16: c.srcs[0].type === 'f16', SRC1_F16: c.srcs[1].type === 'f16', LD0: scalarLoader('src0', 0, c.srcs[0].type === 'f16'), LD1: scalarLoader('src1', 1, c.srcs[1].type === 'f16') };
  // Quantized weights past the gemv ground: the same tiling, src0 decoded while staged.
  const q: Record<string, string | boolean> = isQuantMulMat(c) ? { SRC0_Q: true, DECODE: quantDecode(c) } : {};
  return tileNative('MUL_MAT/mul_mat.wgsl', nativeWgsl, c, true, { ...defines, ...q });
}

/** MUL_MAT for the matmul family: the plain operand access, no epilogue. */
function snippet(c: OpCase): MatmulSnippet {
  if (isQuantMulMat(c)) return quantSnippet(c);
  const { label: _label, ...g } = geometry(c);
  return { ...g, ne02: c.srcs[0].ne[2], ne03: c.srcs[0].ne[3], type0: c.srcs[0].type, type1: c.srcs[1].type };
}

/** The families MUL_MAT's generated path takes: tiled f32, gemv (N ≤ 8), subgroup matrices (f16, and quantized weights decoded to f16), mmvq (quantized weights, N ≤ 8). */
const PATHS = [generatedPath(MATMUL, snippet), generatedPath(GEMV, snippet), generatedPath(SGMATRIX, snippet), generatedPath(MMVQ, snippet)];
const pathOf = (s: Schedule) => PATHS.find((p) => p.family === s.family);
const generated = {
  fits: (s: Schedule, c: OpCase, limits?: DeviceLimits): string[] => pathOf(s)?.fits(s, c, limits) ?? [`MUL_MAT takes a ${PATHS.map((p) => p.family).join(', ')} schedule, not ${s.family}`],
  generate: (s: Schedule, c: OpCase) => {
    const p = pathOf(s);
    if (!p) throw new OpCaseError(`MUL_MAT takes a ${PATHS.map((q) => q.family).join(', ')} schedule, not ${s.family}`);
    return p.generate(s, c);
  },
};

/** The smallest subgroup-matrix tile (16×8 outputs, K 16; K 32 for block-decoded weights): a case it cannot take, none can. */
const SMALLEST_SGMATRIX: SgmatrixSchedule = Object.freeze({ family: 'sgmatrix', config: '16x8x16', subgroupsM: 1, subgroupsN: 1, matricesM: 1, matricesN: 1, tileK: 16, subgroupSize: 32, staging: 'single', ...SGMATRIX_PLAIN });

/**
 * The contract: f16 operands past the small-N (gemv) ground — f16 sources, or f16 activations
 * beside quantized weights — need subgroup matrices (the tiled family reads f32 only), which need
 * shader-f16; without them the case is declined by name. Then the shared limits.
 */
function requireMulMat(c: OpCase, adapter: Parameters<OpDef['require']>[1]): ReturnType<OpDef['require']> {
  const quant = isQuantMulMat(c);
  const f16 = quant ? c.srcs[1].type === 'f16' : c.srcs.some((t) => t.type === 'f16');
  if (f16 && c.dst.ne[1] > SMALL_N) {
    const what = quant ? `${quantFormatName(c)} weights × f16 activations` : 'f16 MUL_MAT';
    const runs = quant ? 'run' : 'runs';
    if (!adapter.features.includes('shader-f16')) return { code: 'no-shader-f16', reason: `${what} with N = ${c.dst.ne[1]} > ${SMALL_N} ${runs} on subgroup matrices, which need 'shader-f16'; this adapter lacks it` };
    if (!adapter.features.includes(SGMATRIX_FEATURE)) return { code: 'no-subgroup-matrix', reason: `${what} with N = ${c.dst.ne[1]} > ${SMALL_N} ${runs} on subgroup matrices ('${SGMATRIX_FEATURE}'); this adapter lacks it` };
    const k = snippet(c);
    const why = sgmatrixFits(k.weightBlocks?.blockSize === 32 ? { ...SMALLEST_SGMATRIX, tileK: 32 } : SMALLEST_SGMATRIX, k);
    if (why.length) return { code: 'sgmatrix-unfit', reason: `${what} with N > ${SMALL_N} ${runs} on whole subgroup-matrix tiles: ${why.join('; ')}` };
  }
  return commonRejection(c, adapter);
}

export const MUL_MAT: OpDef = {
  name: 'MUL_MAT',
  // The bench's MUL_MAT case is its first matrix case (the lane's compute-bound shapes live in bench --only matmul).
  bench: { dims: [256, 128, 128] },
  summary: 'dst = src0ᵀ·src1 per batch, both K-contiguous, src0 broadcast over batches (ggml_mul_mat)',
  shapeSyntax: 'MxNxK[xB[xB0]]: B batches, B0 of them in src0 (broadcast)',
  layouts: LAYOUTS,
  params: PARAMS_SPEC,
  matrix: [
    // Modest sizes: SwiftShader (CI's adapter, a CPU) runs ~0.2 GFLOP/s.
    { dims: [256, 128, 128], layout: 'contiguous' },
    { dims: [255, 66, 150], layout: 'contiguous' },
    { dims: [129, 7, 33], layout: 'contiguous' },
    { dims: [1024, 1, 1024], layout: 'contiguous' },
    { dims: [96, 40, 64, 4], layout: 'batched-broadcast' },
    { dims: [256, 64, 128], layout: 'src0-rows-strided' },
    { dims: [128, 32, 64, 2], layout: 'src1-permuted' },
    { dims: [128, 64, 96], layout: 'src0-odd-stride' },
    // Attention's K·Q as the graph sends it: K and Q heads permuted views, 2 Q heads per K head.
    { dims: [96, 80, 16, 4, 2], layout: 'both-permuted' },
    // Decode: f16 weights × f32 activations (gemv on every adapter), and N > 8 f16 (subgroup
    // matrices where offered, a declared rejection elsewhere).
    { dims: [256, 4, 128], layout: 'contiguous', params: { type0: 1 } },
    { dims: [130, 3, 66], layout: 'src0-rows-strided', params: { type0: 1, type1: 1 } },
    { dims: [128, 64, 128], layout: 'contiguous', params: { type0: 1, type1: 1 } },
    // Quantized weights (mul-mat-quant.ts): gemv at odd N, the tiled GEMM past 8, a ragged Track-1 row.
    { dims: [64, 3, 64], layout: 'contiguous', params: { type0: weightFormat('q4_0').id } },
    { dims: [40, 1, 256], layout: 'contiguous', params: { type0: weightFormat('q4_k').id } },
    { dims: [66, 5, 70], layout: 'contiguous', params: { type0: weightFormat('int5').id } },
    { dims: [96, 24, 64], layout: 'contiguous', params: { type0: weightFormat('nvfp4').id } },
    { dims: [64, 9, 96], layout: 'contiguous', params: { type0: weightFormat('q8_0').id, type1: 1 } },
  ],
  // The sweep's default space is the tiled f32 family (972 candidates): it times the matrix's f32
  // shapes past N = 8 (the rules send N ≤ 8 to gemv, f16 and quantized weights to other families);
  // all 17 shapes would be 16 524 cells, over the stored sweep's cap of 8192.
  sweeps: (e) => !e.params && e.dims[1] > 8,
  makeCase,
  oracle,
  flops: (c) => 2 * c.dst.ne[0] * c.dst.ne[1] * c.srcs[1].ne[0] * c.dst.ne[2] * c.dst.ne[3],
  // src0 broadcast over batches is still read once: its unique elements.
  bytes: (c) => (isQuantMulMat(c) ? quantBytes(c) : eachElementOnce(c)),
  // Quantized weights come from the realistic generator through the codec; f32/f16 as every op's.
  inputs: (c, seed) => (isQuantMulMat(c) ? quantInputs(c, seed) : c.srcs.map((t, i) => randomBuffer(t, inputSeed(seed, i)))),
  // type0/type1: ggml type ids (0 f32, 1 f16); f16: 1 when either source is f16 (rules say "f16 operands").
  features: (c) => isQuantMulMat(c) ? quantFeatures(c) : ({ M: c.dst.ne[0], N: c.dst.ne[1], K: c.srcs[0].ne[0], batch: c.dst.ne[2] * c.dst.ne[3], type0: c.params.type0 ?? 0, type1: c.params.type1 ?? 0, f16: c.srcs.some((t) => t.type === 'f16') ? 1 : 0 }),
  native,
  family: 'matmul',
  moreFamilies: ['gemv', 'sgmatrix', 'mmvq'],
  // The generated path takes every case makeCase builds (vec4 limits are fits(), not the contract).
  // Every layout ggml allows is taken; only the shared limits (binding size, u32 indices) decline.
  require: requireMulMat,
  fits: generated.fits,
  generate: generated.generate,
};
