// The sgmatrix family: MUL_MAT on Chromium/Dawn's `chromium-experimental-subgroup-matrix`
// (tensor cores where the driver maps them), f16 operands, f32 accumulation (the f16→f32 configs
// M×N×K 16x16x16, 16x8x16, 16x8x8). A workgroup of subgroupsM×subgroupsN subgroups owns a
// tile of (subgroupsM·matricesM·cfgM) × (subgroupsN·matricesN·cfgN) outputs; each subgroup holds
// matricesM×matricesN result matrices. K goes through workgroup memory tileK at a time as f16:
// f16 sources are copied, f32 sources are rounded to f16 on the way (the kernel then says so in
// `inputRounding`, and its bound uses f16's eps). Quantized weights (the snippet's `weights` /
// `weightBlocks`: src0 is u32 words) are decoded on the way: a 32-weight block per thread for ggml's
// block types (raw words loaded with the tile, wq_unpack at the store), four weights a load through
// wq4 otherwise; rounded to f16 like f32 sources. Results are stored straight to dst (f32).
// Whole tiles only: fits() names the dimension that is not a multiple. Pure string building.
import type { DType } from '../tensor';
import { MAX_WORKGROUPS_PER_DIM } from '../kernel';
import { batchBase, MATMUL_BINDINGS, weightLoads, type MatmulOperand } from './matmul-wgsl';
import { computeMain, storageDecl, u } from '../codegen/wgsl';
import type { GemvSnippet } from './gemv';
import { scheduleKey, type FamilyDef } from './types';

export interface SgmatrixSchedule {
  readonly family: 'sgmatrix';
  /** The subgroup-matrix shape M×N×K (f16 in, f32 accumulate). */
  readonly config: '16x16x16' | '16x8x16' | '16x8x8';
  readonly subgroupsM: number;
  readonly subgroupsN: number;
  /** Result matrices per subgroup along M and N. */
  readonly matricesM: number;
  readonly matricesN: number;
  /** K staged in workgroup memory per step. */
  readonly tileK: number;
  /** Threads per subgroup the workgroup is sized for (the device's subgroup size; subgroups past the tile stay idle when it is smaller). */
  readonly subgroupSize: number;
  /**
   * How K tiles reach workgroup memory: 'single' loads, stores, multiplies; 'prefetch' issues the
   * next tile's global loads into registers before multiplying the current one; 'double' also
   * stores them into a second buffer while the first is read (one barrier per tile, twice the
   * workgroup memory; the K loop unrolled by two so every buffer offset is a constant — with the
   * buffer picked by `(k0 / tileK) & 1` the H200 ran 2.2× slower than prefetch). 'direct' stages nothing that is f16: each subgroup loads its matrices
   * straight from the storage buffer (the cache, not workgroup memory, shares rows between
   * subgroups; no barrier for them); f32 operands are still staged (prefetched) as f16.
   * 'prefetch2': prefetch with two register sets, the K loop unrolled by two: the next tile's loads
   * go out at the top of the iteration, before this tile's stores (which wait for loads issued an
   * iteration earlier), so a load has a whole iteration to land, not just the multiply; twice the
   * staging registers, the workgroup memory of prefetch.
   * 'deep': two register sets as prefetch2, but each refilled right after its own stores (after the barrier
   * that follows them): tile t + 2's loads go out while tile t is multiplied, so a load has two iterations to
   * land, not one (prefetch2's set sits unused for an iteration between its stores and its next loads).
   * Twice prefetch's staging registers and its workgroup memory: on the H200 more than 24 KiB of workgroup
   * memory a workgroup halves the workgroups an SM (probe26), so this is how deeper staging fits.
   */
  readonly staging: 'single' | 'prefetch' | 'double' | 'direct' | 'prefetch2' | 'deep';
  /**
   * The order of an f16 operand's 16-bit stores into workgroup memory. 'plain': every lane stores
   * the same word of its 16-byte chunk, and 16-byte-aligned rows put a warp's 32 lanes on 8 banks
   * (4-way conflicts on every store). 'rotated': lane of row r starts at word r % 4 of its chunk
   * (the loaded vec4 rotated by two selects), so the 32 lanes of 8 rows × 4 chunks hit 32 banks.
   * 'matrix': no 16-bit stores at all — each subgroup copies whole cfg-sized matrices of the tile,
   * subgroupMatrixLoad from the buffer and subgroupMatrixStore into workgroup memory (the driver's
   * own wide stores); f32 operands keep the vector path (they are rounded on the way).
   * 'spread': plain stores, but the lanes of a quarter-warp take rows r and r + 4 of a block of 8
   * (not r and r + 1): with 80-byte rows their 16-byte chunks then fall on 32 distinct banks, so a
   * thread's eight stores, where the driver merges them into one 16-byte store, take 4 wavefronts a
   * warp, not 8. Rows of 2 chunks (f16, tileK 16; 48-byte rows): a quarter-warp takes the even rows
   * r, r + 2, r + 4, r + 6 of a block of 8 (the other quarter the odd ones), whose chunks fall on 8
   * distinct 16-byte bank groups (plain's r … r + 3 share one). Elsewhere the same as plain.
   * 'swapped': spread's rows (plain's where spread is plain), and a lane on an odd row stores the upper
   * 8 bytes of its 16-byte chunk first. The H200's driver merges a thread's eight 16-bit stores into
   * two 8-byte stores (STS.64 in its machine code, not STS.128), and a half-warp's 16 lanes then cover
   * only the 8 lower (or upper) halves of 8 chunk slots: 2-way conflicts in either order. With odd rows
   * swapped, each half-warp's 8-byte stores fall on 16 distinct 8-byte slots, every f16 tileK. Measured
   * and lost on the H200 (gemm18–19: 717–727 µs against spread's 560 at 4096³ f16): with a per-lane offset
   * the driver no longer merges the 16-bit stores at all (STS.U16 in its machine code, 8 a chunk), so the
   * conflict it removes costs less than the merging it breaks. Kept to be measured elsewhere; never swept.
   */
  readonly storeOrder: 'plain' | 'rotated' | 'matrix' | 'spread' | 'swapped';
  /**
   * The workgroup order (CUTLASS's threadblock swizzle, for L2 reuse): consecutive workgroups walk
   * `groupM` tiles along M, then the next tile along N, band after band of groupM tile-rows. 1: the
   * dispatch order (all of M, then the next tile along N) — the same as any groupM ≥ M's tiles.
   */
  readonly groupM: number;
  /** Workgroup-memory row padding past tileK: '16B' (8 f16), 'none', '32B' (16 f16). Rows stay 16-byte aligned. */
  readonly rowPad: 'none' | '16B' | '32B';
  /** The multiply's K steps (tileK / the config's K): a loop, or written out with constant offsets. */
  readonly kSteps: 'loop' | 'unrolled';
  /**
   * Where `prefetch` issues the next tile's global loads: 'top' before the multiply; 'mma' inside its
   * first K step, after that step's first matrix loads (more registers live, the loads overlap MMAs).
   * 'mma' needs kSteps 'unrolled'. 'early': right after this tile's staging stores, before the barrier
   * (the registers are free once stored), so the barrier's wait also covers the loads' latency.
   * 'interleaved': one load (each under its own K guard) after each group of MMAs that shares a right
   * matrix, spread over the written-out K steps, so no burst of loads stalls a warp's issue ahead of its
   * multiply (needs kSteps 'unrolled').
   */
  readonly prefetchAt: 'top' | 'mma' | 'early' | 'interleaved';
  /**
   * Staging stores' workgroup index: 'plain' `o + e`; 'clamped' `min(o, length − span) + e` (never
   * below o, so the same stores), meant to prove robustness's clamp of every store away as the
   * multiply's loads do. On the H200 it ran 1.6× slower (gemm5): the plain index, built from
   * local_invocation_index by + · / % of constants, is apparently proven in range already (adjacent
   * 16-bit stores merged), and the min() is what brings a clamp back.
   */
  readonly storeIndex: 'plain' | 'clamped';
  /**
   * K split inside the workgroup (absent: 1). splitK groups of subgroupsM×subgroupsN subgroups share one
   * output tile: every thread helps stage each K tile, and group g multiplies the g-th tileK/splitK of
   * its K steps into accumulators of its own (interleaved K slices, one staged tile for all groups, so
   * the staging memory and the barriers per tile stay as they were and each thread loads 1/splitK as
   * much). At the end the groups' partial sums meet in workgroup memory (`sgmatrixScratch`): each
   * subgroup stores a round of its matrices, and all threads add the splitK partials element-wise and
   * store them to dst. More warps per tile (latency hidden) without a shorter grid.
   */
  readonly splitK?: number;
  /**
   * The result matrices (absent: 'mn'). 'mn': left matrices from sA (rows of M), right from sB; each result matrix
   * is m×n, stored column-major into dst, so a lane's two adjacent values are a dst row apart: 32-bit stores
   * (the driver's 128 STG.32 a thread at 4×4 matrices). 'nm': the product computed as Bᵀ·Aᵀ — left matrices from
   * sB, right from sA — so each result matrix is n×m, stored row-major: a lane's two values are adjacent, 64-bit
   * stores, half the store instructions. Square configs (16x16x16) only; not with 'direct' staging or splitK.
   */
  readonly resultOrder?: 'mn' | 'nm';
  /**
   * How 'prefetch' (and 'direct') staging skips the load past the last tile (absent: 'branch'):
   * 'branch' issues the next tile's loads under `if (k0 + tileK < K)`; 'clamped' issues them always,
   * from tile min(k0 + tileK, K − tileK) — the last iteration reloads its own tile, unused — so no
   * branch closes behind the loads (where a driver may wait for them) before the multiply; 'peeled'
   * issues them always in a loop over every tile but the last, which is multiplied after the loop.
   */
  readonly prefetchGuard?: 'branch' | 'clamped' | 'peeled';
  /**
   * Co-resident pairs (absent: 1, the dispatch order): workgroups w and w + pairStride take two tiles stacked
   * along M, which read the same src1 columns (`pairedOrigin`). If the hardware runs them on one SM at once, the
   * second's src1 loads hit that SM's L1 rather than L2. 132 is the H200's SM count (its first round may put w
   * and w + 132 on one SM). Not with groupM.
   */
  readonly pairStride?: number;
  /**
   * Persistent workgroups (absent: 0, one workgroup a tile): the dispatch launches this many, and workgroup w
   * multiplies tiles w, w + persistent, … in turn. A tile's last K step prefetches the next tile's first K tile,
   * so its loads are in flight while the result is stored (with a workgroup a tile, every round starts with
   * loads that nothing overlaps and ends with stores). Prefetch staging only; one batch; groupM and pairStride off.
   */
  readonly persistent?: number;
}

