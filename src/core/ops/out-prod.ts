// OUT_PROD — ggml_out_prod(a = src0, b = src1): src0 [M, K, ne02, ne03], src1 [N, K, ne12, ne13]
// → dst [M, N, ne12, ne13] f32, dst[i0, i1, i2, i3] = Σ_k src0[i0, k, i2 / r2, i3 / r3] · src1[i1, k, i2, i3]
// with r2 = ne12/ne02, r3 = ne13/ne03 (src0 broadcast over src1's batches, as ggml's dps2/dps3).
// The sum runs over dim 1 of both: the backward of MUL_MAT (ggml_compute_backward) builds it as
// out_prod(src1, grad) and out_prod(src0, transpose(grad)). Like ggml (d99724f2): ne01 == ne11,
// src0 not transposed and its rows contiguous (nb00 == 4); src1 may have any strides.
import nativeWgsl from '../../../kernels/OUT_PROD/out_prod.wgsl?raw';
import { deviceOffsetElements, gather } from '../hostdata';
import { MATMUL, type MatmulSnippet } from '../families/matmul';
import { generatedPath } from '../families/types';
import type { KernelSpec } from '../kernel';
import { contiguous, elementStrides, isTransposed, nelements, permute, rowsContiguous, stridedRows, transpose, type TensorDesc } from '../tensor';
import { commonRejection } from './contract';
import { dotOracle } from './dot-oracle';
import { COMMON_BATCHES, MATMUL_DIM_NAMES, matmulBatches, tileNative, type BatchDefaults } from './matmul-common';
import { caseLabel, OpCaseError, parseParams, type OpCase, type OpDef, type OracleResult, eachElementOnce } from './types';

const LAYOUTS = [
  { name: 'contiguous', doc: "src0 [M, K, B] and src1 [N, K, B] packed (MUL_MAT's src0 gradient: out_prod(src1, grad))" },
  { name: 'src1-transposed', doc: "src1 = transpose of a packed [K, N, B] (MUL_MAT's src1 gradient: out_prod(src0, transpose(grad)))" },
  { name: 'batched-broadcast', doc: 'src1 has B batches (default 4), src0 B0 (default B/2): ggml broadcasts src0 over them (r2 = B/B0)' },
  { name: 'src0-rows-strided', doc: 'src0 rows M + 3 elements apart, one element in (a view of a wider tensor)' },
  { name: 'src1-permuted', doc: 'src1 = permute(0,2,1,3) of a packed [N, B, K] (default B 2): k and batch strides swapped' },
  // The backward of attention's K·Q (both-permuted MUL_MAT) sends these three, B0 < B with grouped K heads.
  { name: 'src0-permuted', doc: "src0 = permute(0,2,1,3) of a packed [M, B0, K] (default B 2): Q's head-major view, as K's gradient out_prod(Q, grad) reads it" },
  { name: 'src0-permuted-src1-transposed', doc: "src0 as src0-permuted, src1 = transpose of a packed [K, N, B]: Q's gradient out_prod(K, transpose(grad))" },
  { name: 'src1-permuted-transposed', doc: "src1 = transpose(permute(0,2,1,3)) of a packed [K, B, N] (default B 2): rows N apart by K·B, k contiguous, batches K apart" },
] as const;

/** Batches a layout uses when the shape gives none; the plain layout has no broadcast. */
const BATCHES: Readonly<Record<string, BatchDefaults>> = {
  ...COMMON_BATCHES,
  'src0-permuted': { batches: 2 },
  'src0-permuted-src1-transposed': { batches: 2 },
  'src1-permuted-transposed': { batches: 2 },
};

