// Matmul-family codegen (MUL_MAT, ggml's "NT" layout: src0 and src1 rows run along K, dst
// row n runs along m). One workgroup per tileM×tileN output tile and batch; K goes through
// workgroup memory in tileK slices stored k-major (As[k][m], Bs[k][n]) so the inner loop
// reads contiguous vectors; each thread keeps a threadM×threadN block in registers. Shapes,
// strides and offsets are baked in as literals, and bounds checks are emitted only where a
// tile overhangs the shape. Pure string building.
import { MAX_WORKGROUPS_PER_DIM, type BindingSpec } from '../kernel';
import { scheduleKey } from './types';
import { indent, renameIdents, storageDecl, u } from '../codegen/wgsl';

/** The bindings of every matmul-family kernel (tiled, gemv, sgmatrix): weights, activations, output. */
export const MATMUL_BINDINGS: readonly BindingSpec[] = [
  { binding: 0, role: 'src0', access: 'read' },
  { binding: 1, role: 'src1', access: 'read' },
  { binding: 2, role: 'dst', access: 'read_write' },
];

export interface MatmulSchedule {
  readonly family: 'matmul';
  /** Output tile per workgroup along M (dst ne0) and N (dst ne1). */
  readonly tileM: number;
  readonly tileN: number;
  /** K slice staged in workgroup memory per step. */
  readonly tileK: number;
  /** Register block per thread. */
  readonly threadM: number;
  readonly threadN: number;
  /** 1 or 4: vec4 loads along K and vec4 accumulators along M. */
  readonly vectorWidth: number;
  /**
   * How K tiles reach workgroup memory: 'single' loads, stores, computes; 'prefetch' issues the
   * next tile's global loads into registers before computing the current one (hides their
   * latency, no extra memory); 'double' also stores them into a second buffer (one barrier
   * per tile, twice the workgroup memory).
   */
  readonly staging: 'single' | 'prefetch' | 'double';
  /**
   * K split inside the workgroup (default 1): splitK groups of (tileM/threadM)·(tileN/threadN)
   * threads each multiply their share of every K tile into their own registers, then add them
   * through workgroup memory at the end. More threads per output tile: fills the GPU where the
   * output has few tiles (4096×512: 128 tiles of 128×128 for 132 SMs).
   */
  readonly splitK?: number;
  /**
   * Workgroup memory layout (default 'none'): 'vec4' pads every staged k row of As and Bs by 16
   * bytes, so the transposing staging stores (lanes of a warp at 2–8 k rows of one row block)
   * land on distinct banks; the inner loop's row reads stay contiguous.
   */
  readonly padding?: 'none' | 'vec4';
  /**
   * The inner loop over a staged K tile (default 'loop'): 'loop' is a WGSL loop over kk;
   * 'unrolled' writes every kk out with constant shared offsets (no loop index arithmetic);
   * 'pipelined' is unrolled with the next kk's fragments loaded before this kk's FMAs
   * (register double buffering of the fragments, written in the order a fast SGEMM issues them).
   */
  readonly inner?: 'loop' | 'unrolled' | 'pipelined' | 'pipelined4';
  /**
   * How staged vec4 loads reach workgroup memory (default 'scalar'): 'scalar' writes each vec4
   * along K as 4 scalar stores (one per k row, a lane of a vec4 along m); 'vec4' gives a thread
   * 4×4 blocks (four vec4 along K from four consecutive rows), transposes them in registers and
   * writes four vec4 along m: a quarter of the store instructions. Needs vectorWidth 4, threadN a
   * multiple of 4 and whole blocks per thread (matmulStoreBlocks).
   */
  readonly stores?: 'scalar' | 'vec4';
}

/** Why stores 'vec4' does not fit this schedule's tile/thread geometry (empty when it does). */
export function matmulStoreBlocks(s: MatmulSchedule): string[] {
  if (s.stores !== 'vec4') return [];
  const reasons: string[] = [];
  if (s.vectorWidth !== 4) reasons.push(`stores vec4 needs vectorWidth 4 (4×4 blocks of vec4 loads along K), got ${s.vectorWidth}`);
  if (s.threadN % 4) reasons.push(`stores vec4 needs threadN a multiple of 4 (src1 staged as vec4 along n), got ${s.threadN}`);
  if (s.tileK % 4) return reasons;
  const threads = (s.tileM / s.threadM) * (s.tileN / s.threadN) * (s.splitK ?? 1);
  for (const [name, tile, rows] of [['src0', 'tileM', s.tileM], ['src1', 'tileN', s.tileN]] as const) {
    const blocks = (rows / 4) * (s.tileK / 4);
    if (rows % 4 || blocks % threads) reasons.push(`stores vec4 needs whole 4×4 blocks a thread: ${name}'s ${tile}/4·tileK/4 = ${blocks} blocks over ${threads} threads`);
  }
  return reasons;
}