/** The values of the knobs added after storeOrder that mean what schedules did before them. */
export const SGMATRIX_PLAIN = Object.freeze({ storeOrder: 'plain', groupM: 1, rowPad: '16B', kSteps: 'loop', prefetchAt: 'top', storeIndex: 'plain' } as const);

export const SGMATRIX_FEATURE = 'chromium-experimental-subgroup-matrix';
/** Workgroup-memory row padding in f16 elements: spreads rows over banks. */
const PAD = { none: 0, '16B': 8, '32B': 16 } as const;
const padOf = (s: SgmatrixSchedule) => PAD[s.rowPad];
const splitOf = (s: SgmatrixSchedule) => s.splitK ?? 1;
/** The reduction scratch's budget in bytes: the splitK partials of one round of matrices (as many a subgroup as fit). */
const SCRATCH_BUDGET = 16384;

function cfg(s: SgmatrixSchedule): { cm: number; cn: number; ck: number } {
  const [cm, cn, ck] = s.config.split('x').map(Number);
  return { cm, cn, ck };
}

/** Which operands go through workgroup memory: all of them, or under 'direct' only f32 ones (rounded to f16 there). */
export function sgmatrixStaged(s: SgmatrixSchedule, t0: DType = 'f16', t1: DType = 'f16'): { a: boolean; b: boolean } {
  return s.staging === 'direct' ? { a: t0 !== 'f16', b: t1 !== 'f16' } : { a: true, b: true };
}

export function sgmatrixTile(s: SgmatrixSchedule): { BM: number; BN: number; threads: number } {
  const { cm, cn } = cfg(s);
  return { BM: s.subgroupsM * s.matricesM * cm, BN: s.subgroupsN * s.matricesN * cn, threads: s.subgroupsM * s.subgroupsN * splitOf(s) * s.subgroupSize };
}

/**
 * splitK's reduction through workgroup memory (f32, none at splitK 1): rounds of `perRound` result
 * matrices a subgroup — the largest divisor of matricesM·matricesN whose splitK partials fit
 * SCRATCH_BUDGET (at least one). A round's scratch is splitK slabs of subgroupsM·subgroupsN·perRound
 * matrices; matrix r of subgroup l of K group g at ((g·nsg + l)·perRound + r)·cm·cn, column-major.
 */
export function sgmatrixScratch(s: SgmatrixSchedule): { perRound: number; rounds: number; floats: number; bytes: number } {
  const sk = splitOf(s);
  if (sk <= 1) return { perRound: 0, rounds: 0, floats: 0, bytes: 0 };
  const { cm, cn } = cfg(s);
  const mats = s.matricesM * s.matricesN;
  const slab = (r: number) => sk * s.subgroupsM * s.subgroupsN * r * cm * cn;
  let perRound = 1;
  for (let r = 2; r <= mats; r++) if (mats % r === 0 && slab(r) * 4 <= SCRATCH_BUDGET) perRound = r;
  return { perRound, rounds: mats / perRound, floats: slab(perRound), bytes: slab(perRound) * 4 };
}

/** Elements one global load carries: 8 f16 (vec4<u32>) or 4 f32 (vec4<f32>). */
const perLoad = (t: DType) => (t === 'f16' ? 8 : 4);

/** Weights decoded a 32-weight block per thread (wq_raw/wq_unpack); other block decoders go through wq4 like any format. */
const blockWeights = (k: GemvSnippet) => k.weightBlocks?.blockSize === 32;

export function sgmatrixFits(s: SgmatrixSchedule, k: GemvSnippet): string[] {
  const reasons: string[] = [];
  const { BM, BN } = sgmatrixTile(s);
  const t0 = k.type0 ?? 'f32';
  const t1 = k.type1 ?? 'f32';
  for (const [name, t] of [['src0', t0], ['src1', t1]] as const) if (t !== 'f32' && t !== 'f16') reasons.push(`sgmatrix reads f32 or f16 ${name}, not ${t}`);
  if (k.M % BM) reasons.push(`M = ${k.M} is not a multiple of the tile's ${BM} (subgroupsM·matricesM·${cfg(s).cm})`);
  if (k.N % BN) reasons.push(`N = ${k.N} is not a multiple of the tile's ${BN} (subgroupsN·matricesN·${cfg(s).cn})`);
  if (k.K % s.tileK) reasons.push(`K = ${k.K} is not a multiple of tileK ${s.tileK}`);
  // Quantized weights: a thread decodes whole 32-weight blocks into the tile (ggml's block types), so a
  // tile holds whole blocks. Other formats (K-quants' 256-weight superblocks, Track-1) decode four
  // weights a load and take any tileK; a ragged tail block never meets a whole tile (K % tileK above).
  if (blockWeights(k) && s.tileK % 32) reasons.push(`block weights are decoded a whole 32-weight block at a time: tileK ${s.tileK} must be a multiple of 32`);
  const aligned = (name: string, o: MatmulOperand, t: DType, rows: number, ne2: number, ne3: number) => {
    const q = perLoad(t);
    const ok = o.offset % q === 0 && (rows === 1 || o.rowStride % q === 0) && (ne2 === 1 || o.batchStride2 % q === 0) && (ne3 === 1 || o.batchStride3 % q === 0);
    if (!ok) reasons.push(`sgmatrix loads ${q} ${t} at a time: ${name}'s rows must start on ${q}-element boundaries (offset ${o.offset}, row stride ${o.rowStride})`);
  };
  // Quantized weights are addressed by their decode (wq_raw, wq4), never as vectors of src0.
  if (!k.weights) aligned('src0', k.src0, t0, k.M, k.ne02, k.ne03);
  aligned('src1', k.src1, t1, k.N, k.ne12, k.ne13);
  if (k.epilogue) reasons.push('sgmatrix takes no epilogue');
  if ((s.persistent ?? 0) > 0 && (k.ne12 * k.ne13 > 1 || k.weights)) reasons.push(`persistent ${s.persistent} walks the tiles of one matrix product with f16 or f32 operands: not ${k.weights ? 'quantized weights' : `${k.ne12 * k.ne13} batches`}`);
  if ((s.pairStride ?? 1) > 1 && (k.M / BM) % 2) reasons.push(`pairStride ${s.pairStride} pairs tiles stacked along M: M = ${k.M} needs an even count of ${BM}-row tiles (it has ${k.M / BM})`);
  if (k.M / BM > MAX_WORKGROUPS_PER_DIM || k.N / BN > MAX_WORKGROUPS_PER_DIM) reasons.push(`the tile needs more than ${MAX_WORKGROUPS_PER_DIM} workgroups along x or y`);
  return reasons;
}