/** ggml_out_prod's and its CPU kernel's asserts, as reasons (empty when the operands are acceptable). */
export function outProdProblems(src0: TensorDesc, src1: TensorDesc): string[] {
  const reasons: string[] = [];
  if (src0.ne[1] !== src1.ne[1]) reasons.push(`src0 and src1 differ in dim 1 (K = ${src0.ne[1]} vs ${src1.ne[1]}; ggml_can_out_prod)`);
  if (src1.ne[2] % src0.ne[2] || src1.ne[3] % src0.ne[3]) reasons.push(`src0 batches ${src0.ne[2]}x${src0.ne[3]} do not divide src1's ${src1.ne[2]}x${src1.ne[3]}`);
  if (isTransposed(src0)) reasons.push('src0 is transposed (ggml asserts !ggml_is_transposed(a))');
  if (!rowsContiguous(src0)) reasons.push(`src0 rows are not contiguous (ggml asserts nb00 == sizeof(float)), nb0 = ${src0.nb[0]} B`);
  return reasons;
}

function makeCase(dims: readonly number[], layout: string = 'contiguous', params: Readonly<Record<string, number>> = {}): OpCase {
  if (dims.length < 3 || dims.length > 5) throw new OpCaseError(`OUT_PROD takes MxNxK or MxNxKxB (dst M x N, summed over K, B batches), got ${dims.length} dims; MxNxKxBxB0 gives src0 B0 of them (ggml broadcasts src0 over src1's batches)`);
  dims.forEach((d, i) => {
    if (!Number.isSafeInteger(d) || d < 1) throw new OpCaseError(`OUT_PROD: dimension ${MATMUL_DIM_NAMES[i]} must be a positive integer, got ${d}`);
  });
  parseParams('OUT_PROD', [], params);
  if (!LAYOUTS.some((l) => l.name === layout)) throw new OpCaseError(`OUT_PROD has no layout '${layout}' (layouts: ${LAYOUTS.map((l) => l.name).join(', ')})`);
  const [M, N, K] = dims;
  const { B, B0 } = matmulBatches('OUT_PROD', dims, layout, BATCHES[layout]);
  let src0 = contiguous('f32', [M, K, B0]);
  let src1 = contiguous('f32', [N, K, B]);
  const src0Permuted = () => permute(contiguous('f32', [M, B0, K]), [0, 2, 1, 3]);
  switch (layout) {
    case 'src1-transposed':
      src1 = transpose(contiguous('f32', [K, N, B]));
      break;
    case 'src0-rows-strided':
      src0 = stridedRows('f32', [M, K, B0], M + 3, 1);
      break;
    case 'src1-permuted':
      src1 = permute(contiguous('f32', [N, B, K]), [0, 2, 1, 3]);
      break;
    case 'src0-permuted':
      src0 = src0Permuted();
      break;
    case 'src0-permuted-src1-transposed':
      src0 = src0Permuted();
      src1 = transpose(contiguous('f32', [K, N, B]));
      break;
    case 'src1-permuted-transposed':
      // packed [K, B, N] → [K, N, B] → [N, K, B]: src1[n, k, b] at k + b·K + n·K·B
      src1 = transpose(permute(contiguous('f32', [K, B, N]), [0, 2, 1, 3]));
      break;
  }
  const problems = outProdProblems(src0, src1);
  if (problems.length) throw new OpCaseError(`OUT_PROD ${dims.join('x')} ${layout}: ${problems.join('; ')}`);
  const dst = contiguous('f32', [M, N, src1.ne[2], src1.ne[3]]);
  return Object.freeze({ op: 'OUT_PROD', dims: Object.freeze([...dims]), layout, label: caseLabel(dims, layout, 'contiguous'), srcs: Object.freeze([src0, src1]), dst, inplace: false, params: Object.freeze({}) });
}

/** f64 sums over k (gathered sources: src0 packed [M, K, …], src1 [N, K, …]); epsFloor as MUL_MAT's. */
function oracle(c: OpCase, srcs: readonly ArrayBuffer[], sample?: Int32Array): OracleResult {
  const [s0, s1] = c.srcs;
  return dotOracle(c.dst, s0.ne[1], [s0.ne[2], s0.ne[3]], gather(s0, srcs[0]), { row: 1, k: s0.ne[0] }, gather(s1, srcs[1]), { row: 1, k: s1.ne[0] }, sample);
}

