// OUT_PROD — ggml_out_prod(a = src0, b = src1): src0 [M, K, ne02, ne03], src1 [N, K, ne12, ne13]
// → dst [M, N, ne12, ne13] f32, dst[i0, i1, i2, i3] = Σ_k src0[i0, k, i2 / r2, i3 / r3] · src1[i1, k, i2, i3]
// with r2 = ne12/ne02, r3 = ne13/ne03 (src0 broadcast over src1's batches, as ggml's dps2/dps3).
// The sum runs over dim 1 of both: the backward of MUL_MAT (ggml_compute_backward) builds it as
// out_prod(src1, grad) and out_prod(src0, transpose(grad)). Like ggml (d99724f2): ne01 == ne11,
// src0 not transposed and its rows contiguous (nb00 == 4); src1 may have any strides.
import nativeWgsl from '../../../kernels/OUT_PROD/out_prod.wgsl?raw';
import { deviceOffsetElements, gather } from '../hostdata';
import { uniformSchema } from '../codegen/uniforms';
import { MATMUL, type MatmulSnippet } from '../families/matmul';
import { generatedPath } from '../families/types';
import { type KernelSpec, MAX_WORKGROUPS_PER_DIM, nativeTemplated } from '../kernel';
import { contiguous, elementStrides, isTransposed, nelements, permute, rowsContiguous, stridedRows, transpose, type TensorDesc } from '../tensor';
import { commonRejection } from './contract';
import { dotOracle } from './dot-oracle';
import { caseLabel, OpCaseError, parseParams, type OpCase, type OpDef, type OracleResult, eachElementOnce } from './types';

const LAYOUTS = [
  { name: 'contiguous', doc: "src0 [M, K, B] and src1 [N, K, B] packed (MUL_MAT's src0 gradient: out_prod(src1, grad))" },
  { name: 'src1-transposed', doc: "src1 = transpose of a packed [K, N, B] (MUL_MAT's src1 gradient: out_prod(src0, transpose(grad)))" },
  { name: 'batched-broadcast', doc: 'src1 has B batches (default 4), src0 B/2: ggml broadcasts src0 over them (r2 = 2)' },
  { name: 'src0-rows-strided', doc: 'src0 rows M + 3 elements apart, one element in (a view of a wider tensor)' },
  { name: 'src1-permuted', doc: 'src1 = permute(0,2,1,3) of a packed [N, B, K] (default B 2): k and batch strides swapped' },
] as const;

const DEFAULT_BATCHES: Readonly<Record<string, number>> = { 'batched-broadcast': 4, 'src1-permuted': 2 };

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
  if (dims.length < 3 || dims.length > 4) throw new OpCaseError(`OUT_PROD takes MxNxK or MxNxKxB (dst M x N, summed over K, B batches), got ${dims.length} dims`);
  parseParams('OUT_PROD', [], params);
  if (!LAYOUTS.some((l) => l.name === layout)) throw new OpCaseError(`OUT_PROD has no layout '${layout}' (layouts: ${LAYOUTS.map((l) => l.name).join(', ')})`);
  const [M, N, K] = dims;
  const B = dims[3] ?? DEFAULT_BATCHES[layout] ?? 1;
  if (B > MAX_WORKGROUPS_PER_DIM) throw new OpCaseError(`OUT_PROD: B = ${B} batches exceeds ${MAX_WORKGROUPS_PER_DIM} (one workgroup layer per batch along z)`);
  let src0 = contiguous('f32', [M, K, B]);
  let src1 = contiguous('f32', [N, K, B]);
  switch (layout) {
    case 'src1-transposed':
      src1 = transpose(contiguous('f32', [K, N, B]));
      break;
    case 'batched-broadcast':
      if (B % 2) throw new OpCaseError(`OUT_PROD batched-broadcast: B = ${B} must be even (src0 has B/2 batches, each shared by 2 of src1's)`);
      src0 = contiguous('f32', [M, K, B / 2]);
      break;
    case 'src0-rows-strided':
      src0 = stridedRows('f32', [M, K, B], M + 3, 1);
      break;
    case 'src1-permuted':
      src1 = permute(contiguous('f32', [N, B, K]), [0, 2, 1, 3]);
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

/** Element strides and offsets of both sources and dst, src0's broadcast ratios. */
const OUT_PROD_UNIFORMS = uniformSchema('Params', {
  M: 'u32', N: 'u32', K: 'u32', ne2: 'u32',
  r2: 'u32', r3: 'u32', s01: 'u32', s02: 'u32',
  s03: 'u32', s10: 'u32', s11: 'u32', s12: 'u32',
  s13: 'u32', sd1: 'u32', sd2: 'u32', sd3: 'u32',
  off0: 'u32', off1: 'u32', offd: 'u32',
});

function native(c: OpCase): KernelSpec {
  const [src0, src1] = c.srcs;
  const [, s01, s02, s03] = elementStrides(src0);
  const [s10, s11, s12, s13] = elementStrides(src1);
  const [, sd1, sd2, sd3] = elementStrides(c.dst);
  const [M, N, ne2, ne3] = c.dst.ne;
  const values = {
    M, N, K: src0.ne[1], ne2, r2: ne2 / src0.ne[2], r3: ne3 / src0.ne[3], s01, s02, s03, s10, s11, s12, s13, sd1, sd2, sd3,
    off0: deviceOffsetElements(src0), off1: deviceOffsetElements(src1), offd: deviceOffsetElements(c.dst),
  };
  // 64×64 tiles, one workgroup per tile and batch.
  const dispatch: [number, number, number] = [Math.ceil(M / 64), Math.ceil(N / 64), ne2 * ne3];
  return nativeTemplated('OUT_PROD/out_prod.wgsl', nativeWgsl, ['src0', 'src1', 'dst', 'params'], dispatch, OUT_PROD_UNIFORMS, values);
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
  shapeSyntax: 'MxNxK[xB]: dst M x N, summed over K, B batches',
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
  ],
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