/**
 * The `let m0`/`let n0` of a workgroup: its tile in dispatch order (wid.x along M, wid.y along N), or
 * under groupM G the linear id (x fastest) walked in bands of G tile-rows: G tiles along M, then the
 * next tile along N; the last band holds the TM % G rows left. tm·TN + tn is a bijection either way.
 */
export function tileOrigin(G: number, TM: number, TN: number, BM: number, BN: number, P = 1): string[] {
  if (P > 1) return pairedOrigin(P, TM, TN, BM, BN);
  if (G <= 1 || G >= TM || TN === 1) return [`let m0 = wid.x * ${u(BM)};`, `let n0 = wid.y * ${u(BN)};`];
  // Rows in this band: G, except in a short last band (TM % G of them).
  const rows = TM % G ? `min(${u(G)}, ${u(TM)} - band * ${u(G)})` : u(G);
  return [
    `let lin = wid.x + wid.y * ${u(TM)};`,
    `let band = lin / ${u(G * TN)};`,
    `let inBand = lin % ${u(G * TN)};`,
    `let bandRows = ${rows};`,
    `let m0 = (band * ${u(G)} + inBand % bandRows) * ${u(BM)};`,
    `let n0 = (inBand / bandRows) * ${u(BN)};`,
  ];
}

/**
 * pairStride P: workgroups w and w + P of each block of 2P linear ids (x fastest) take the tiles (2i, n) and
 * (2i + 1, n), which read the same src1 columns; pairs walk M first. Where the hardware runs w and w + P on one
 * SM at once (if its first round hands out one workgroup an SM before the second), the later of the two finds
 * its src1 tile in that SM's L1. The short last block (R of the TM·TN ids) pairs w with w + R/2. P = 1 is the
 * dispatch order itself (neighbours share src1 there already). Needs an even count of M tiles; a bijection.
 */
export function pairedOrigin(P: number, TM: number, TN: number, BM: number, BN: number): string[] {
  const T = TM * TN;
  const full = Math.floor(T / (2 * P));
  const R = T - full * 2 * P;
  // The pair p of this workgroup, and which of its two tiles (h).
  const pair =
    R === 0
      ? [`let h = (lin % ${u(2 * P)}) / ${u(P)};`, `let p = (lin / ${u(2 * P)}) * ${u(P)} + lin % ${u(P)};`]
      : full === 0
        ? [`let h = lin / ${u(R / 2)};`, `let p = lin % ${u(R / 2)};`]
        : [
            `let inFull = lin < ${u(full * 2 * P)};`,
            `let r = select(lin - ${u(full * 2 * P)}, lin % ${u(2 * P)}, inFull);`,
            `let q = select(${u(R / 2)}, ${u(P)}, inFull);`,
            `let h = r / q;`,
            `let p = select(${u(full * P)}, (lin / ${u(2 * P)}) * ${u(P)}, inFull) + r % q;`,
          ];
  return [`let lin = wid.x + wid.y * ${u(TM)};`, ...pair, `let m0 = ((p % ${u(TM / 2)}) * 2u + h) * ${u(BM)};`, `let n0 = (p / ${u(TM / 2)}) * ${u(BN)};`];
}