/** The shared tile with its loads along i0 and i1 (src0 is contiguous along i0). */
function native(c: OpCase): KernelSpec {
  return tileNative('OUT_PROD/out_prod.wgsl', nativeWgsl, c, false);
}

/**
 * The matmul family with OUT_PROD's operand access: A[m, k] = src0[m + k·nb01] (rows along m,
 * K strided) and B[n, k] = src1[n·nb10 + k·nb11], any strides.
 */
function snippet(c: OpCase): MatmulSnippet {
  const [src0, src1] = c.srcs;
  const [, s01, s02, s03] = elementStrides(src0);
  const [s10, s11, s12, s13] = elementStrides(src1);
  const [, sd1, sd2, sd3] = elementStrides(c.dst);
  const [M, N, ne12, ne13] = c.dst.ne;
  return {
    M, N, K: src0.ne[1], ne12, ne13, r2: ne12 / src0.ne[2], r3: ne13 / src0.ne[3], ne02: src0.ne[2], ne03: src0.ne[3],
    src0: { offset: deviceOffsetElements(src0), rowStride: 1, kStride: s01, batchStride2: s02, batchStride3: s03 },
    src1: { offset: deviceOffsetElements(src1), rowStride: s10, kStride: s11, batchStride2: s12, batchStride3: s13 },
    dst: { offset: deviceOffsetElements(c.dst), rowStride: sd1, batchStride2: sd2, batchStride3: sd3 },
  };
}

const generated = generatedPath(MATMUL, snippet);

export const OUT_PROD: OpDef = {
  name: 'OUT_PROD',
  bench: { dims: [4096, 4096, 512] },
  summary: 'dst[i0, i1] = Σ_k src0[i0, k] · src1[i1, k] per batch, src0 broadcast over batches (ggml_out_prod)',
  shapeSyntax: 'MxNxK[xB[xB0]]: dst M x N, summed over K, B batches (B0 of them in src0: broadcast)',
  layouts: LAYOUTS,
  params: [],
  matrix: [
    // Small: SwiftShader (CI's adapter, a CPU shared with other jobs) ran the first matrix's lane in 150 s.
    { dims: [128, 96, 48], layout: 'contiguous' },
    { dims: [67, 33, 21], layout: 'contiguous' },
    { dims: [100, 48, 25], layout: 'src1-transposed' },
    { dims: [48, 40, 24, 4], layout: 'batched-broadcast' },
    { dims: [66, 32, 20], layout: 'src0-rows-strided' },
    { dims: [64, 33, 24, 2], layout: 'src1-permuted' },
    // The backward of attention's K·Q as the graph sends it (grouped heads: B0 = B/2).
    { dims: [16, 72, 40, 4, 2], layout: 'src0-permuted' },
    { dims: [16, 72, 40, 4, 2], layout: 'src0-permuted-src1-transposed' },
    { dims: [72, 40, 16, 4, 2], layout: 'src1-permuted-transposed' },
  ],
  // 972 tiled-family candidates × 9 shapes = 8748 cells, over the stored sweep's cap of 8192: the
  // default sweep leaves out the layout that only combines two others it times.
  sweeps: (e) => e.layout !== 'src0-permuted-src1-transposed',
  makeCase,
  oracle,
  flops: (c) => 2 * nelements(c.dst) * c.srcs[0].ne[1],
  bytes: eachElementOnce,
  features: (c) => ({ M: c.dst.ne[0], N: c.dst.ne[1], K: c.srcs[0].ne[1], batch: c.dst.ne[2] * c.dst.ne[3] }),
  native,
  family: generated.family,
  // Every layout ggml allows is taken; only the shared limits (binding size, u32 indices) decline.
  require: (c, adapter) => commonRejection(c, adapter),
  fits: generated.fits,
  generate: generated.generate,
};