/** f32 elements of padding after each staged k row of As and Bs. */
export const matmulPadFloats = (s: MatmulSchedule): number => (s.padding === 'vec4' ? 4 : 0);

/** Accumulator bytes per round of the split-K reduction (workgroup memory) at most. */
export const SPLITK_SCRATCH_BYTES = 16384;

/** The split-K reduction's plan: accumulator rows (j) per round and its workgroup memory in bytes. */
export function splitKScratch(s: MatmulSchedule): { rowsPerRound: number; bytes: number } {
  const SK = s.splitK ?? 1;
  if (SK === 1) return { rowsPerRound: 0, bytes: 0 };
  const perRow = (s.tileM / s.threadM) * (s.tileN / s.threadN) * s.threadM * 4 * (SK - 1); // bytes of one j over the other slices
  let rows = s.threadN;
  while (rows > 1 && (rows * perRow > SPLITK_SCRATCH_BYTES || s.threadN % rows)) rows--;
  return { rowsPerRound: rows, bytes: rows * perRow };
}

/** Where an operand lives in its device buffer, in f32 elements (guards included). */
export interface MatmulOperand {
  readonly offset: number;
  /** Element strides of rows (dim 1) and batches (dims 2 and 3). */
  readonly rowStride: number;
  readonly batchStride2: number;
  readonly batchStride3: number;
  /**
   * Element stride along K (default 1: rows run along K, MUL_MAT's layout). OUT_PROD's operands
   * run along their rows instead: A[m, k] = src0[m + k·nb01], so rowStride 1 and kStride nb01.
   * A kStride other than 1 takes scalar loads only.
   */
  readonly kStride?: number;
}

/** Everything the generated kernel bakes in: plain numbers, so snapshots read as the shape. */
export interface MatmulGeometry {
  /** For the header comment: 'MUL_MAT 255x130x300'. */
  readonly label: string;
  readonly M: number;
  readonly N: number;
  readonly K: number;
  /** dst batches (src1's ne12, ne13) and src0's broadcast ratios r2 = ne12/ne02, r3 = ne13/ne03. */
  readonly ne12: number;
  readonly ne13: number;
  readonly r2: number;
  readonly r3: number;
  readonly src0: MatmulOperand;
  readonly src1: MatmulOperand;
  readonly dst: MatmulOperand;
  /**
   * What is stored per output, over `acc` (the dot product; f32, or vec4<f32> along m when the
   * schedule vectorizes): default 'acc'. E.g. 'acc * alpha' with alpha a constant.
   */
  readonly epilogue?: string;
  /**
   * Quantized weights: WGSL defining `fn wq(i: u32) -> f32` (the weight at i = m·K + k, read from
   * `src0` as u32 words; src/core/quant/weights-wgsl.ts). src0 is then addressed as logical
   * weights and every src0 load decodes through it (vec4 loads: four consecutive weights).
   */
  readonly weights?: string;
  /**
   * Quantized weights in ggml's 32-weight blocks (src/core/quant/block-wgsl.ts): WGSL defining
   * `fn wq_block(blk) -> WqBlock` (32 quants as 8 vec4, d, m; blk = m·K/32 + k/32). The gemv
   * family then gives a thread whole blocks (one scale load, the quants as whole words).
   */
  readonly weightBlocks?: {
    readonly wgsl: string;
    /** Weights per block (32: ggml's legacy types and MXFP4). */
    readonly blockSize: number;
    readonly hasMin: boolean;
    /** wq_block_i8 too (integer quants: the mmvq family). */
    readonly integer: boolean;
    /** `fn wq_unpack(r: WqRaw) -> WqBlock`: the sgmatrix family loads a tile's raw blocks (wq_raw) ahead and decodes them at the store. */
    readonly unpack: string;
    /** wq_block_c8's codes over the quants (mmvq folds it into Σx). */
    readonly bias: number;
    /** Which activations wq_block_c8's words pair with (block-wgsl.ts BlockDecode.dot4Order). */
    readonly dot4Order?: 'k' | 'nib';
    /** WqBlockI8 carries d1, the scale of weights 16…31. */
    readonly halves?: boolean;
    /** wq_pair_c8 (two blocks from an even index, 4-aligned: q4_0, q8_0) is defined: mmvq's blocksPerLoad 2. */
    readonly pairC8?: string;
    /** wq_quad_c8 (four blocks from a multiple of 4, 17 aligned words, constant shifts: ggml mxfp4) is defined: mmvq's blocksPerLoad 4. */
    readonly quadC8?: string;
    /** The decode with src0 as array<vec4<u32>> (a block's codes one vec4 load: mmvq's codeLoads 'vec4'), or why there is none. */
    readonly c8Vec4?: string;
    readonly c8Vec4Why?: string;
    /** c8Vec4 defines wq_oct_c8 (eight q4_0/q8_0 blocks from whole vec4s: mmvq's blocksPerLoad 8). */
    readonly octC8?: boolean;
    /** wq_block_c8 decodes E2M1 code words through wq_e2m1x2_i8 (mmvq's e2m1Decode 'table' may swap in a lookup). */
    readonly e2m1?: boolean;
  };
}