export function generateSgmatrix(s: SgmatrixSchedule, k: GemvSnippet, label: string): { wgsl: string; dispatch: [number, number, number]; rounds: boolean; quant: 'block' | 'weight' | null } {
  const { cm, cn, ck } = cfg(s);
  const { BM, BN, threads } = sgmatrixTile(s);
  const BK = s.tileK;
  const LD = BK + padOf(s); // workgroup-memory row length (f16)
  const t0 = k.type0 ?? 'f32';
  const t1 = k.type1 ?? 'f32';
  const batched = k.ne12 * k.ne13 > 1;
  const base = (o: MatmulOperand, r2: number, r3: number) => batchBase(k, o, r2, r3);
  const left = `subgroup_matrix_left<f16, ${ck}, ${cm}>`;
  const right = `subgroup_matrix_right<f16, ${cn}, ${ck}>`;
  const result = `subgroup_matrix_result<f32, ${cn}, ${cm}>`;
  const staged = sgmatrixStaged(s, t0, t1);
  // Quantized weights (src0 u32 words; the snippet's src0 is the logical f32 matrix): decoded a block at a time where
  // the format has a block decoder, else four weights per unit through wq4; either way rounded to f16 in sA.
  const quant = blockWeights(k) ? 'block' : k.weights ? 'weight' : null;
  const weightRead = weightLoads(k.weights, true);
  // A direct operand is read by subgroupMatrixLoad itself: an array of f16.
  // So is an f16 operand copied matrix by matrix ('matrix' store order).
  const byMatrix = s.storeOrder === 'matrix';
  const elem = (t: DType, st: boolean) => (!st || (byMatrix && t === 'f16') ? 'f16' : t === 'f16' ? 'vec4<u32>' : 'vec4<f32>');
  // Double buffering: two arrays per operand (sA0, sA1), each addressed with constant offsets.
  const copies = s.staging === 'double' ? ['0', '1'] : [''];
  const staging = s.staging === 'direct' ? 'prefetch' : s.staging;
  // The staging register sets: prefetch2 and deep keep two ('' and 'b'), named apart so every use is a constant name.
  const sets = s.staging === 'prefetch2' || s.staging === 'deep' ? ['', 'b'] : [''];
  const rotated = s.storeOrder === 'rotated';
  const nsg = s.subgroupsM * s.subgroupsN;
  const sk = splitOf(s);
  // K steps of the config's K a K group multiplies in each staged tile (all of them at splitK 1).
  const groupSteps = BK / ck / sk;
  const body: string[] = [];
  const emit = (...ls: string[]) => body.push(...ls);
  if (batched) emit(k.ne13 > 1 ? `let i2 = wid.z % ${u(k.ne12)};\nlet i3 = wid.z / ${u(k.ne12)};` : 'let i2 = wid.z;');
  // persistent: the tile this workgroup multiplies (m0, n0) is set in the tile loop; (mL, nL) is the one its loads address.
  const tileCount = (k.M / BM) * (k.N / BN);
  // The workgroups launched (never more than tiles); 0: one a tile.
  const persist = Math.min(s.persistent ?? 0, tileCount);
  const tileAt = (t: string) => [`(${t} % ${u(k.M / BM)}) * ${u(BM)}`, `(${t} / ${u(k.M / BM)}) * ${u(BN)}`];
  if (persist) emit(`var mL = ${tileAt('wid.x')[0]};`, `var nL = ${tileAt('wid.x')[1]};`);
  else emit(...tileOrigin(s.groupM, k.M / BM, k.N / BN, BM, BN, s.pairStride ?? 1));
  emit(`let base0 = ${base(k.src0, k.r2, k.r3)};`, `let base1 = ${base(k.src1, 1, 1)};`, `let based = ${base(k.dst, 1, 1)};`);
  emit('let sg = lid / sgSize;', `let isActive = sg < ${u(nsg * sk)};`);
  if (sk === 1) emit(`let sgm = sg % ${u(s.subgroupsM)};`, `let sgn = min(sg / ${u(s.subgroupsM)}, ${u(s.subgroupsN - 1)});`);
  else {
    // K group kg multiplies K steps kb … kb + tileK/splitK of every tile; sgl is its subgroup's place in the tile.
    emit(`let kg = min(sg / ${u(nsg)}, ${u(sk - 1)});`, `let sgl = sg % ${u(nsg)};`, `let kb = kg * ${u(groupSteps * ck)};`);
    emit(`let sgm = sgl % ${u(s.subgroupsM)};`, `let sgn = sgl / ${u(s.subgroupsM)};`);
  }
  // 'nm': acc i_j is n-block i × m-block j (the left matrices come from sB).
  const nm = s.resultOrder === 'nm';
  const [leftCount, rightCount] = nm ? [s.matricesN, s.matricesM] : [s.matricesM, s.matricesN];
  for (let i = 0; i < leftCount; i++) for (let j = 0; j < rightCount; j++) emit(`var acc${i}_${j} = ${result}();`);
  /** The accumulators into dst at the tile (m0, n0); dst is column-major for the result (column n is dst row n, m contiguous). */
  function results(): string[] {
    const out = ['if (isActive) {'];
    for (let i = 0; i < s.matricesM; i++) {
      for (let j = 0; j < s.matricesN; j++) {
        const m = `m0 + sgm * ${u(s.matricesM * cm)} + ${u(i * cm)}`;
        const n = `n0 + sgn * ${u(s.matricesN * cn)} + ${u(j * cn)}`;
        // 'nm': the same place, from acc j_i (n-block j × m-block i), row-major.
        out.push(`  subgroupMatrixStore(&dst, based + (${n}) * ${u(k.dst.rowStride)} + ${m}, acc${nm ? `${j}_${i}` : `${i}_${j}`}, ${!nm}, ${u(k.dst.rowStride)});`);
      }
    }
    return [...out, '}'];
  }

  // Each thread's share of a K tile: `units` loads of q elements per operand. Where a load lands
  // (global element / q without k0, workgroup offset) does not change along K: computed once.
  const bufA = BM * LD;
  const bufB = BN * LD;
  // `read`: the load of one unit at an index in units of q elements (a storage read, or quantized weights' wq4 decode);
  // `block`: a unit is one 32-weight block of quantized weights (raw words loaded, decoded at the store);
  // `mat`: a subgroup's copy of one f16 matrix ('matrix' store order): global offset at ${p}g${i}, workgroup offset at ${p}o${i}.
  interface Unit {
    readonly p: 'a' | 'b'; readonly i: number; readonly src: string; readonly read: (at: string) => string; readonly t: DType; readonly sh: string; readonly guard: string | null; readonly block: boolean;
    readonly mat?: { readonly type: string; readonly colMajor: boolean; readonly rowStride: number; readonly span: number };
    /** Where its loads start (global element / q), as text over the tile's origin: persistent workgroups set it anew a tile. */
    readonly g?: string;
  }
  const unitsOf = (p: 'a' | 'b', src: string, t: DType, rows: number, row0: string, bse: string, rowStride: number, read = (at: string) => `${src}[${at}]`): Unit[] => {
    if (byMatrix && t === 'f16') {
      // Matrix j of the tile (rows / major blocks of rows, BK / ck along K) is subgroup j % nsg's unit j / nsg.
      const major = p === 'a' ? cm : cn;
      const perRow = BK / ck;
      const count = (rows / major) * perRow;
      const out: Unit[] = [];
      for (let j0 = 0, i = 0; j0 < count; j0 += nsg * sk, i++) {
        const j = `(sg + ${u(j0)})`;
        emit(`let ${p}g${i} = ${bse} + (${row0} + (${j} / ${u(perRow)}) * ${u(major)}) * ${u(rowStride)} + (${j} % ${u(perRow)}) * ${u(ck)};`);
        emit(`let ${p}o${i} = (${j} / ${u(perRow)}) * ${u(major * LD)} + (${j} % ${u(perRow)}) * ${u(ck)};`);
        const type = p === 'a' ? left : right;
        for (const set of sets) emit(`var ${p}w${i}${set} = ${type}();`);
        // Subgroups past the tile (isActive false) copy nothing; a partial last round is guarded by its index.
        const guard = j0 + nsg * sk > count ? `isActive && ${j} < ${u(count)}` : 'isActive';
        out.push({ p, i, src, read, t, sh: p === 'a' ? 'sA' : 'sB', guard, block: false, mat: { type, colMajor: p === 'b', rowStride, span: LD * (major - 1) + ck } });
      }
      return out;
    }
    const q = perLoad(t);
    const units = (rows * BK) / q;
    const perRow = BK / q;
    const out: Unit[] = [];
    // 'spread' (f16 rows of 4 chunks): unit v of a block of 32 takes row (v % 8) / 4 · 4 + (v % 32) / 8 of its 8 rows;
    // (rows of 2 chunks): unit v of a block of 16 takes row (v % 16) / 8 + ((v % 8) / 2) · 2 of its 8 rows.
    const swapped = s.storeOrder === 'swapped' && t === 'f16';
    const spread = (s.storeOrder === 'spread' || swapped) && t === 'f16' && (perRow === 4 || perRow === 2);
    const spreadRow = (v: string) =>
      perRow === 4 ? `(${v} / 32u) * 8u + ((${v} % 8u) / 4u) * 4u + (${v} % 32u) / 8u` : `(${v} / 16u) * 8u + (${v} % 16u) / 8u + ((${v} % 8u) / 2u) * 2u`;
    for (let v0 = 0, i = 0; v0 < units; v0 += threads, i++) {
      const v = v0 === 0 ? 'lid' : `(lid + ${u(v0)})`;
      const guard = v0 + threads > units ? `${v} < ${u(units)}` : null;
      const row = spread ? `${p}r${i}` : `${v} / ${u(perRow)}`;
      if (spread) emit(`let ${p}r${i} = ${spreadRow(v)};`);
      const g = `(${bse} + (${row0} + ${row}) * ${u(rowStride)} + (${v} % ${u(perRow)}) * ${u(q)}) / ${u(q)}`;
      emit(`${persist ? 'var' : 'let'} ${p}g${i} = ${g};`);
      emit(`let ${p}o${i} = ${spread ? row : `(${row})`} * ${u(LD)} + (${v} % ${u(perRow)}) * ${u(q)};`);
      // 'swapped': an odd row's lane stores its chunk's upper half (4 f16) at lo first, the lower half at hi.
      // (By select() or by arithmetic, the H200's driver does not merge stores at these offsets: STS.U16, gemm18–19.)
      if (swapped) emit(`let ${p}sw${i} = ((${row}) & 1u) != 0u;`, `let ${p}lo${i} = ${p}o${i} + ((${row}) & 1u) * 4u;`, `let ${p}hi${i} = ${p}o${i} + 4u - ((${row}) & 1u) * 4u;`);
      // Rotated f16 stores: this lane's row mod 4, as a word offset (2 f16) into its chunk.
      if (rotated && t === 'f16') emit(`let ${p}q${i} = (${v} / ${u(perRow)}) % 4u;`, `let ${p}q2${i} = ${p}q${i} * 2u;`);
      for (const set of sets) emit(`var ${p}w${i}${set} = ${elem(t, true)}();`);
      out.push({ p, i, src, read, t, sh: p === 'a' ? 'sA' : 'sB', guard, block: false, g });
    }
    return out;
  };
  /** Quantized weights a block at a time: unit v is block v % (BK/32) of tile row v / (BK/32); its raw words are the registers. */
  const blockUnitsOf = (): Unit[] => {
    const perRow = BK / 32;
    const units = BM * perRow;
    const out: Unit[] = [];
    for (let v0 = 0, i = 0; v0 < units; v0 += threads, i++) {
      const v = v0 === 0 ? 'lid' : `(lid + ${u(v0)})`;
      const guard = v0 + threads > units ? `${v} < ${u(units)}` : null;
      // The block index of this unit's first K tile (blocks run along K, K/32 a row) and where its 32 weights go in sA.
      const row = perRow === 1 ? v : `${v} / ${u(perRow)}`;
      emit(`let ab${i} = (m0 + ${row}) * ${u(k.K / 32)}${perRow === 1 ? '' : ` + ${v} % ${u(perRow)}`};`);
      emit(`let ao${i} = ${perRow === 1 ? `${v} * ${u(LD)}` : `(${row}) * ${u(LD)} + (${v} % ${u(perRow)}) * 32u`};`);
      for (const set of sets) emit(`var ar${i}${set}: WqRaw;`);
      out.push({ p: 'a', i, src: 'src0', read: () => '', t: 'f32', sh: 'sA', guard, block: true });
    }
    return out;
  };
  const units = [
    ...(!staged.a ? [] : quant === 'block' ? blockUnitsOf() : unitsOf('a', 'src0', t0, BM, persist ? 'mL' : 'm0', 'base0', k.src0.rowStride, quant === 'weight' ? weightRead.load : undefined)),
    ...(staged.b ? unitsOf('b', 'src1', t1, BN, persist ? 'nL' : 'n0', 'base1', k.src1.rowStride) : []),
  ];
  const guarded = (x: Unit, lines: string[]) => (x.guard ? [`if (${x.guard}) {`, ...lines.map((l) => `  ${l}`), '}'] : lines);
  /** Global loads of the tile at K offset `kExpr` into the registers. */
  const loads = (kExpr: string, set = '', only: readonly Unit[] = units) =>
    only.flatMap((x) =>
      guarded(x, [
        x.block
          ? `ar${x.i}${set} = wq_raw(ab${x.i} + (${kExpr}) / 32u);`
          : x.mat
            ? `${x.p}w${x.i}${set} = subgroupMatrixLoad<${x.mat.type}>(&${x.src}, ${x.p}g${x.i} + ${kExpr}, ${x.mat.colMajor}, ${u(x.mat.rowStride)});`
            : `${x.p}w${x.i}${set} = ${x.read(`${x.p}g${x.i} + (${kExpr}) / ${u(perLoad(x.t))}`)};`,
      ]),
    );
  /** The registers into workgroup memory (f16), into buffer `buf` ('' single, '0' or '1' double). */
  const stores = (buf: string, set = '') =>
    units.flatMap((x) => {
      const sh = `${x.sh}${buf}`;
      const reg = `${x.p}w${x.i}${set}`; // this unit's loaded registers
      const lines: string[] = [];
      // Clamped stores: the unit's offset written as min(o, length − span) once, every store at a constant past it.
      const clamp = s.storeIndex === 'clamped' && !x.mat;
      if (clamp) lines.push(`let ${x.p}c = min(${x.p}o${x.i}, ${u((x.p === 'a' ? bufA : bufB) - (x.block ? 32 : perLoad(x.t)))});`);
      const o = clamp ? `${x.p}c` : `${x.p}o${x.i}`;
      if (x.block) {
        // 32 weights: q·d (+ m) in f32 (q·d exact), rounded once to f16.
        lines.push(`let wb = wq_unpack(ar${x.i}${set});`);
        for (let j = 0; j < 8; j++) lines.push(`let ah${j} = vec4<f16>(wb.q[${j}] * wb.d${k.weightBlocks!.hasMin ? ' + wb.m' : ''});`, ...[0, 1, 2, 3].map((e) => `${sh}[${o} + ${u(4 * j + e)}] = ah${j}[${e}];`));
      } else if (x.mat) {
        // Clamped like the multiply's loads (never below the real offset), so robustness's predicate folds.
        lines.push(`subgroupMatrixStore(&${sh}, min(${o}, ${u((x.p === 'a' ? bufA : bufB) - x.mat.span)}), ${reg}, ${x.mat.colMajor}, ${u(LD)});`);
      } else if (x.t === 'f16' && rotated) {
        // Word w of the rotated vector is word (w + q) % 4 of the loaded one, stored where that word belongs.
        const q = `${x.p}q${x.i}`;
        lines.push(`let ${x.p}v1 = select(${reg}, ${reg}.yzwx, (${q} & 1u) != 0u);`, `let ${x.p}v = select(${x.p}v1, ${x.p}v1.zwxy, (${q} & 2u) != 0u);`);
        for (const [w, comp] of ['x', 'y', 'z', 'w'].entries()) {
          const at = `${o} + ((${x.p}q2${x.i} + ${u(2 * w)}) & 7u)`;
          lines.push(`let ${x.p}h${w} = bitcast<vec2<f16>>(${x.p}v.${comp});`, `${sh}[${at}] = ${x.p}h${w}.x;`, `${sh}[${at} + 1u] = ${x.p}h${w}.y;`);
        }
      } else if (x.t === 'f16' && s.storeOrder === 'swapped') {
        // Words in store order: the two for lo, then the two for hi (an odd row's zw first).
        lines.push(`let ${x.p}v = select(${reg}, ${reg}.zwxy, ${x.p}sw${x.i});`);
        for (const [w, comp] of ['x', 'y', 'z', 'w'].entries()) {
          const at = `${w < 2 ? `${x.p}lo` : `${x.p}hi`}${x.i}`;
          lines.push(`let ${x.p}h${w} = bitcast<vec2<f16>>(${x.p}v.${comp});`, `${sh}[${at} + ${u(2 * (w % 2))}] = ${x.p}h${w}.x;`, `${sh}[${at} + ${u(2 * (w % 2) + 1)}] = ${x.p}h${w}.y;`);
        }
      } else if (x.t === 'f16') {
        for (const [w, comp] of ['x', 'y', 'z', 'w'].entries()) lines.push(`let ${x.p}h${w} = bitcast<vec2<f16>>(${reg}.${comp});`, `${sh}[${o} + ${u(2 * w)}] = ${x.p}h${w}.x;`, `${sh}[${o} + ${u(2 * w + 1)}] = ${x.p}h${w}.y;`);
      } else {
        lines.push(`let ${x.p}h = vec4<f16>(${reg});`, ...[0, 1, 2, 3].map((e) => `${sh}[${o} + ${u(e)}] = ${x.p}h[${e}];`));
      }
      return x.guard ? guarded(x, lines) : ['{', ...lines.map((l) => `  ${l}`), '}'];
    });
  /**
   * The subgroup's multiply-accumulates over the tile in buffer `buf` ('' single, '0' or '1' double): K steps
   * of the config's K in a loop, or written out (kSteps 'unrolled'). `next` (prefetchAt 'mma': the next tile's
   * global loads) goes into the first step after its first matrix loads, and runs in subgroups past the tile too.
   */
  const multiply = (buf: string, next: string[] = [], pieces: string[][] = []) => {
    const out = ['if (isActive) {'];
    const steps = s.kSteps === 'unrolled' ? Array.from({ length: groupSteps }, (_, t) => u(t * ck)) : ['kk'];
    // `pieces` (prefetchAt 'interleaved'): piece p goes after MMA group ⌊p · groups / pieces⌋ (a group: the MMAs of one right matrix).
    const groups = steps.length * rightCount;
    const after = Array.from({ length: groups }, (): string[] => []);
    pieces.forEach((piece, p) => after[Math.floor((p * groups) / pieces.length)].push(...piece));
    steps.forEach((kk, t) => {
      out.push(kk === 'kk' ? `  for (var kk = 0u; kk < ${u(groupSteps * ck)}; kk = kk + ${u(ck)}) {` : '  {');
      // Under splitK the K group's steps start at kb.
      out.push(...step(buf, sk === 1 ? kk : `kb + ${kk}`, kk === steps[0] ? next : [], after.slice(t * rightCount, (t + 1) * rightCount)), '  }');
    });
    const elsewise = [...next, ...pieces.flat()];
    if (elsewise.length) out.push('} else {', ...elsewise.map((l) => `  ${l}`));
    out.push('}');
    return out;
  };
  /** One K step (at K offset `kk` in the tile) of the multiply: its matrix loads and MMAs, `next` after the first loads, `after[j]` after right matrix j's MMAs. */
  const step = (buf: string, kk: string, next: string[], after: string[][] = []) => {
    const out: string[] = [];
    // A staged operand is read from workgroup memory (rows of LD), a direct one from its buffer at K offset k0.
    // Robustness wraps every subgroupMatrixLoad in `if (offset + span <= length)` (Tint's predication).
    // A workgroup offset written as min(offset, length − span) — never smaller than the real one —
    // lets the driver's range analysis prove that condition and drop the branch (H200 4096³: 148.9 →
    // 213.1 TFLOP/s; with robustness off altogether, 208). span = LD·(major − 1) + minor.
    const at = (st: boolean, sh: string, size: number, row: string, src: string, bse: string, rowStride: number, major: number) =>
      st ? `&${sh}${buf}, min(${row} * ${u(LD)} + ${kk}, ${u(size - (LD * (major - 1) + ck))}), ` : `&${src}, ${bse} + (${row}) * ${u(rowStride)} + k0 + ${kk}, `;
    // Matrix i of operand A (rows of M) or B (rows of N): where it starts in workgroup memory, or in its buffer (direct).
    const aRow = (i: number) => (staged.a ? `(sgm * ${u(s.matricesM * cm)} + ${u(i * cm)})` : `m0 + sgm * ${u(s.matricesM * cm)} + ${u(i * cm)}`);
    const bRow = (j: number) => (staged.b ? `(sgn * ${u(s.matricesN * cn)} + ${u(j * cn)})` : `n0 + sgn * ${u(s.matricesN * cn)} + ${u(j * cn)}`);
    const fromA = (i: number) => at(staged.a, 'sA', bufA, aRow(i), 'src0', 'base0', k.src0.rowStride, cm);
    const fromB = (j: number) => at(staged.b, 'sB', bufB, bRow(j), 'src1', 'base1', k.src1.rowStride, cn);
    const strideA = u(staged.a ? LD : k.src0.rowStride);
    const strideB = u(staged.b ? LD : k.src1.rowStride);
    // A left matrix is row-major (K along a row), a right one column-major (K down a column): both read rows of K.
    for (let i = 0; i < leftCount; i++) out.push(`    let l${i} = subgroupMatrixLoad<${left}>(${nm ? fromB(i) : fromA(i)}false, ${nm ? strideB : strideA});`);
    for (let j = 0; j < rightCount; j++) {
      out.push(`    let r${j} = subgroupMatrixLoad<${right}>(${nm ? fromA(j) : fromB(j)}true, ${nm ? strideA : strideB});`);
      if (j === 0) out.push(...next.map((l) => `    ${l}`));
      for (let i = 0; i < leftCount; i++) out.push(`    acc${i}_${j} = subgroupMatrixMultiplyAccumulate(l${i}, r${j}, acc${i}_${j});`);
      out.push(...(after[j] ?? []).map((l) => `    ${l}`));
    }
    return out;
  };
  const inLoop = (ls: string[]) => ls.map((l) => `  ${l}`);
  /** Lines run only while the K offset `kExpr` is inside K (the next tile's loads and stores). */
  const whileInK = (kExpr: string, ls: string[]) => [`if (${kExpr} < ${u(k.K)}) {`, ...ls.map((l) => `  ${l}`), '}'];
  // Two-tile loops (double, prefetch2): `pairs` iterations over K, then an odd last tile after the loop.
  const tiles = k.K / BK;
  const pairs = Math.floor(tiles / 2);
  const pairLoop = (body: string[]) => (pairs ? [`for (var k0 = 0u; k0 < ${u(pairs * 2 * BK)}; k0 = k0 + ${u(2 * BK)}) {`, ...inLoop(body), '}'] : []);
  const loop = `for (var k0 = 0u; k0 < ${u(k.K)}; k0 = k0 + ${u(BK)}) {`;
  if (!units.length) {
    // Nothing staged: no workgroup memory, no barrier; the subgroups run independently.
    emit(loop, ...inLoop(multiply('')), '}');
  } else if (staging === 'single') {
    emit(loop, ...inLoop([...loads('k0'), ...stores(''), 'workgroupBarrier();', ...multiply(''), 'workgroupBarrier();']), '}');
  } else if (staging === 'prefetch') {
    // The next tile's global loads are in flight while this one is multiplied: issued before the multiply, or inside its first K step.
    const peeled = s.prefetchGuard === 'peeled';
    // The next tile: from a clamped tile (no branch), unguarded in a peeled loop, or under the branch.
    const nextK = s.prefetchGuard === 'clamped' ? `min(k0 + ${u(BK)}, ${u(k.K - BK)})` : `k0 + ${u(BK)}`;
    const guardNext = (ls: string[]) => (s.prefetchGuard === 'clamped' || peeled ? ls : whileInK(nextK, ls));
    const next = guardNext(loads(nextK));
    // 'interleaved': each unit's load under its own guard, one after each MMA group.
    const pieces = s.prefetchAt === 'interleaved' ? units.map((x) => guardNext(loads(nextK, '', [x]))) : [];
    const mul = s.prefetchAt === 'mma' ? multiply('', next) : s.prefetchAt === 'early' ? multiply('') : s.prefetchAt === 'interleaved' ? multiply('', [], pieces) : [...next, ...multiply('')];
    const early = s.prefetchAt === 'early' ? next : [];
    const tile = [...stores(''), ...early, 'workgroupBarrier();', ...mul, 'workgroupBarrier();'];
    if (persist) {
      // Tiles t = wid.x, wid.x + P, …: the last K step's prefetch is the next tile's first K tile (its loads re-aimed),
      // so those loads are in flight while this tile's result is stored.
      const P = persist;
      const [mNext, nNext] = tileAt(`(t + ${u(P)})`);
      const reaim = [`mL = ${mNext};`, `nL = ${nNext};`, ...units.map((x) => `${x.p}g${x.i} = ${x.g};`), ...loads('0u')];
      const step = [...stores(''), 'workgroupBarrier();', `if (k0 + ${u(BK)} < ${u(k.K)}) {`, ...inLoop(loads(`k0 + ${u(BK)}`)), `} else if (t + ${u(P)} < ${u(tileCount)}) {`, ...inLoop(reaim), '}', ...multiply(''), 'workgroupBarrier();'];
      emit(...loads('0u'), `for (var t = wid.x; t < ${u(tileCount)}; t = t + ${u(P)}) {`);
      emit(...inLoop([`let m0 = ${tileAt('t')[0]};`, `let n0 = ${tileAt('t')[1]};`, loop, ...inLoop(step), '}', ...results()]));
      for (let i = 0; i < leftCount; i++) for (let j = 0; j < rightCount; j++) emit(`  acc${i}_${j} = ${result}();`);
      emit('}');
    } else if (!peeled) emit(...loads('0u'), loop, ...inLoop(tile), '}');
    else {
      // Every tile but the last prefetches its successor unconditionally; the last is multiplied after the loop.
      emit(...loads('0u'));
      if (k.K > BK) emit(`for (var k0 = 0u; k0 < ${u(k.K - BK)}; k0 = k0 + ${u(BK)}) {`, ...inLoop(tile), '}');
      emit('{', ...inLoop([`let k0 = ${u(k.K - BK)};`, ...stores(''), 'workgroupBarrier();', ...multiply('')]), '}');
    }
  } else if (staging === 'prefetch2') {
    // Two tiles an iteration, register sets '' (even tiles) and 'b' (odd): each half first issues the next tile's loads
    // into the other set, then stores its own (loaded a half earlier). An odd last tile (in set '') is multiplied after the loop.
    const half = (own: string, other: string, nextK: string, guard: boolean) => [
      ...(guard ? whileInK(nextK, loads(nextK, other)) : loads(nextK, other)),
      ...stores('', own),
      'workgroupBarrier();',
      ...multiply(''),
      'workgroupBarrier();',
    ];
    emit(...loads('0u'));
    emit(...pairLoop([...half('', 'b', `k0 + ${u(BK)}`, false), ...half('b', '', `k0 + ${u(2 * BK)}`, true)]));
    if (tiles % 2) emit(...stores(''), 'workgroupBarrier();', ...multiply(''));
  } else if (staging === 'deep') {
    // Two tiles an iteration, register sets '' (even tiles) and 'b' (odd): each half stores its own set, and once the
    // barrier says every thread has, refills it with the tile two ahead. An odd last tile (in set '') after the loop.
    const half = (own: string, nextK: string) => [...stores('', own), 'workgroupBarrier();', ...whileInK(nextK, loads(nextK, own)), ...multiply(''), 'workgroupBarrier();'];
    emit(...loads('0u'), ...(tiles > 1 ? loads(u(BK), 'b') : []));
    emit(...pairLoop([...half('', `k0 + ${u(2 * BK)}`), ...half('b', `k0 + ${u(3 * BK)}`)]));
    if (tiles % 2) emit(...stores(''), 'workgroupBarrier();', ...multiply(''));
  } else {
    // Tile t is read from buffer t % 2 while tile t + 1 is stored into the other: one barrier per tile.
    // Two tiles per iteration, so each half names its buffers; an odd last tile (K / tileK is known
    // here) is multiplied from buffer 0 after the loop.
    const after = `k0 + ${u(2 * BK)}`;
    emit(...loads('0u'), ...stores('0'), 'workgroupBarrier();');
    const first = [...loads(`k0 + ${u(BK)}`), ...multiply('0'), ...stores('1'), 'workgroupBarrier();'];
    const second = [...whileInK(after, loads(after)), ...multiply('1'), ...whileInK(after, stores('0')), 'workgroupBarrier();'];
    emit(...pairLoop([...first, ...second]));
    if (tiles % 2) emit(...multiply('0'));
  }
  const scratch = sgmatrixScratch(s);
  if (sk > 1) emit(...reduction(s, k.dst.rowStride, threads, scratch));
  else if (!persist) emit(...results());
  // Quantized weights are always rounded (decoded to f16); the snippet calls them f32.
  const rounds = t0 === 'f32' || t1 === 'f32';
  const wgsl = [
    `// generated: ${label} — ${scheduleKey(s)}`,
    `// sgmatrix: ${BM}×${BN} outputs per workgroup (${s.subgroupsM}×${s.subgroupsN} subgroups of ${s.matricesM}×${s.matricesN} ${s.config} f16→f32 matrices), K ${BK} per step, ${s.staging} staging${persist ? `, ${persist} persistent workgroups over ${tileCount} tiles` : ''}${sk > 1 ? `, K split ${sk} ways in the workgroup (groups of ${nsg} subgroups; partials summed in workgroup memory, ${scratch.rounds} rounds of ${scratch.perRound} matrices a subgroup)` : ''}${stagingNote(quant, t1, rounds)}`,
    'enable f16;',
    'enable subgroups;',
    'enable chromium_experimental_subgroup_matrix;',
    'diagnostic(off, chromium.subgroup_matrix_uniformity);',
    storageDecl(0, 'src0', 'read', quant ? 'u32' : elem(t0, staged.a)),
    storageDecl(1, 'src1', 'read', elem(t1, staged.b)),
    storageDecl(2, 'dst', 'read_write', 'f32'),
    ...(staged.a ? copies.map((c) => `var<workgroup> sA${c}: array<f16, ${bufA}>;`) : []),
    ...(staged.b ? copies.map((c) => `var<workgroup> sB${c}: array<f16, ${bufB}>;`) : []),
    ...(sk > 1 ? [`var<workgroup> sRed: array<f32, ${scratch.floats}>;`] : []),
    ...(quant === 'block' ? ['', k.weightBlocks!.wgsl.trim(), k.weightBlocks!.unpack.trim()] : quant === 'weight' ? [weightRead.fns.trimEnd()] : []),
    '',
    ...computeMain(threads, ['@builtin(workgroup_id) wid: vec3<u32>', '@builtin(local_invocation_index) lid: u32', '@builtin(subgroup_size) sgSize: u32'], body),
  ].join('\n');
  const dispatch: [number, number, number] = persist ? [persist, 1, 1] : [k.M / BM, k.N / BN, k.ne12 * k.ne13];
  return { wgsl, dispatch, rounds, quant };
}

