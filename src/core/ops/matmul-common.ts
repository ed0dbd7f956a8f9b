// What MUL_MAT and OUT_PROD share: their batch dims (ggml broadcasts src0 over src1's batches) and
// their native kernel — one hand-written 64×64 tile (kernels/matmul/tile.wgsl) into which each op's
// own WGSL puts its operand access, over the shared Tensor descriptors. Pure.
import tileWgsl from '../../../kernels/matmul/tile.wgsl?raw';
import { renderTemplate, type TemplateDefines } from '../codegen/template';
import { uniformSchema } from '../codegen/uniforms';
import { type KernelSpec, MAX_WORKGROUPS_PER_DIM, nativeTemplated } from '../kernel';
import { OpCaseError, type OpCase } from './types';

/** Names of MxNxK[xB[xB0]]'s dims, for errors. */
export const MATMUL_DIM_NAMES = ['M', 'N', 'K', 'B', 'B0'] as const;

/** A layout's batches when the shape gives none: B, and how many of src1's batches share one of src0's. */
export interface BatchDefaults {
  readonly batches?: number;
  readonly ratio?: number;
  /** false: src0 has src1's batches (B0 = B only). */
  readonly broadcast?: boolean;
}

/** The layouts both ops have: the plain one without broadcast, src0 shared by 2, src1's heads permuted. */
export const COMMON_BATCHES: Readonly<Record<string, BatchDefaults>> = {
  contiguous: { broadcast: false },
  'batched-broadcast': { batches: 4, ratio: 2 },
  'src1-permuted': { batches: 2 },
};

/**
 * MxNxK[xB[xB0]]: B batches of src1 and dst, B0 of src0 (B0 divides B: ggml's r2 = B/B0, src0
 * batch i2 / r2 serves src1 batch i2). Both go over workgroup z, which WebGPU caps.
 */
export function matmulBatches(op: string, dims: readonly number[], layout: string, d: BatchDefaults = {}): { B: number; B0: number } {
  const B = dims[3] ?? d.batches ?? 1;
  if (B > MAX_WORKGROUPS_PER_DIM) throw new OpCaseError(`${op}: B = ${B} batches exceeds ${MAX_WORKGROUPS_PER_DIM} (one workgroup layer per batch along z)`);
  const ratio = d.ratio ?? 1;
  if (dims[4] === undefined) {
    if (B % ratio) throw new OpCaseError(`${op} ${layout}: B = ${B} must be ${ratio === 2 ? 'even' : `a multiple of ${ratio}`} (src0 has B/${ratio} batches, each shared by ${ratio} of src1's)`);
    return { B, B0: B / ratio };
  }
  const B0 = dims[4];
  if (d.broadcast === false && B0 !== B) throw new OpCaseError(`${op} ${layout}: src0 has src1's B = ${B} batches here, got B0 = ${B0} (src0 broadcast over src1's batches is batched-broadcast)`);
  if (B % B0) throw new OpCaseError(`${op} ${layout}: B0 = ${B0} must divide B = ${B} (each of src0's batches is shared by B/B0 of src1's, as ggml broadcasts)`);
  return { B, B0 };
}

/** The native tile's uniforms: the three tensors' shared descriptors, nothing else. */
const TILE_PARAMS = uniformSchema('Params', { src0: 'tensor', src1: 'tensor', dst: 'tensor' });

/**
 * The native kernel of a batched product dst[m, n] = Σ_k A[m, k] · B[n, k] from the op's WGSL
 * (kernels/<op>/…: bindings, `k_len`, `load_a`, `load_b`, then {{TILE}}). `alongK`: the tile's
 * loading threads run along k (rows contiguous along K, MUL_MAT) instead of along m and n
 * (OUT_PROD's src0 is contiguous along m). 64×64 dst tiles, one workgroup per tile and batch.
 */
export function tileNative(file: string, source: string, c: OpCase, alongK: boolean, defines: TemplateDefines = {}): KernelSpec {
  const [M, N, ne2, ne3] = c.dst.ne;
  const dispatch: [number, number, number] = [Math.ceil(M / 64), Math.ceil(N / 64), ne2 * ne3];
  const TILE = renderTemplate(tileWgsl, { ALONG_K: alongK }, 'matmul/tile.wgsl');
  return nativeTemplated(file, source, ['src0', 'src1', 'dst', 'params'], dispatch, TILE_PARAMS, { src0: c.srcs[0], src1: c.srcs[1], dst: c.dst }, { ...defines, TILE });
}
