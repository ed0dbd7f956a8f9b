// The matmul family: dst[m, n] = Σ_k A[m, k]·B[n, k] per batch, tiled through workgroup memory.
// An op gives operand access — offsets, row and batch strides of A (src0) and B (src1), the
// broadcast of A over B's batches (r2, r3) — and an optional epilogue over `acc`. MUL_MAT is
// the plain snippet; OUT_PROD and others reuse it with their own access. The WGSL builder is
// matmul-wgsl.ts (with the schedule type, so the two do not import each other).
import { generateMatmul, matmulFits, matmulPadFloats, matmulStoreBlocks, splitKScratch, type MatmulGeometry, type MatmulSchedule } from './matmul-wgsl';
import { f, renameIdents } from '../codegen/wgsl';
import { scheduleKey, type FamilyDef } from './types';

export type { MatmulSchedule } from './matmul-wgsl';

export interface MatmulSnippet extends Omit<MatmulGeometry, 'label'> {
  /** src0's own batch counts (ne02, ne03): vec4 alignment is checked over them. */
  readonly ne02: number;
  readonly ne03: number;
  /** Element types of src0 and src1 (f32 when absent): this family reads f32 only. */
  readonly type0?: 'f32' | 'f16' | 'i32';
  readonly type1?: 'f32' | 'f16' | 'i32';
  /** f32 constants the epilogue names, baked as literals. */
  readonly constants?: Readonly<Record<string, number>>;
}

/** The epilogue with its constants substituted (the builder takes one expression). */
function geometry(k: MatmulSnippet, label: string): MatmulGeometry {
  let epilogue = k.epilogue;
  for (const [name, v] of Object.entries(k.constants ?? {})) epilogue = epilogue && renameIdents(epilogue, [name], () => f(v));
  return { ...k, label, ...(epilogue ? { epilogue } : {}) };
}