/**
 * splitK's end: per round, each subgroup stores `perRound` of its accumulators into its K group's slab
 * of sRed, a barrier, then every thread sums the splitK slabs a vec4 (4 m of one column) at a time
 * and stores to dst; a barrier before the next round's stores.
 */
function reduction(s: SgmatrixSchedule, dstStride: number, threads: number, { perRound, rounds }: { perRound: number; rounds: number }): string[] {
  const { cm, cn } = cfg(s);
  const sk = splitOf(s);
  const nsg = s.subgroupsM * s.subgroupsN;
  const E = cm * cn;
  const slab = nsg * perRound * E;
  const V = slab / 4;
  const out: string[] = [];
  for (let round = 0; round < rounds; round++) {
    if (round) out.push('workgroupBarrier();');
    out.push('if (isActive) {');
    for (let r = 0; r < perRound; r++) {
      const f = round * perRound + r;
      // Clamped like the staging loads (never below the real offset): span E, the slab's last matrix ends at the array's end.
      out.push(`  subgroupMatrixStore(&sRed, min((kg * ${u(nsg)} + sgl) * ${u(perRound * E)} + ${u(r * E)}, ${u(sk * slab - E)}), acc${Math.floor(f / s.matricesN)}_${f % s.matricesN}, true, ${u(cm)});`);
    }
    out.push('}', 'workgroupBarrier();');
    for (let v0 = 0; v0 < V; v0 += threads) {
      const v = v0 === 0 ? 'lid' : `(lid + ${u(v0)})`;
      const lines = [
        `let e = ${v} * 4u;`,
        `let q = e / ${u(E)};`,
        `let w = e % ${u(E)};`,
        `let sl = q / ${u(perRound)};`,
        `let f = ${u(round * perRound)} + q % ${u(perRound)};`,
        `let m = m0 + (sl % ${u(s.subgroupsM)}) * ${u(s.matricesM * cm)} + (f / ${u(s.matricesN)}) * ${u(cm)} + w % ${u(cm)};`,
        `let n = n0 + (sl / ${u(s.subgroupsM)}) * ${u(s.matricesN * cn)} + (f % ${u(s.matricesN)}) * ${u(cn)} + w / ${u(cm)};`,
        `let o = based + n * ${u(dstStride)} + m;`,
      ];
      for (let c = 0; c < 4; c++) lines.push(`dst[o + ${u(c)}] = ${Array.from({ length: sk }, (_, g) => `sRed[e + ${u(g * slab + c)}]`).join(' + ')};`);
      out.push(...(v0 + threads > V ? [`if (${v} < ${u(V)}) {`] : ['{']), ...lines.map((l) => `  ${l}`), '}');
    }
  }
  return out;
}