/** The src0 storage element and load expression when src0 holds quantized weights. */
export function weightLoads(weights: string | undefined, vec: boolean): { elem: string | null; load: (at: string) => string; fns: string } {
  if (!weights) return { elem: null, load: (at) => `src0[${at}]`, fns: '' };
  const wq4 = 'fn wq4(i: u32) -> vec4<f32> {\n  let b = i * 4u;\n  return vec4<f32>(wq(b), wq(b + 1u), wq(b + 2u), wq(b + 3u));\n}\n';
  return { elem: 'u32', load: (at) => (vec ? `wq4(${at})` : `wq(${at})`), fns: `\n${weights}${vec ? wq4 : ''}` };
}

export interface MatmulKernel {
  readonly wgsl: string;
  readonly bindings: readonly BindingSpec[];
  readonly dispatch: readonly [number, number, number];
}

/** `expr + n`, or just `expr` when n is 0 (keeps the baked text readable). */
function plus(expr: string, n: number): string {
  return n === 0 ? expr : `${expr} + ${u(n)}`;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** What keeps an operand from being read as array<vec4<f32>> (row starts not on whole vec4s). */
function misalignment(o: MatmulOperand, rows: number, ne2: number, ne3: number): string[] {
  const bad: string[] = [];
  if (o.offset % 4) bad.push(`offset ${o.offset}`);
  if (rows > 1 && o.rowStride % 4) bad.push(`row stride ${o.rowStride}`);
  if (ne2 > 1 && o.batchStride2 % 4) bad.push(`batch stride ${o.batchStride2}`);
  if (ne3 > 1 && o.batchStride3 % 4) bad.push(`batch stride ${o.batchStride3}`);
  return bad;
}

export function vec4Aligned(o: MatmulOperand, rows: number, ne2: number, ne3: number): boolean {
  return misalignment(o, rows, ne2, ne3).length === 0;
}

/**
 * Why this schedule cannot take this geometry (empty when it can). The knob is named so the
 * reason says what to change.
 */
export function matmulFits(s: MatmulSchedule, g: MatmulGeometry, ne02: number, ne03: number): string[] {
  const reasons: string[] = [];
  const strided = [['src0', g.src0], ['src1', g.src1]].filter(([, o]) => ((o as MatmulOperand).kStride ?? 1) !== 1).map(([n]) => n);
  if (s.vectorWidth === 4 && strided.length) reasons.push(`vectorWidth 4 needs K contiguous, but ${strided.join(' and ')} ${strided.length > 1 ? 'have' : 'has'} a K stride other than 1`);
  else if (s.vectorWidth === 4) {
    // With K % 4 != 0 packed rows are misaligned too; the K reason is the one to act on.
    if (g.K % 4) reasons.push(`vectorWidth 4 needs K % 4 == 0, got K = ${g.K}`);
    else {
      const check = (name: string, o: MatmulOperand, rows: number, ne2: number, ne3: number) => {
        const bad = misalignment(o, rows, ne2, ne3);
        if (bad.length) reasons.push(`vectorWidth 4 needs ${name}'s rows to start on 4-element boundaries (${bad.join(', ')} elements)`);
      };
      check('src0', g.src0, g.M, ne02, ne03);
      check('src1', g.src1, g.N, g.ne12, g.ne13);
    }
  }
  const gx = Math.ceil(g.M / s.tileM);
  const gy = Math.ceil(g.N / s.tileN);
  if (gx > MAX_WORKGROUPS_PER_DIM) reasons.push(`tileM ${s.tileM} needs ${gx} workgroups along x for M = ${g.M}, over ${MAX_WORKGROUPS_PER_DIM}`);
  if (gy > MAX_WORKGROUPS_PER_DIM) reasons.push(`tileN ${s.tileN} needs ${gy} workgroups along y for N = ${g.N}, over ${MAX_WORKGROUPS_PER_DIM}`);
  return reasons;
}

const XYZW = ['x', 'y', 'z', 'w'];

/**
 * An operand's offset plus its batch terms (WGSL, in units of `unitOf` elements), with i2/i3 the
 * batch indices: src0 broadcast over src1's batches as ggml does (i02 = i2 / r2, i03 = i3 / r3);
 * a batch dim of 1 adds nothing. Shared by the tiled, gemv and sgmatrix kernels.
 */
export function batchBase(batch: { readonly ne12: number; readonly ne13: number }, o: MatmulOperand, r2: number, r3: number, unitOf = 1): string {
  const div = (i: string, r: number) => (r === 1 ? i : `(${i} / ${u(r)})`);
  const terms = [u(o.offset / unitOf)];
  if (batch.ne12 / r2 > 1) terms.push(`${div('i2', r2)} * ${u(o.batchStride2 / unitOf)}`);
  if (batch.ne13 / r3 > 1) terms.push(`${div('i3', r3)} * ${u(o.batchStride3 / unitOf)}`);
  return terms.join(' + ');
}

/** One operand's staging: which global element each thread loads and where it goes in shared memory. */
interface Staging {
  /** 'a' or 'b': prefixes of the generated names. */
  readonly p: string;
  readonly global: 'src0' | 'src1';
  readonly shared: string;
  /** Rows of the tile (tileM or tileN) and how many of the operand exist (M or N). */
  readonly rows: number;
  readonly extent: number;
  /** WGSL expression of the tile's first row. */
  readonly rowBase: string;
  /** Operand base in load units (vec4 or f32), batch included: a WGSL expression. */
  readonly base: string;
  readonly rowStride: number;
  /** Stride along K in load units (1 unless the operand's rows do not run along K). */
  readonly kStride: number;
  /** Shared memory holds vec4s along the tile's rows (vs scalars). */
  readonly sharedVec: boolean;
  /** Shared elements (vec4 when sharedVec, else f32) per k row: the tile's rows plus padding. */
  readonly rowLen: number;
}

export function generateMatmul(s: MatmulSchedule, g: MatmulGeometry): MatmulKernel {
  const { tileM: TM, tileN: TN, tileK: TK, threadM: RM, threadN: RN } = s;
  const vec = s.vectorWidth === 4;
  const WX = TM / RM;
  const WY = TN / RN;
  const SK = s.splitK ?? 1;
  const threads = WX * WY * SK;
  const unit = vec ? 4 : 1; // elements per global load along K
  const KU = g.K / unit; // K in load units
  const CV = TK / unit; // load units per tile row
  const nTiles = Math.ceil(g.K / TK);
  const kTail = g.K % TK !== 0;
  // vec4 accumulators along m; src1 values come as vec4 along n when the register block allows.
  const bVec = vec && RN % 4 === 0;
  const mSlots = vec ? RM / 4 : RM;
  const dstVec = vec && g.M % 4 === 0 && vec4Aligned(g.dst, g.N, g.ne12, g.ne13);
  const double = s.staging === 'double';
  const elem = vec ? 'vec4<f32>' : 'f32';
  const zero = vec ? 'vec4<f32>()' : '0.0';
  // Shared elements per staged k row (tile rows plus the padding), As and Bs.
  const pad = matmulPadFloats(s);
  const aRL = (TM + pad) / (vec ? 4 : 1);
  const bRL = (TN + pad) / (bVec ? 4 : 1);
  const aLen = TK * aRL;
  const w = weightLoads(g.weights, vec);
  const bLen = TK * bRL;

  const lines: string[] = [];
  const emit = (...ls: string[]) => lines.push(...ls);

  // Batch bases: src0 broadcast over src1's batches as ggml does (i02 = i2 / r2, i03 = i3 / r3).
  const batched = g.ne12 * g.ne13 > 1;
  if (batched) {
    if (g.ne13 > 1) emit(`let i2 = wid.z % ${u(g.ne12)};`, `let i3 = wid.z / ${u(g.ne12)};`);
    else emit('let i2 = wid.z;');
  }
  const base = (o: MatmulOperand, r2: number, r3: number, unitOf: number) => batchBase(g, o, r2, r3, unitOf);
  emit(`let base0 = ${base(g.src0, g.r2, g.r3, unit)};`, `let base1 = ${base(g.src1, 1, 1, unit)};`, `let based = ${base(g.dst, 1, 1, dstVec ? 4 : 1)};`);
  emit(`let mBase = wid.x * ${u(TM)};`, `let nBase = wid.y * ${u(TN)};`, 'let tx = lid3.x;', 'let ty = lid3.y;');
  if (SK > 1) emit('let kz = lid3.z;');

  const stA: Staging = { p: 'a', global: 'src0', shared: 'As', rows: TM, extent: g.M, rowBase: 'mBase', base: 'base0', rowStride: g.src0.rowStride / unit, kStride: g.src0.kStride ?? 1, sharedVec: vec, rowLen: aRL };
  const stB: Staging = { p: 'b', global: 'src1', shared: 'Bs', rows: TN, extent: g.N, rowBase: 'nBase', base: 'base1', rowStride: g.src1.rowStride / unit, kStride: g.src1.kStride ?? 1, sharedVec: bVec, rowLen: bRL };

  // Load slots: unit v of a tile goes to thread v % threads. Lanes walk KG units along K (32 B,
  // one memory sector) before the next row, so a warp's loads stay sector-aligned and its
  // transposing stores into shared memory spread over banks. Slot indices are loop-invariant.
  // stores 'vec4': slot j is row 4·r + j % 4 of block j / 4 (blocks of 4 rows × one vec4 along
  // K, mapped as the scalar slots map vec4s: lanes walk KG units along K, then row blocks).
  const vStores = vec && s.stores === 'vec4';
  const slotCount = (st: Staging) => Math.ceil((st.rows * CV) / threads);
  const slotGuarded = (st: Staging, j: number) => !vStores && (j + 1) * threads > st.rows * CV;
  /** The slot's (or its block's) K column name. */
  const col = (st: Staging, j: number) => `${st.p}c${vStores ? j >> 2 : j}`;
  const blockDecls = (st: Staging): string[] => {
    const out: string[] = [];
    const RB = st.rows / 4;
    const KG = CV % 2 === 0 ? 2 : 1;
    for (let q = 0; q < slotCount(st) / 4; q++) {
      const v = q === 0 ? 'lid' : `(lid + ${u(q * threads)})`;
      const r = CV === KG ? `${v} / ${u(KG)}` : KG === 1 ? `${v} % ${u(RB)}` : `(${v} / ${u(KG)}) % ${u(RB)}`;
      const c = CV === KG ? (KG === 1 ? '0u' : `${v} % ${u(KG)}`) : KG === 1 ? `${v} / ${u(RB)}` : `${v} % ${u(KG)} + ${v} / ${u(KG * RB)} * ${u(KG)}`;
      out.push(`let ${st.p}r${q} = ${r};`, `let ${st.p}c${q} = ${c};`);
      for (let i = 0; i < 4; i++) {
        const at = plus(`${st.rowBase} + ${st.p}r${q} * 4u`, i);
        const row = st.extent % st.rows === 0 ? `(${at})` : `min(${at}, ${u(st.extent - 1)})`;
        out.push(`let ${st.p}g${4 * q + i} = ${st.base} + ${row} * ${u(st.rowStride)} + ${st.p}c${q};`);
      }
      out.push(`let ${st.p}s${q} = ${st.p}c${q} * ${u(4 * st.rowLen)} + ${st.p}r${q};`);
    }
    return out;
  };
  const slotDecls = (st: Staging): string[] => {
    if (vStores) return blockDecls(st);
    const out: string[] = [];
    const total = st.rows * CV;
    // Along K when K is contiguous; across rows (coalesced when they are) when it is strided.
    const KG = vec ? (CV % 2 === 0 ? 2 : 1) : st.kStride !== 1 ? 1 : gcd(CV, 8);
    const kTimes = (e: string) => (st.kStride === 1 ? e : `${e} * ${u(st.kStride)}`);
    for (let j = 0; j < slotCount(st); j++) {
      const v = j === 0 ? 'lid' : `(lid + ${u(j * threads)})`;
      const r = CV === KG ? `${v} / ${u(KG)}` : KG === 1 ? `${v} % ${u(st.rows)}` : `(${v} / ${u(KG)}) % ${u(st.rows)}`;
      const c = CV === KG ? (KG === 1 ? '0u' : `${v} % ${u(KG)}`) : KG === 1 ? `${v} / ${u(st.rows)}` : `${v} % ${u(KG)} + ${v} / ${u(KG * st.rows)} * ${u(KG)}`;
      out.push(`let ${st.p}r${j} = ${r};`, `let ${st.p}c${j} = ${c};`);
      // Overhanging rows read the last real row (discarded at the store): no branch in the loop.
      const row = st.extent % st.rows === 0 ? `(${st.rowBase} + ${st.p}r${j})` : `min(${st.rowBase} + ${st.p}r${j}, ${u(st.extent - 1)})`;
      out.push(`let ${st.p}g${j} = ${st.base} + ${row} * ${u(st.rowStride)} + ${kTimes(`${st.p}c${j}`)};`);
      // Where the slot's first k lands in shared memory (k-major; vec4 slots cover 4 k).
      if (!vec) out.push(`let ${st.p}s${j} = ${st.p}c${j} * ${u(st.rowLen)} + ${st.p}r${j};`);
      else if (st.sharedVec) out.push(`let ${st.p}s${j} = ${st.p}c${j} * ${u(4 * st.rowLen)} + ${st.p}r${j} / 4u;`, `let ${st.p}q${j} = ${st.p}r${j} % 4u;`);
      else out.push(`let ${st.p}s${j} = ${st.p}c${j} * ${u(4 * st.rowLen)} + ${st.p}r${j};`);
      if (slotGuarded(st, j)) out.push(`let ${st.p}ok${j} = ${v} < ${u(total)};`);
    }
    return out;
  };
  emit(...slotDecls(stA), ...slotDecls(stB));

  /** Global loads of tile `t` into the slot registers `${p}x${j}`. */
  const loads = (st: Staging, t: string): string[] =>
    Array.from({ length: slotCount(st) }, (_, j) => {
      const tk = t === 't' ? t : `(${t})`;
      const ks = st.kStride;
      const cj = col(st, j);
      const ku = t === '0u' ? cj : `${tk} * ${u(CV)} + ${cj}`;
      const at = t === '0u' ? `${st.p}g${j}` : `${st.p}g${j} + ${tk} * ${u(CV * ks)}`;
      // The K tail: clamp the address (never past the row) and zero what lies beyond K.
      const clamped = ks === 1 ? `${st.p}g${j} - ${cj} + min(${ku}, ${u(KU - 1)})` : `${st.p}g${j} - ${cj} * ${u(ks)} + min(${ku}, ${u(KU - 1)}) * ${u(ks)}`;
      const ld = (x: string) => (st.global === 'src0' ? w.load(x) : `${st.global}[${x}]`);
      const value = kTail ? `select(${zero}, ${ld(clamped)}, ${ku} < ${u(KU)})` : ld(at);
      const assign = `${st.p}x${j} = ${value};`;
      return slotGuarded(st, j) ? `if (${st.p}ok${j}) {\n  ${assign}\n}` : assign;
    });
  /** Shared stores of the slot registers, transposed to k-major, at shared offset `off`. */
  const stores = (st: Staging, off: string): string[] =>
    vStores ? blockStores(st, off) : Array.from({ length: slotCount(st) }, (_, j) => {
      const at = (n: number) => plus(off === '' ? `${st.p}s${j}` : `${off} + ${st.p}s${j}`, n);
      const ls: string[] = [];
      if (!vec) ls.push(`${st.shared}[${at(0)}] = ${st.p}x${j};`);
      else for (let l = 0; l < 4; l++) ls.push(`${st.shared}[${at(l * st.rowLen)}]${st.sharedVec ? `[${st.p}q${j}]` : ''} = ${st.p}x${j}.${XYZW[l]};`);
      return slotGuarded(st, j) ? `if (${st.p}ok${j}) {\n${indent(ls.join('\n'), 2)}\n}` : ls.join('\n');
    });

  /** stores 'vec4': each 4×4 block transposed in registers, four vec4 stores along m (one per k row). */
  const blockStores = (st: Staging, off: string): string[] =>
    Array.from({ length: slotCount(st) / 4 }, (_, q) =>
      Array.from({ length: 4 }, (_, l) => {
        const at = plus(off === '' ? `${st.p}s${q}` : `${off} + ${st.p}s${q}`, l * st.rowLen);
        return `${st.shared}[${at}] = vec4<f32>(${[0, 1, 2, 3].map((i) => `${st.p}x${4 * q + i}.${XYZW[l]}`).join(', ')});`;
      }).join('\n'),
    );

  // Register block: m slot i is vec4 (or element) tx + i·WX, n index j is element
  // 4·(ty + (j/4)·WY) + j%4 (or ty + j·WY): threads of a warp read neighbouring vectors of
  // As/Bs, so shared reads are conflict-free and dst stores coalesce.
  const acc = (i: number, j: number) => `c${i}_${j}`;
  for (let j = 0; j < RN; j++) for (let i = 0; i < mSlots; i++) emit(`var ${acc(i, j)} = ${zero};`);

  const bSlots = bVec ? RN / 4 : RN;
  /** One kk's fragments (As and Bs reads at row offsets `ak`, `bk` plus `off` rows), named with suffix `sfx`. */
  const fragments = (ak: string, bk: string, off: number, sfx: string): string[] => [
    ...Array.from({ length: mSlots }, (_, i) => `let a${i}${sfx} = As[${plus(ak, off * aRL + i * WX)}];`),
    ...Array.from({ length: bSlots }, (_, j) => `let b${j}${sfx} = Bs[${plus(bk, off * bRL + j * WY)}];`),
  ];
  const fmas = (sfx: string): string[] => {
    const out: string[] = [];
    for (let j = 0; j < RN; j++) {
      const b = bVec ? `b${j >> 2}${sfx}.${XYZW[j & 3]}` : `b${j}${sfx}`;
      for (let i = 0; i < mSlots; i++) out.push(`${acc(i, j)} = ${acc(i, j)} + a${i}${sfx} * ${b};`);
    }
    return out;
  };
  const inner = s.inner ?? 'loop';
  const compute = (aOff: string, bOff: string): string[] => {
    if (inner === 'loop') {
      const body = [`let ak = ${aOff}kk * ${u(aRL)} + tx;`, `let bk = ${bOff}kk * ${u(bRL)} + ty;`, ...fragments('ak', 'bk', 0, ''), ...fmas('')];
      // Split K: slice lid3.z multiplies k = z·TK/SK … (z + 1)·TK/SK − 1 of each tile.
      const range = SK === 1 ? `var kk = 0u; kk < ${u(TK)}` : `var kk = kz * ${u(TK / SK)}; kk < kz * ${u(TK / SK)} + ${u(TK / SK)}`;
      return [`for (${range}; kk = kk + 1u) {`, indent(body.join('\n'), 2), '}'];
    }
    const pipeline = (body: string[], steps: number) => {
      body.push(...fragments('ak', 'bk', 0, '_0'));
      for (let kk = 0; kk < steps; kk++) body.push(...(kk + 1 < steps ? fragments('ak', 'bk', kk + 1, `_${kk + 1}`) : []), ...fmas(`_${kk}`));
      return body;
    };
    if (inner === 'pipelined4') {
      // A loop over groups of 4 k, each group written out and pipelined (a quarter of the code of 'pipelined' at tileK 16).
      const body = pipeline([`let ak = ${aOff}k4 * ${u(aRL)} + tx;`, `let bk = ${bOff}k4 * ${u(bRL)} + ty;`], 4);
      const range = SK === 1 ? `var k4 = 0u; k4 < ${u(TK)}` : `var k4 = kz * ${u(TK / SK)}; k4 < kz * ${u(TK / SK)} + ${u(TK / SK)}`;
      return [`for (${range}; k4 = k4 + 4u) {`, indent(body.join('\n'), 2), '}'];
    }
    // Unrolled: every kk of the slice written out at constant offsets from one base per operand
    // (a block, so the two halves of double staging can both name theirs).
    const body = [`let ak = ${aOff}${SK > 1 ? `kz * ${u((TK / SK) * aRL)} + ` : ''}tx;`, `let bk = ${bOff}${SK > 1 ? `kz * ${u((TK / SK) * bRL)} + ` : ''}ty;`];
    const steps = TK / SK;
    if (inner === 'unrolled') for (let kk = 0; kk < steps; kk++) body.push(...fragments('ak', 'bk', kk, `_${kk}`), ...fmas(`_${kk}`));
    else pipeline(body, steps);
    return ['{', indent(body.join('\n'), 2), '}'];
  };
  const ifMore = (ls: string[]) => (nTiles > 1 ? [`if (t + 1u < ${u(nTiles)}) {`, indent(ls.join('\n'), 2), '}'] : []);
  const slotVars = (st: Staging) => Array.from({ length: slotCount(st) }, (_, j) => `var ${st.p}x${j}: ${elem};`);
  const loop = (body: string[]) => [`for (var t = 0u; t < ${u(nTiles)}; t = t + 1u) {`, indent(body.join('\n'), 2), '}'];
  const next = (t: string) => [...loads(stA, t), ...loads(stB, t)];

  switch (s.staging) {
    case 'single':
      emit(...slotVars(stA), ...slotVars(stB));
      emit(...loop([...next('t'), ...stores(stA, ''), ...stores(stB, ''), 'workgroupBarrier();', ...compute('', ''), 'workgroupBarrier();']));
      break;
    case 'prefetch':
      // Tile t+1's global loads are in flight while tile t is computed.
      emit(...slotVars(stA), ...slotVars(stB), ...next('0u'));
      emit(...loop([...stores(stA, ''), ...stores(stB, ''), 'workgroupBarrier();', ...ifMore(next('t + 1u')), ...compute('', ''), 'workgroupBarrier();']));
      break;
    case 'double': {
      // Two shared buffers: tile t+1 is stored into the one tile t is not reading, so one
      // barrier per tile suffices (the buffer written in t was last read in t−1, before its barrier).
      // Two tiles per iteration, so each half names its buffer by a constant offset, never
      // `(t & 1) * len` (sgmatrix's double staging ran 2.2× slower than prefetch on the H200 with
      // such a runtime-picked buffer); an odd last tile is computed from buffer 0 after the loop.
      const pairs = Math.floor(nTiles / 2);
      const ifMore2 = (ls: string[]) => [`if (t + 2u < ${u(nTiles)}) {`, indent(ls.join('\n'), 2), '}'];
      emit(...slotVars(stA), ...slotVars(stB), ...next('0u'), ...stores(stA, ''), ...stores(stB, ''), 'workgroupBarrier();');
      if (pairs) {
        const first = [...next('t + 1u'), ...compute('', ''), ...stores(stA, u(aLen)), ...stores(stB, u(bLen)), 'workgroupBarrier();'];
        const second = [...ifMore2(next('t + 2u')), ...compute(`${u(aLen)} + `, `${u(bLen)} + `), ...ifMore2([...stores(stA, ''), ...stores(stB, '')]), 'workgroupBarrier();'];
        emit(`for (var t = 0u; t < ${u(2 * pairs)}; t = t + 2u) {`, indent([...first, ...second].join('\n'), 2), '}');
      }
      if (nTiles % 2) emit(...compute('', ''));
      break;
    }
  }

  // Split K: the other slices hand their sums to slice 0 through workgroup memory, in rounds of
  // rowsPerRound accumulator rows (every loop above ends on a barrier, so the first round needs none).
  const { rowsPerRound } = splitKScratch(s);
  const rsLen = rowsPerRound * mSlots * (SK - 1) * WX * WY;
  if (SK > 1) {
    emit(`let tid = ty * ${u(WX)} + tx;`);
    for (let j0 = 0; j0 < RN; j0 += rowsPerRound) {
      const put: string[] = [];
      const add: string[] = [];
      for (let j = j0; j < j0 + rowsPerRound; j++) {
        for (let i = 0; i < mSlots; i++) {
          const q = ((j - j0) * mSlots + i) * (SK - 1);
          put.push(`Rs[(${u(q)} + kz - 1u) * ${u(WX * WY)} + tid] = ${acc(i, j)};`);
          for (let z = 1; z < SK; z++) add.push(`${acc(i, j)} = ${acc(i, j)} + Rs[${plus('tid', (q + z - 1) * WX * WY)}];`);
        }
      }
      if (j0 > 0) emit('workgroupBarrier();');
      emit('if (kz != 0u) {', indent(put.join('\n'), 2), '}', 'workgroupBarrier();', 'if (kz == 0u) {', indent(add.join('\n'), 2), '}');
    }
  }
  const storeLines: string[] = [];

  // Stores: dst row n is contiguous along m; checks only where the tile overhangs M or N.
  const mCheck = g.M % TM !== 0;
  const nCheck = g.N % TN !== 0;
  const sd1 = g.dst.rowStride / (dstVec ? 4 : 1);
  storeLines.push(dstVec ? 'let mt = mBase / 4u + tx;' : vec ? 'let mt = mBase + tx * 4u;' : 'let mt = mBase + tx;');
  storeLines.push(bVec ? 'let nt = nBase + ty * 4u;' : 'let nt = nBase + ty;');
  const epi = (a: string) => (g.epilogue ? renameIdents(g.epilogue, ['acc'], () => a) : a);
  const guarded = (check: boolean, cond: string, body: string) => (check ? `if (${cond}) {\n${indent(body, 2)}\n}` : body);
  for (let j = 0; j < RN; j++) {
    const row: string[] = [`let drow = based + n * ${u(sd1)};`];
    for (let i = 0; i < mSlots; i++) {
      if (dstVec) {
        const mv = plus('mt', i * WX);
        row.push(guarded(mCheck, `${mv} < ${u(g.M / 4)}`, `dst[drow + ${mv}] = ${epi(acc(i, j))};`));
      } else if (vec) {
        for (let l = 0; l < 4; l++) {
          const m = plus('mt', i * WX * 4 + l);
          row.push(guarded(mCheck, `${m} < ${u(g.M)}`, `dst[drow + ${m}] = ${epi(`${acc(i, j)}.${XYZW[l]}`)};`));
        }
      } else {
        const m = plus('mt', i * WX);
        row.push(guarded(mCheck, `${m} < ${u(g.M)}`, `dst[drow + ${m}] = ${epi(acc(i, j))};`));
      }
    }
    const n = plus('nt', bVec ? (j >> 2) * WY * 4 + (j & 3) : j * WY);
    storeLines.push(`{\n${indent([`let n = ${n};`, guarded(nCheck, `n < ${u(g.N)}`, row.join('\n'))].join('\n'), 2)}\n}`);
  }
  // With split K, slice 0 holds the sums and stores them.
  if (SK > 1) emit('if (kz == 0u) {', indent(storeLines.join('\n'), 2), '}');
  else emit(...storeLines);

  const bindings = MATMUL_BINDINGS;
  const sharedLen = (n: number) => n * (double ? 2 : 1);
  const wgsl = `// generated: ${g.label}, ${scheduleKey(s)}
// ${nTiles} K tile(s)${kTail ? ' (K tail zero-filled)' : ''}; bounds checks on ${[mCheck ? 'M' : '', nCheck ? 'N' : ''].filter(Boolean).join(', ') || 'none'}; ${dstVec ? 'vec4' : 'scalar'} dst stores
${storageDecl(0, 'src0', 'read', w.elem ?? elem)}
${storageDecl(1, 'src1', 'read', elem)}
${storageDecl(2, 'dst', 'read_write', dstVec ? 'vec4<f32>' : 'f32')}
${w.fns}
var<workgroup> As: array<${elem}, ${sharedLen(aLen)}>;
var<workgroup> Bs: array<${bVec ? 'vec4<f32>' : 'f32'}, ${sharedLen(bLen)}>;${SK > 1 ? `\nvar<workgroup> Rs: array<${elem}, ${rsLen}>;` : ''}

@compute @workgroup_size(${WX}, ${WY}, ${SK})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid3: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
${indent(lines.join('\n'), 2)}
}
`;
  return { wgsl, bindings, dispatch: [Math.ceil(g.M / TM), Math.ceil(g.N / TN), g.ne12 * g.ne13] };
}