export const MATMUL: FamilyDef<MatmulSchedule, MatmulSnippet> = {
  name: 'matmul',
  doc: 'tiled A·Bᵀ per batch: workgroup tiles of tileM×tileN outputs, K staged tileK at a time, threadM×threadN per thread',
  space: {
    tileM: { values: [32, 64, 128, 256], sweep: [32, 64, 128], doc: 'output tile along M per workgroup (256 swept on request: H200 4096³ 256×128 tiles lost to 128×128, matmul-tune.sh f32d–f32h)' },
    tileN: { values: [32, 64, 128, 256], sweep: [32, 64, 128], doc: 'output tile along N per workgroup (256 swept on request: H200 4096³ 128×256 tiles lost to 128×128 K8 8×8, 42.4–43.9 against 45.2, matmul-tune.sh f32d–f32i)' },
    tileK: { values: [8, 16, 32], doc: 'K slice staged in workgroup memory' },
    threadM: { values: [4, 8], doc: 'register block along M per thread' },
    threadN: { values: [4, 8, 16], doc: 'register block along N per thread' },
    vectorWidth: { values: [1, 4], doc: 'vec4 loads along K and vec4 accumulators along M' },
    staging: { values: ['single', 'prefetch', 'double'], doc: 'K-tile staging: single buffer, register prefetch, or double-buffered workgroup memory', default: 'single' },
    splitK: {
      values: [1, 2, 4],
      sweep: [1],
      doc: 'K split inside the workgroup: groups of threads multiply parts of each K tile, summed through workgroup memory at the end (swept on request: it lost at every H200 shape tried)',
      default: 1,
    },
    padding: {
      values: ['none', 'vec4'],
      sweep: ['none'],
      doc: 'workgroup memory: 16 bytes of padding after each staged k row, so the transposing staging stores land on distinct banks (swept on request: alone it lost at both H200 shapes tried; with inner pipelined it won at 4096x512x4096)',
      default: 'none',
    },
    inner: {
      values: ['loop', 'unrolled', 'pipelined', 'pipelined4'],
      sweep: ['loop'],
      doc: "the inner loop over a K tile: a WGSL loop, written out at constant offsets ('unrolled'), written out with the next k's fragments loaded before this k's FMAs ('pipelined'), or a loop over groups of 4 k each written out pipelined ('pipelined4': a quarter of the code); swept on request ('pipelined' won at both H200 shapes tried: docs/benchmarks.md, f32b)",
      default: 'loop',
    },
    stores: {
      values: ['scalar', 'vec4'],
      sweep: ['scalar'],
      doc: "staging stores into workgroup memory: 4 scalar stores per vec4 load ('scalar'), or 4×4 blocks a thread transposed in registers and written as 4 vec4 stores ('vec4': needs whole blocks a thread); swept on request (H200 2026-12-02, f32c: vec4 lost, 37.7–37.9 against 41.3 TFLOP/s at 4096³)",
      default: 'scalar',
    },
  },
  threads: (s) => (s.tileM / s.threadM) * (s.tileN / s.threadN) * (s.splitK ?? 1),
  workgroupBytes: (s) => (s.tileM + s.tileN + 2 * matmulPadFloats(s)) * s.tileK * 4 * (s.staging === 'double' ? 2 : 1) + splitKScratch(s).bytes,
  threadsText: (s) => `(tileM/threadM)·(tileN/threadN)·splitK = ${(s.tileM / s.threadM) * (s.tileN / s.threadN) * (s.splitK ?? 1)} threads`,
  validate(s, { limits }) {
    const reasons: string[] = [];
    const vw = s.vectorWidth;
    if (s.tileM % s.threadM) reasons.push(`tileM ${s.tileM} is not a multiple of threadM ${s.threadM}`);
    if (s.tileN % s.threadN) reasons.push(`tileN ${s.tileN} is not a multiple of threadN ${s.threadN}`);
    if (vw === 2) reasons.push('vectorWidth 2 is not offered for matmul (1 or 4)');
    if (vw === 4 && s.threadM % 4) reasons.push(`vectorWidth 4 needs threadM a multiple of 4, got ${s.threadM}`);
    if (vw === 4 && s.tileK % 4) reasons.push(`vectorWidth 4 needs tileK a multiple of 4, got ${s.tileK}`);
    const tx = s.tileM / s.threadM;
    if (tx > limits.maxComputeWorkgroupSizeX) reasons.push(`tileM/threadM = ${tx} exceeds maxComputeWorkgroupSizeX ${limits.maxComputeWorkgroupSizeX}`);
    const ty = s.tileN / s.threadN;
    if (ty > limits.maxComputeWorkgroupSizeY) reasons.push(`tileN/threadN = ${ty} exceeds maxComputeWorkgroupSizeY ${limits.maxComputeWorkgroupSizeY}`);
    const sk = s.splitK ?? 1;
    if (s.tileK % sk) reasons.push(`tileK ${s.tileK} is not a multiple of splitK ${sk}`);
    if (s.threadM * s.threadN > 128) reasons.push(`threadM·threadN = ${s.threadM * s.threadN} accumulators per thread exceeds 128 (registers spill)`);
    if (s.inner === 'pipelined4' && (s.tileK / sk) % 4) reasons.push(`inner pipelined4 needs tileK/splitK a multiple of 4, got ${s.tileK / sk}`);
    reasons.push(...matmulStoreBlocks(s));
    return reasons;
  },
  fits: (s, k) => [
    ...[['src0', k.type0], ['src1', k.type1]].filter(([, t]) => t && t !== 'f32').map(([name, t]) => `the tiled matmul reads f32 operands, ${name} is ${t}`),
    ...matmulFits(s, geometry(k, ''), k.ne02, k.ne03),
  ],
  generate(s, k, c) {
    const g = generateMatmul(s, geometry(k, `${c.op} ${c.label}`));
    return { label: `generated:${c.op} ${scheduleKey(s)}`, wgsl: g.wgsl, entryPoint: 'main', bindings: g.bindings, dispatch: g.dispatch };
  },
};