/** The header's note on what is rounded to f16 on staging. */
function stagingNote(quant: 'block' | 'weight' | null, t1: DType, rounds: boolean): string {
  if (!quant) return rounds ? '; f32 sources rounded to f16 on staging' : '';
  const how = quant === 'block' ? 'a 32-weight block per thread' : 'four weights per load';
  return `; quantized weights decoded (${how}) and rounded to f16 on staging${t1 === 'f32' ? ', f32 src1 too' : ''}`;
}

export const SGMATRIX: FamilyDef<SgmatrixSchedule, GemvSnippet> = {
  name: 'sgmatrix',
  doc: 'subgroup-matrix (chromium-experimental-subgroup-matrix) tiles: f16 operands staged in workgroup memory (f32 ones and quantized weights rounded to f16 there), f32 accumulation, whole tiles only',
  space: {
    config: { values: ['16x16x16', '16x8x16', '16x8x8'], doc: 'subgroup-matrix shape M×N×K (f16→f32)' },
    subgroupsM: { values: [1, 2, 4], doc: 'subgroups per workgroup along M' },
    subgroupsN: { values: [1, 2, 4], doc: 'subgroups per workgroup along N' },
    matricesM: { values: [1, 2, 4], doc: 'result matrices per subgroup along M' },
    matricesN: { values: [1, 2, 4], doc: 'result matrices per subgroup along N' },
    tileK: { values: [16, 32, 64], doc: 'K staged in workgroup memory per step' },
    subgroupSize: { values: [32], doc: 'threads per subgroup the workgroup is sized for', default: 32 },
    staging: {
      values: ['single', 'prefetch', 'double', 'direct', 'prefetch2', 'deep'],
      sweep: ['single', 'prefetch', 'double'], // direct: 2.5–4× slower on the H200 (docs/benchmarks.md); prefetch2 (H200 4096³ f16: 613 µs against prefetch's 563): swept on request
      doc: 'K-tile staging: single buffer, register prefetch of the next tile, double-buffered workgroup memory, direct (f16 operands loaded by subgroupMatrixLoad from their buffer, f32 ones prefetched), prefetch2 (two register sets: the next tile’s loads issued before this tile’s stores), or deep (two register sets, each refilled right after its stores: loads two tiles ahead; H200 4096³ f16 spread 574 against prefetch’s 562 µs, gemm17)',
      default: 'single',
    },
    storeOrder: {
      values: ['plain', 'rotated', 'matrix', 'spread', 'swapped'],
      sweep: ['plain'],
      doc: "f16 staging stores: plain (a warp's lanes on 8 banks), rotated by row (on 32 banks; slower on the H200), matrix (whole matrices copied by subgroupMatrixLoad/Store, no 16-bit stores), or spread (plain stores, a quarter-warp on rows r and r + 4: its 16-byte chunks on 32 banks; H200 4096³ f16 563 µs against 610 plain, the rule there; the same kernel as plain but for f16 operands at tileK 32 and 16), or swapped (spread's rows, odd rows storing their chunk's upper 8 bytes first: the 8-byte stores the H200's driver makes on 32 banks a half-warp; but there the driver then stops merging the 16-bit stores: 717–727 against 560 µs). Swept on request: the default sweep keeps plain (spread doubles it, and duplicates plain at tileK 64)",
      default: 'plain',
    },
    // Issue 26 (sgm5, gemm5): none beat today's values on the H200 (docs/benchmarks.md); swept on request.
    groupM: {
      values: [1, 4, 8, 16],
      sweep: [1],
      doc: 'workgroup order for L2 reuse: consecutive workgroups walk groupM tiles along M, then the next along N (bands of groupM tile-rows); 1: dispatch order (all of M first). H200 4096³: 4/8/16 within ±0.5% of 1',
      default: 1,
    },
    rowPad: {
      values: ['16B', 'none', '32B'],
      sweep: ['16B'],
      doc: 'workgroup-memory row padding past tileK (rows stay 16-byte aligned for subgroupMatrixLoad); H200 4096³: none 1.6×, 32B 1.13× slower than 16B (80-byte rows put a matrix load’s 8 rows on distinct banks)',
      default: '16B',
    },
    kSteps: { values: ['loop', 'unrolled'], sweep: ['loop'], doc: "the multiply's K steps within a tile: a loop, or written out with constant offsets (H200: the same time)", default: 'loop' },
    prefetchAt: {
      values: ['top', 'mma', 'early', 'interleaved'],
      sweep: ['top'],
      doc: "where prefetch staging issues the next tile's global loads: before the multiply, inside its first K step after the first matrix loads (needs kSteps 'unrolled'; H200: 2% / 9% slower), early: right after the staging stores, before the barrier (H200 4096³ f16 spread: 569 against 563 µs), or interleaved: one load after each group of MMAs (needs kSteps 'unrolled'; H200 653 against 562 µs, gemm17)",
      default: 'top',
    },
    storeIndex: {
      values: ['plain', 'clamped'],
      sweep: ['plain'],
      doc: 'staging stores indexed o + e, or min(o, length − span) + e (the same stores; H200: 1.6× slower — the plain index is the one that stays unclamped)',
      default: 'plain',
    },
    prefetchGuard: {
      values: ['branch', 'clamped', 'peeled'],
      sweep: ['branch'],
      doc: "prefetch staging's next-tile loads past the last tile: skipped by a branch, issued always from a clamped tile (no branch behind the loads), or peeled (the last tile after the loop); H200 4096³ f16 spread: 725 / 602 against 563 µs for the branch; swept on request",
      default: 'branch',
      omitDefault: true,
    },
    resultOrder: {
      values: ['mn', 'nm'],
      sweep: ['mn'],
      doc: "result matrices m×n stored column-major (32-bit stores), or n×m (the product as Bᵀ·Aᵀ) stored row-major (64-bit stores, half as many); 16x16x16 only. H200 4096³ f16 spread: nm 588 against 560 µs (gemm18)",
      default: 'mn',
      omitDefault: true,
    },
    pairStride: {
      values: [1, 66, 132],
      sweep: [1],
      doc: 'co-resident pairs: workgroups w and w + pairStride take tiles stacked along M that read the same src1 columns (an SM running both at once finds the second in L1); 1: the dispatch order. Needs an even count of M tiles; not with groupM. H200 4096³ f16 spread (gemm20): 132 / 66 / 2 559–564 / 563 / 560 against 561–564 µs, no change; swept on request',
      default: 1,
      omitDefault: true,
    },
    persistent: {
      values: [0, 132, 256, 264],
      sweep: [0],
      min: 0,
      doc: "persistent workgroups: launch this many, each multiplying tiles w, w + persistent, … in turn, the next tile's first K tile loaded while this one's result is stored; 0: one workgroup a tile. Prefetch staging, one batch, groupM and pairStride off. H200 4096³ f16 spread (gemm23): 256 552 µs, 264 553–554, 132 919, against 564–565 off",
      default: 0,
      omitDefault: true,
    },
    splitK: {
      values: [1, 2, 4],
      sweep: [1],
      doc: "K split inside the workgroup: splitK groups of subgroupsM×subgroupsN subgroups each multiply their slice of every staged K tile into their own accumulators, summed through workgroup memory (≤ 16 KiB of f32 scratch, in rounds) at the end; swept on request (H200 2026-12-02, gemm6: lost, 60–138 against 141 TFLOP/s at 4096x512x4096 f16)",
      default: 1,
      omitDefault: true,
    },
  },
  threads: (s) => sgmatrixTile(s).threads,
  workgroupBytes: (s) => {
    const { BM, BN } = sgmatrixTile(s);
    // 'direct' stages only f32 operands, unknown here: counted as if both were (an upper bound). splitK's scratch is f32 of its own.
    return (BM + BN) * (s.tileK + padOf(s)) * 2 * (s.staging === 'double' ? 2 : 1) + sgmatrixScratch(s).bytes;
  },
  threadsText: (s) => `subgroupsM·subgroupsN·${splitOf(s) > 1 ? 'splitK·' : ''}subgroupSize = ${sgmatrixTile(s).threads} threads`,
  validate(s, adapter) {
    const reasons: string[] = [];
    if (!['16x16x16', '16x8x16', '16x8x8'].includes(s.config)) reasons.push(`config ${s.config} is not an f16→f32 subgroup-matrix shape (16x16x16, 16x8x16, 16x8x8)`);
    else if (s.tileK % cfg(s).ck) reasons.push(`tileK ${s.tileK} is not a multiple of the config's K ${cfg(s).ck}`);
    else if ((s.tileK / cfg(s).ck) % splitOf(s)) reasons.push(`splitK ${splitOf(s)} must divide the ${s.tileK / cfg(s).ck} K steps of a tile (tileK ${s.tileK} / the config's K ${cfg(s).ck}): each K group multiplies tileK/splitK of every tile`);
    if (s.tileK % 8) reasons.push(`tileK ${s.tileK} must be a multiple of 8 (8 f16 per load)`);
    if (!(s.rowPad in PAD)) reasons.push(`rowPad ${s.rowPad} is not one of ${Object.keys(PAD).join(', ')}`);
    if (s.prefetchAt !== 'top' && s.staging !== 'prefetch' && s.staging !== 'direct') reasons.push(`prefetchAt '${s.prefetchAt}' moves prefetch staging's global loads: staging ${s.staging} has none there`);
    if (s.prefetchGuard !== undefined && s.prefetchGuard !== 'branch' && s.staging !== 'prefetch' && s.staging !== 'direct') reasons.push(`prefetchGuard '${s.prefetchGuard}' guards prefetch staging's next-tile loads: staging ${s.staging} has none`);
    if (s.prefetchAt === 'mma' && s.kSteps !== 'unrolled') reasons.push("prefetchAt 'mma' places the loads in the multiply's first K step: it needs kSteps 'unrolled'");
    if (s.prefetchAt === 'interleaved' && s.kSteps !== 'unrolled') reasons.push("prefetchAt 'interleaved' places the loads between the multiply's MMA groups: it needs kSteps 'unrolled'");
    if (s.resultOrder === 'nm' && (s.config !== '16x16x16' || s.staging === 'direct' || splitOf(s) > 1))
      reasons.push(`resultOrder 'nm' swaps the left and right matrices: it needs the square config 16x16x16, staged operands and splitK 1 (not ${s.config}, ${s.staging}, splitK ${splitOf(s)})`);
    const P = s.persistent ?? 0;
    if (P > 0 && (s.staging !== 'prefetch' || splitOf(s) > 1 || s.groupM > 1 || (s.pairStride ?? 1) > 1 || (s.prefetchGuard ?? 'branch') !== 'branch' || s.prefetchAt !== 'top' || s.storeOrder === 'matrix'))
      reasons.push(`persistent ${P} chains each tile's last K step to the next tile's loads: it needs prefetch staging with prefetchAt 'top' and prefetchGuard 'branch', splitK 1, groupM 1, pairStride 1 and staged stores (not ${s.staging}, ${s.prefetchAt}, ${s.prefetchGuard ?? 'branch'}, splitK ${splitOf(s)}, groupM ${s.groupM}, pairStride ${s.pairStride ?? 1}, ${s.storeOrder})`);
    if ((s.pairStride ?? 1) > 1 && s.groupM > 1) reasons.push(`pairStride ${s.pairStride} sets the workgroup order itself: it takes groupM 1, not ${s.groupM}`);
    if (s.storeOrder === 'swapped' && s.storeIndex === 'clamped') reasons.push("storeOrder 'swapped' stores at two offsets a chunk (its halves swapped on odd rows): storeIndex 'clamped' clamps one offset a unit");
    if (!adapter.features.includes(SGMATRIX_FEATURE)) reasons.push(`sgmatrix needs the '${SGMATRIX_FEATURE}' feature, which this adapter lacks`);
    if (!adapter.features.includes('shader-f16')) reasons.push("sgmatrix needs the 'shader-f16' feature, which this adapter lacks");
    if (!adapter.features.includes('subgroups')) reasons.push("sgmatrix needs the 'subgroups' feature, which this adapter lacks");
    return reasons;
  },
  fits: (s, k) => sgmatrixFits(s, k),
  generate(s, k, c) {
    const g = generateSgmatrix(s, k, `${c.op} ${c.label}`);
    return {
      label: `generated:${c.op} ${scheduleKey(s)}${g.quant ? ` [weights decoded to f16${k.type1 === 'f16' ? '' : ', f32 src1 staged as f16'}]` : g.rounds ? ' [f32 operands staged as f16]' : ''}`,
      wgsl: g.wgsl,
      entryPoint: 'main',
      bindings: MATMUL_BINDINGS,
      dispatch: g.dispatch,
      features: ['shader-f16', 'subgroups', SGMATRIX_FEATURE],
      ...(g.rounds ? { inputRounding: 'f16' as const } : {}),
    };
  },
};
