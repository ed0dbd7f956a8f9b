// The mmvq family: ggml's MMVQ for quantized GEMV (N ≤ 8): activations (src1, f32 or f16) rounded to
// ggml's q8_1 blocks of 32 (four i8 per u32, round(x / d) with d = amax / 127, and d·Σq), then
// dot4I8Packed over whole weight blocks: acc += d_w·d_x·Σ(c·q_x − bias·q_x) + m_w·(d_x·Σq_x).
// Two ways to get the q8_1 activations (the `activations` knob):
//   'prequantized': pass 1 quantizes them into a scratch buffer (three vec4<u32> per block: the
//                   quants, then d, d·Σq and Σq), pass 2 is the GEMV; both sit in one compute pass,
//                   so a timed run is their sum;
//   'fused':        one pass: a thread quantizes each activation block it visits in registers
//                   (q8_1_block, the very function pass 1 runs, so the rounding is bit for bit the
//                   same) and uses it for its rowsPerThread rows;
//   'shared':       one pass: each workgroup first quantizes all N·K/32 activation blocks (q8_1_block
//                   again) into workgroup memory in pass 1's layout, one barrier, then the GEMV of
//                   'prequantized' reads them from there (the same sums, bit for bit). N·K/32·48 B of
//                   workgroup memory (24 KiB at K = 16384, N = 1): fits() checks it against the device's
//                   limit; more rows per workgroup spread the quantize over more rows.
// The weights come as unsigned codes (wq_block_c8, src/core/quant/block-wgsl.ts) and the format's
// bias (q4_0: 8, q5_0: 16) is taken once per block through Σq_x, in integers (exact, so the result
// is the per-byte i8 form's), instead of per byte. E2M1 codes (mxfp4, nvfp4…) come as their ×2
// integers ±{0…12} with the scale halved; a block with two scales (nvfp4's 16-weight blocks) sums
// two partial dots; Track-1's 4-bit code words pair with activations packed in nibble order
// (dot4Order 'nib': the q8_1 pack, not the weights, takes the shuffle). The activations are rounded, so the kernel
// declares q8_1 numerics (correctness.ts: eps 2^-8 and ggml's NMSE threshold). Needs WGSL's
// packed_4x8_integer_dot_product; the subgroup reduction needs 'subgroups'. E2M1 codes may instead be looked
// up in a 32 KiB per-lane table in workgroup memory (e2m1Decode 'table', block-wgsl.ts e2m1TableDecode): the
// integer ALU's decode work moves to the shared-memory pipe, and the activations are packed in the table's order.
import type { DeviceLimits } from '../adapter';
import { E2M1_TABLE_BYTES, E2M1_TABLE_ORDER, e2m1TableDecode, type Dot4Order } from '../quant/block-wgsl';
import { computeMain, storageDecl, u } from '../codegen/wgsl';
import { MAX_WORKGROUPS_PER_DIM } from '../kernel';
import { rowReduceBuiltins, rowReduceEnables, type GemvSnippet } from './gemv';
import { MATMUL_BINDINGS, vec4Aligned } from './matmul-wgsl';
import { scheduleKey, type FamilyDef } from './types';

export const DOT4_WGSL_FEATURE = 'packed_4x8_integer_dot_product';

export interface MmvqSchedule {
  readonly family: 'mmvq';
  readonly workgroupSize: number;
  /** Weight rows per workgroup. */
  readonly rowsPerWorkgroup: number;
  /**
   * Rows a thread takes at each block it visits (default 1): one activation block (loaded or
   * quantized) feeds all of them, and their weight loads are in flight together. The
   * workgroupSize·rowsPerThread/rowsPerWorkgroup threads of a row group split its blocks.
   */
  readonly rowsPerThread?: number;
  /** Blocks of each row a thread loads per loop step (kb, kb + T, …) before using any (default 1): loads in flight. */
  readonly blocksPerThread?: number;
  /** 'prequantized' (a first pass, default), 'fused' (quantized in registers inside the GEMV) or 'shared' (quantized once per workgroup into workgroup memory); the last two are one pass. */
  readonly activations?: MmvqActivations;
  /**
   * 'shared' only: threads per activation block in the quantize (default 1: one thread reads the block's 32
   * values). 4: each of four neighbouring threads reads two vec4 (the workgroup reads src1 coalesced), their
   * max and Σq meet by subgroupShuffleXor (exact: the same q8_1 block bit for bit); needs 'subgroups'.
   */
  readonly quantizeThreads?: number;
  /**
   * Consecutive blocks of a row a thread loads as one (default 1). 2: blocks 2u, 2u + 1 from their 4-aligned
   * 2·qsWords + 1 words (wq_pair_c8: q4_0 9 words for 36 B, q8_0 17 for 68 B, no select on alignment); the thread
   * steps over pairs (u = j, j + T, …). q4_0 and q8_0 only, K/32 even. 4: blocks 4u…4u + 3 from their 4-aligned words
   * with constant shifts (wq_quad_c8: ggml mxfp4's 17 B blocks, four are 17 words), K/32 a multiple of 4. 8 (with
   * codeLoads 'vec4'): blocks 8u…8u + 7 from whole vec4s (wq_oct_c8: q4_0 144 B = 9 vec4, q8_0 272 B = 17), K/32 a multiple of 8.
   */
  readonly blocksPerLoad?: number;
  /**
   * How a block's code words are loaded (default 'words': src0 as array<u32>, word by word through wq_w). 'vec4': src0
   * is declared array<vec4<u32>> for the whole kernel (WGSL allows one declaration of a binding), a block's 16 code
   * bytes are one 16-byte load (8-bit codes: two) and the scales component picks (block-wgsl.ts c8Vec4). Track-1
   * integer-dot formats (nvfp4, mxfp4_t1, fp4, int4, int8, mxint4…) whose code stream starts 16-byte aligned; the
   * ggml blocks (18, 20, 22, 24, 34, 17 B) are refused.
   */
  readonly codeLoads?: MmvqCodeLoads;
  /**
   * How a block's integer dot becomes f32 (default 'convert': f32(Σ), an int → float conversion per dot, a quarter-rate
   * instruction on NVIDIA GPUs; nvfp4's two halves take two). 'mantissa': the dot chain starts from 0x4b400000 (the first
   * dot4I8Packed's accumulator) and the sum, read as an f32, less 1.5·2^23 is Σ exactly: |Σ| < 2^22 for every format (at
   * most 32 · 128 · 127 + 16 · 32 · 127, 8-bit codes against q8_1's |q| ≤ 127 and the bias through Σq), so 1.5·2^23 + Σ is
   * an integer in [2^23, 2^24), an f32 with Σ in its mantissa. The same sums bit for bit.
   */
  readonly dotFloat?: MmvqDotFloat;
  /** 'shared' only: 'weights' issues a thread's first step of weight loads before the quantize (their latency hides behind it); default 'none'. */
  readonly preload?: MmvqPreload;
  /**
   * How E2M1 code words become i8 (default 'bits': wq_e2m1x2_i8's bit operations). 'table': each code byte looked up
   * in a table of 256 entries × 32 lane copies (32 KiB of workgroup memory, filled once per workgroup; block-wgsl.ts
   * e2m1TableDecode), the activations packed in its order. E2M1 formats only (nvfp4, mxfp4_t1, fp4, ggml mxfp4);
   * the same i8 values, so the same sums bit for bit.
   */
  readonly e2m1Decode?: MmvqE2m1Decode;
  readonly reduction: 'subgroup' | 'shared';
}

export type MmvqActivations = 'prequantized' | 'fused' | 'shared';
const ACTIVATIONS: readonly MmvqActivations[] = ['prequantized', 'fused', 'shared'];
export type MmvqPreload = 'none' | 'weights';
export type MmvqCodeLoads = 'words' | 'vec4';
export type MmvqDotFloat = 'convert' | 'mantissa';
const DOT_FLOATS: readonly MmvqDotFloat[] = ['convert', 'mantissa'];
export type MmvqE2m1Decode = 'bits' | 'table';
const E2M1_DECODES: readonly MmvqE2m1Decode[] = ['bits', 'table'];
const CODE_LOADS: readonly MmvqCodeLoads[] = ['words', 'vec4'];
const PRELOADS: readonly MmvqPreload[] = ['none', 'weights'];

/** vec4<u32> per q8_1 activation block in the scratch (and in 'shared' workgroup memory): quants 0–15, 16–31, then (d, d·Σq, Σq, 0). */
const XQ_VEC4S = 3;
const QUANT_WG = 64;
const isPow2 = (n: number) => Number.isInteger(n) && n > 0 && (n & (n - 1)) === 0;
const rowsPerThread = (s: MmvqSchedule) => s.rowsPerThread ?? 1;
const fused = (s: MmvqSchedule) => s.activations === 'fused';
const sharedX = (s: MmvqSchedule) => s.activations === 'shared';
const prequantized = (s: MmvqSchedule) => !fused(s) && !sharedX(s);
const blocksPerThread = (s: MmvqSchedule) => s.blocksPerThread ?? 1;
const quantizeThreads = (s: MmvqSchedule) => s.quantizeThreads ?? 1;
const preload = (s: MmvqSchedule) => s.preload === 'weights';
const blocksPerLoad = (s: MmvqSchedule) => s.blocksPerLoad ?? 1;
const vec4Codes = (s: MmvqSchedule) => s.codeLoads === 'vec4';
const mantissaDots = (s: MmvqSchedule) => s.dotFloat === 'mantissa';
const e2m1Table = (s: MmvqSchedule) => s.e2m1Decode === 'table';
/** The E2M1 table's workgroup memory (e2m1Decode 'table'). */
const tableBytes = (s: MmvqSchedule) => (e2m1Table(s) ? E2M1_TABLE_BYTES : 0);
/** Which activations wq_block_c8's words pair with: the format's order, or the table's. */
const dot4Order = (s: MmvqSchedule, k: GemvSnippet): Dot4Order => {
  const order = k.weightBlocks!.dot4Order ?? 'k';
  return e2m1Table(s) ? E2M1_TABLE_ORDER[order] : order;
};
/** Threads that split one row group's blocks. */
const threadsPerGroup = (s: MmvqSchedule) => (s.workgroupSize * rowsPerThread(s)) / s.rowsPerWorkgroup;
/** The kernel needs 'subgroups': a subgroup reduction over a row group's threads, or 'shared''s four-lane quantize. */
const usesSubgroups = (s: MmvqSchedule) => (s.reduction === 'subgroup' && threadsPerGroup(s) > 1) || (sharedX(s) && quantizeThreads(s) > 1);
/** f32 partials in workgroup memory: one per thread, row and column when a row group has several threads (n columns; the schedule alone: N ≤ 8). */
const partialsBytes = (s: MmvqSchedule, n = 8) => (threadsPerGroup(s) > 1 ? s.workgroupSize * rowsPerThread(s) * n * 4 : 0);
/** q8_1 blocks of all N columns in workgroup memory ('shared'). */
const sharedXBytes = (s: MmvqSchedule, k: Pick<GemvSnippet, 'N' | 'K'>) => (sharedX(s) ? ((k.N * k.K) / 32) * XQ_VEC4S * 16 : 0);
/** The workgroup memory this schedule declares for this case. */
export const mmvqWorkgroupBytes = (s: MmvqSchedule, k: Pick<GemvSnippet, 'N' | 'K'>) => sharedXBytes(s, k) + partialsBytes(s, k.N) + tableBytes(s);

function fitsMmvq(s: MmvqSchedule, k: GemvSnippet, limits?: DeviceLimits): string[] {
  const reasons: string[] = [];
  if (!k.weightBlocks?.integer) reasons.push('mmvq takes weights whose codes are integers for dot4I8Packed (ggml q4_0, q4_1, q5_0, q5_1, q8_0, mxfp4; Track-1 E2M1, int4/int8, mxint4/mxint8), not this src0');
  if (k.K % 32) reasons.push(`mmvq needs K % 32 == 0, got K = ${k.K}`);
  if (k.N > 8) reasons.push(`mmvq covers N ≤ 8, got N = ${k.N}`);
  if (k.ne12 * k.ne13 > 1) reasons.push('mmvq takes one batch');
  if (!vec4Aligned(k.src1, k.N, k.ne12, k.ne13)) reasons.push(`mmvq reads src1 as vec4: its rows must start on 4-element boundaries (offset ${k.src1.offset}, row stride ${k.src1.rowStride})`);
  const gx = Math.ceil(k.M / s.rowsPerWorkgroup);
  if (gx > MAX_WORKGROUPS_PER_DIM) reasons.push(`rowsPerWorkgroup ${s.rowsPerWorkgroup} needs ${gx} workgroups along x for M = ${k.M}, over ${MAX_WORKGROUPS_PER_DIM}`);
  if (prequantized(s) && Math.ceil((k.N * k.K) / 32 / QUANT_WG) > MAX_WORKGROUPS_PER_DIM) reasons.push(`the quantize pass needs over ${MAX_WORKGROUPS_PER_DIM} workgroups for N·K = ${k.N * k.K}`);
  if (blocksPerLoad(s) === 2 && k.weightBlocks?.integer) {
    if (!k.weightBlocks.pairC8) reasons.push('blocksPerLoad 2 loads q4_0 or q8_0 blocks in pairs (wq_pair_c8), not this src0');
    else if ((k.K / 32) % 2) reasons.push(`blocksPerLoad 2 needs an even number of blocks a row, got K/32 = ${k.K / 32}`);
  }
  if (blocksPerLoad(s) === 4 && k.weightBlocks?.integer) {
    if (!k.weightBlocks.quadC8) reasons.push('blocksPerLoad 4 loads four ggml mxfp4 blocks as 17 aligned words (wq_quad_c8), not this src0');
    else if ((k.K / 32) % 4) reasons.push(`blocksPerLoad 4 needs the blocks a row in fours, got K/32 = ${k.K / 32}`);
  }
  if (vec4Codes(s) && k.weightBlocks?.integer) {
    if (!k.weightBlocks.c8Vec4) reasons.push(`codeLoads 'vec4' loads a block's codes as one 16-byte vec4: ${k.weightBlocks.c8Vec4Why ?? 'this src0 has no vec4 form'}`);
    else if (k.weightBlocks.octC8 && blocksPerLoad(s) !== 8) reasons.push(`codeLoads 'vec4' takes these blocks eight at a time (blocksPerLoad 8: whole vec4s), got blocksPerLoad ${blocksPerLoad(s)}: ${k.weightBlocks.c8Vec4Why}`);
  }
  if (blocksPerLoad(s) === 8 && k.weightBlocks?.integer) {
    if (!k.weightBlocks.octC8) reasons.push('blocksPerLoad 8 loads eight q4_0 or q8_0 blocks as whole vec4s (wq_oct_c8), not this src0');
    else if (!vec4Codes(s)) reasons.push("blocksPerLoad 8 reads its eight blocks as whole vec4s: it needs codeLoads 'vec4'");
    else if ((k.K / 32) % 8) reasons.push(`blocksPerLoad 8 needs the blocks a row in eights, got K/32 = ${k.K / 32}`);
  }
  if (e2m1Table(s) && k.weightBlocks?.integer) {
    if (!k.weightBlocks.e2m1) reasons.push("e2m1Decode 'table' looks E2M1 codes up (nvfp4, mxfp4_t1, fp4, fp4_f16, ggml mxfp4), not this src0's codes");
    // ggml mxfp4's table words pair quants 4t… with 16 + 4t… (both halves of a q8_1 block): one thread must pack the whole block.
    else if (dot4Order(s, k) === 'k-lut' && sharedX(s) && quantizeThreads(s) > 1) reasons.push(`e2m1Decode 'table' with ggml mxfp4 packs each activation word from both halves of a q8_1 block: 'shared' with quantizeThreads ${quantizeThreads(s)} splits a block over lanes (use quantizeThreads 1)`);
  }
  if ((sharedX(s) || e2m1Table(s)) && limits && k.K % 32 === 0) {
    const bytes = mmvqWorkgroupBytes(s, k);
    const parts = [
      ...(sharedX(s) ? [`${k.N}·${k.K / 32} q8_1 blocks × 48 B`] : []),
      ...(e2m1Table(s) ? [`${E2M1_TABLE_BYTES} B of E2M1 table`] : []),
      ...(partialsBytes(s, k.N) ? [`${partialsBytes(s, k.N)} B of partials`] : []),
    ];
    const who = [...(sharedX(s) ? ["activations 'shared'"] : []), ...(e2m1Table(s) ? ["e2m1Decode 'table'"] : [])].join(' with ');
    if (bytes > limits.maxComputeWorkgroupStorageSize) reasons.push(`${who} needs ${bytes} B of workgroup memory (${parts.join(' + ')}), over maxComputeWorkgroupStorageSize ${limits.maxComputeWorkgroupStorageSize}`);
  }
  return reasons;
}

/**
 * ld_x (src1 as vec4, f32 or f16 words) and q8_1_block(i): the 32 activations from vec4 index i as a
 * q8_1 block. Both ways of running mmvq call this one function, so they round alike.
 */
function q8_1Wgsl(f16: boolean, order: Dot4Order): { elem: string; struct: string; fns: string } {
  const xs = Array.from({ length: 8 }, (_, i) => i);
  const ld = f16 ? 'fn ld_x(i: u32) -> vec4<f32> {\n  let w = src1[i];\n  return vec4<f32>(unpack2x16float(w.x), unpack2x16float(w.y));\n}' : 'fn ld_x(i: u32) -> vec4<f32> {\n  return src1[i];\n}';
  const amax = `max(max(max(max(a0.x, a0.y), max(a0.z, a0.w)), ${xs.slice(1).map((i) => `max(max(a${i}.x, a${i}.y), max(a${i}.z, a${i}.w))`).reduce((acc, e) => `max(${acc}, ${e})`)}), 0.0)`;
  // Word t: quants 4t…4t+3 ('k'), or a 4-bit code word's even then odd nibbles' quants ('nib': 8⌊t/2⌋ + (t & 1) + 0, 2, 4, 6);
  // the E2M1 table's words (block-wgsl.ts E2M1_TABLE_ORDER): 'nib-lut' 4t + {0, 2, 1, 3}, 'k-lut' 4t + {0, 1, 16, 17} (t < 4), 4(t − 4) + {2, 3, 18, 19}.
  const packWord = (t: number) => {
    if (order === 'k') return `pack4xI8(q${t})`;
    if (order === 'nib-lut') return `pack4xI8(q${t}.xzyw)`;
    if (order === 'k-lut') return t < 4 ? `pack4xI8(vec4<i32>(q${t}.xy, q${t + 4}.xy))` : `pack4xI8(vec4<i32>(q${t - 4}.zw, q${t}.zw))`;
    const [a, b] = [2 * (t >> 1), 2 * (t >> 1) + 1];
    const sw = t & 1 ? 'yw' : 'xz';
    return `pack4xI8(vec4<i32>(q${a}.${sw}, q${b}.${sw}))`;
  };
  const struct = 'struct Xq {\n  qa: vec4<u32>,\n  qb: vec4<u32>,\n  d: f32,\n  s: f32,\n  isum: i32,\n}';
  const fn = [
    'fn q8_1_block(i: u32) -> Xq {',
    ...xs.map((i) => `  let v${i} = ld_x(i + ${u(i)});`),
    ...xs.map((i) => `  let a${i} = abs(v${i});`),
    `  let amax = ${amax};`,
    '  let d = amax / 127.0;',
    '  let id = select(0.0, 1.0 / d, d > 0.0);',
    ...xs.map((i) => `  let q${i} = vec4<i32>(round(v${i} * id));`),
    `  let qs = ${xs.map((i) => `q${i}`).join(' + ')};`,
    '  let isum = qs.x + qs.y + qs.z + qs.w;',
    `  return Xq(vec4<u32>(${[0, 1, 2, 3].map(packWord).join(', ')}), vec4<u32>(${[4, 5, 6, 7].map(packWord).join(', ')}), d, d * f32(isum), isum);`,
    '}',
  ];
  return { elem: f16 ? 'vec2<u32>' : 'vec4<f32>', struct, fns: `${struct}\n${ld}\n${fn.join('\n')}` };
}

/** Where column n's activations start, in vec4 units of src1. */
const xBase = (k: GemvSnippet, n: string) => `(${u(k.src1.offset)} + ${n} * ${u(k.src1.rowStride)}) / 4u`;

/** Activation block t (column t / KB, block t % KB) quantized by q8_1_block and stored at xq[3t…3t + 2]: pass 1's body, and 'shared''s. */
function quantizeBlockInto(k: GemvSnippet, t: string): string[] {
  const KB = k.K / 32;
  return [
    `let x = q8_1_block(${xBase(k, `(${t} / ${u(KB)})`)} + (${t} % ${u(KB)}) * 8u);`,
    `let o = ${t} * ${u(XQ_VEC4S)};`,
    'xq[o] = x.qa;',
    'xq[o + 1u] = x.qb;',
    'xq[o + 2u] = vec4<u32>(bitcast<u32>(x.d), bitcast<u32>(x.s), bitcast<u32>(x.isum), 0u);',
  ];
}

/** Pass 1 (prequantized): one thread per (column, block) writes its q8_1 block to the scratch. */
function quantizeWgsl(k: GemvSnippet, label: string, order: Dot4Order): string {
  const KB = k.K / 32;
  const q = q8_1Wgsl(k.type1 === 'f16', order);
  const body = [
    'let t = gid.x;',
    `if (t >= ${u(k.N * KB)}) {`,
    '  return;',
    '}',
    ...quantizeBlockInto(k, 't'),
  ];
  return [
    `// generated: ${label} — mmvq pass 1: src1 → q8_1 blocks (${k.N} column(s) × ${KB} blocks)`,
    `requires ${DOT4_WGSL_FEATURE};`,
    storageDecl(0, 'src1', 'read', q.elem),
    storageDecl(1, 'xq', 'read_write', 'vec4<u32>'),
    '',
    q.fns,
    '',
    ...computeMain(QUANT_WG, ['@builtin(global_invocation_id) gid: vec3<u32>'], body),
  ].join('\n');
}

/**
 * 'shared' with quantizeThreads 4: lane p of each four (p = t4 % 4) reads vec4s 2p and 2p + 1 of its block (the
 * workgroup reads src1 in order), the block's max and Σq meet over the four lanes by subgroupShuffleXor (max and
 * integer sums are exact: q8_1_block's d, quants and Σq bit for bit), then lane p writes words 2p and 2p + 1 (in
 * 'k' order vec4s 2p, 2p + 1's quants; in nibble order their even, then odd, components) and lane 0 (d, d·Σq, Σq).
 * The loop's trip count is uniform (every lane reaches the shuffles); lanes past the end redo the last block, unstored.
 */
function quantize4Prologue(k: GemvSnippet, W: number, order: Dot4Order): string[] {
  const KB = k.K / 32;
  const total = k.N * KB * 4;
  const ragged = total % W !== 0;
  // 'k-lut' (words from both halves of a block) is refused here by fits.
  const pk = order === 'k' ? ['pack4xI8(q0)', 'pack4xI8(q1)'] : order === 'nib-lut' ? ['pack4xI8(q0.xzyw)', 'pack4xI8(q1.xzyw)'] : ['pack4xI8(vec4<i32>(q0.xz, q1.xz))', 'pack4xI8(vec4<i32>(q0.yw, q1.yw))'];
  const store = [
    `let o = t * ${u(XQ_VEC4S)};`,
    'let c = (p % 2u) * 2u;',
    `xq[o + p / 2u][c] = ${pk[0]};`,
    `xq[o + p / 2u][c + 1u] = ${pk[1]};`,
    'if (p == 0u) {',
    '  xq[o + 2u] = vec4<u32>(bitcast<u32>(d), bitcast<u32>(d * f32(isum)), bitcast<u32>(isum), 0u);',
    '}',
  ];
  return [
    `for (var b4 = 0u; b4 < ${u(total)}; b4 = b4 + ${u(W)}) {`,
    ragged ? `  let t4 = min(b4 + lid, ${u(total - 1)});` : '  let t4 = b4 + lid;',
    '  let t = t4 / 4u;',
    '  let p = t4 % 4u;',
    `  let i = ${xBase(k, `(t / ${u(KB)})`)} + (t % ${u(KB)}) * 8u + p * 2u;`,
    '  let v0 = ld_x(i);',
    '  let v1 = ld_x(i + 1u);',
    '  let a0 = abs(v0);',
    '  let a1 = abs(v1);',
    '  let m1 = max(max(max(a0.x, a0.y), max(a0.z, a0.w)), max(max(a1.x, a1.y), max(a1.z, a1.w)));',
    '  let m2 = max(m1, subgroupShuffleXor(m1, 1u));',
    '  let amax = max(max(m2, subgroupShuffleXor(m2, 2u)), 0.0);',
    '  let d = amax / 127.0;',
    '  let id = select(0.0, 1.0 / d, d > 0.0);',
    '  let q0 = vec4<i32>(round(v0 * id));',
    '  let q1 = vec4<i32>(round(v1 * id));',
    '  let qs = q0 + q1;',
    '  let s1 = qs.x + qs.y + qs.z + qs.w;',
    '  let s2 = s1 + subgroupShuffleXor(s1, 1u);',
    '  let isum = s2 + subgroupShuffleXor(s2, 2u);',
    ...(ragged ? [`  if (b4 + lid < ${u(total)}) {`, ...store.map((l) => `    ${l}`), '  }'] : store.map((l) => `  ${l}`)),
    '}',
    'workgroupBarrier();',
  ];
}

/** The integer-dot GEMV: pass 2 over the scratch (prequantized), or the whole kernel (fused). */
function gemvWgsl(s: MmvqSchedule, k: GemvSnippet, label: string): string {
  const W = s.workgroupSize;
  const R = s.rowsPerWorkgroup;
  const RT = rowsPerThread(s);
  const G = R / RT;
  const T = threadsPerGroup(s);
  const KB = k.K / 32;
  const cols = Array.from({ length: k.N }, (_, c) => c);
  const rows = Array.from({ length: RT }, (_, i) => i);
  const A = RT * k.N; // accumulators per thread: acc{i}_{c}, index i·N + c
  const accs = rows.flatMap((i) => cols.map((c) => ({ i, c, name: `acc${i}_${c}`, a: i * k.N + c })));
  const sub = s.reduction === 'subgroup' && T > 1;
  const { hasMin, bias } = k.weightBlocks!;
  const halves = k.weightBlocks!.halves === true;
  const fuse = fused(s);
  const shx = sharedX(s);
  const U = blocksPerThread(s);
  const QT = quantizeThreads(s);
  // Units of L consecutive blocks (blocksPerLoad): kb counts units, KU of them a row.
  const L = blocksPerLoad(s);
  const KU = KB / L;
  const order = dot4Order(s, k);
  const mant = mantissaDots(s);
  // 'shared': the workgroup's threads quantize the N·KB blocks into xq (workgroup memory), pass 1's body in a loop;
  // or four threads a block (quantizeThreads 4): two vec4 each, max and Σq over the four lanes (uniform loop: the shuffles).
  const prologue = !shx
    ? []
    : QT === 1
      ? [
          `for (var t = lid; t < ${u(k.N * KB)}; t = t + ${u(W)}) {`,
          ...quantizeBlockInto(k, 't').map((l) => `  ${l}`),
          '}',
          'workgroupBarrier();',
        ]
      : quantize4Prologue(k, W, order);
  const body: string[] = [
    G === 1 ? 'let g = 0u;' : `let g = lid / ${u(T)};`,
    T === 1 ? 'let j = 0u;' : `let j = lid % ${u(T)};`,
    `let m0 = wid.x * ${u(R)} + g * ${u(RT)};`,
    // Rows past M read the last row (their sums are dropped at the store): every thread reaches the barriers.
    ...rows.map((i) => (k.M % R === 0 ? `let ab${i} = (m0 + ${u(i)}) * ${u(KB)};` : `let ab${i} = min(m0 + ${u(i)}, ${u(k.M - 1)}) * ${u(KB)};`)),
    ...(fuse ? cols.map((c) => `let xb${c} = ${xBase(k, u(c))};`) : []),
    ...accs.map((x) => `var ${x.name} = 0.0;`),
  ];
  const words = ['qa.x', 'qa.y', 'qa.z', 'qa.w', 'qb.x', 'qb.y', 'qb.z', 'qb.w'];
  const kbOf = (b: number) => (b === 0 ? 'kb' : `kb + ${u(b * T)}`);
  /** n blocks per row at kb, kb + T, …: every weight block's loads (named `${p}{row}` or `${p}{row}_{b}`) issued before the first use. */
  const wOf = (n: number, p: string, i: number, b: number) => (n === 1 ? `${p}${i}` : `${p}${i}_${b}`);
  const loads = (n: number, p: string): string[] => {
    const out: string[] = [];
    const fn = L === 1 ? 'wq_block_c8' : L === 2 ? 'wq_pair_c8' : L === 4 ? 'wq_quad_c8' : 'wq_oct_c8';
    for (let b = 0; b < n; b++) out.push(...rows.map((i) => `let ${wOf(n, p, i, b)} = ${L === 1 ? `${fn}(ab${i} + ${kbOf(b)})` : `${fn}(ab${i} + ${u(L)} * (${kbOf(b)}))`};`));
    return out;
  };
  const uses = (n: number, p: string): string[] => {
    const out: string[] = [];
    for (let b = 0; b < n; b++) {
      for (let h = 0; h < L; h++) {
      // The block: unit kb (L = 1), or block h of unit kb's pair (four, eight).
      const blk = L === 1 ? kbOf(b) : `${u(L)} * (${kbOf(b)})${h ? ` + ${u(h)}` : ''}`;
      for (const c of cols) {
        const kbx = L === 1 ? (b === 0 ? 'kb' : `(${kbOf(b)})`) : `(${blk})`;
        out.push('{', fuse ? `  let x = q8_1_block(xb${c} + ${kbx} * 8u);` : `  let x = ld_xq(${c ? `${u(c * KB)} + ` : ''}${blk});`);
        for (const i of rows) {
          const w = L === 1 ? wOf(n, p, i, b) : L === 2 ? `${wOf(n, p, i, b)}.${h ? 'b' : 'a'}` : `${wOf(n, p, i, b)}.b${h}`;
          // dotFloat 'mantissa': the chain starts from 1.5·2^23's bits and f32 is the bits less 1.5·2^23 (exact: |Σ| < 2^22).
          const dots = (ts: readonly number[]) => `${mant ? '0x4b400000i + ' : ''}${ts.map((t) => `dot4I8Packed(${w}.q[${t}], x.${words[t]})`).join(' + ')}`;
          const fl = (v: string) => (mant ? `(bitcast<f32>(${v}) - 12582912.0)` : `f32(${v})`);
          if (halves) {
            // Two scales a block (16-weight blocks): a partial dot per half (no bias: the formats with halves have none).
            out.push(`  let si${i} = ${dots([0, 1, 2, 3])};`, `  let sj${i} = ${dots([4, 5, 6, 7])};`, `  acc${i}_${c} = acc${i}_${c} + x.d * (${w}.d * ${fl(`si${i}`)} + ${w}.d1 * ${fl(`sj${i}`)});`);
          } else {
            out.push(`  let si${i} = ${dots([0, 1, 2, 3, 4, 5, 6, 7])}${bias ? ` - ${bias}i * x.isum` : ''};`, `  acc${i}_${c} = acc${i}_${c} + ${w}.d * x.d * ${fl(`si${i}`)}${hasMin ? ` + ${w}.m * x.s` : ''};`);
          }
        }
        out.push('}');
      }
      }
    }
    return out;
  };
  const step = (n: number): string[] => [...loads(n, 'w'), ...uses(n, 'w')].map((l) => `  ${l}`);
  // preload 'weights' ('shared'): the first full step's loads (at kb = j, every thread has one when U·T ≤ KB) before the
  // quantize, its uses after the barrier, then the loops from kb = j + U·T: the blocks in the same order, the same sums.
  const pre = shx && preload(s) && U * T <= KU;
  if (pre) body.push('var kb = j;', ...loads(U, 'p'), ...prologue, ...uses(U, 'p'), `kb = kb + ${u(U * T)};`);
  else body.unshift(...prologue);
  // Blocks in the order U = 1 visits them (the sums are the same to the bit for every blocksPerThread).
  if (pre) {
    if (U > 1) body.push(`for (; kb + ${u((U - 1) * T)} < ${u(KU)}; kb = kb + ${u(U * T)}) {`, ...step(U), '}');
    body.push(`for (; kb < ${u(KU)}; kb = kb + ${u(T)}) {`, ...step(1), '}');
  } else if (U === 1) body.push(`for (var kb = j; kb < ${u(KU)}; kb = kb + ${u(T)}) {`, ...step(1), '}');
  else body.push('var kb = j;', `for (; kb + ${u((U - 1) * T)} < ${u(KU)}; kb = kb + ${u(U * T)}) {`, ...step(U), '}', `for (; kb < ${u(KU)}; kb = kb + ${u(T)}) {`, ...step(1), '}');
  // e2m1Decode 'table': the workgroup fills the E2M1 table first (its own barrier), then everything above.
  // The block decode and the multi-block load it is read through (pairs, fours): the table renames the code-word calls of both.
  const wb = k.weightBlocks!;
  const decode = [vec4Codes(s) ? wb.c8Vec4! : wb.wgsl, ...(L === 2 ? [wb.pairC8!] : L === 4 ? [wb.quadC8!] : [])].map((w) => w.trim()).join('\n');
  const table = e2m1Table(s) ? e2m1TableDecode(decode, W) : null;
  if (table) body.unshift(...table.fill);
  const dstAt = (i: number, c: number) => `${u(k.dst.offset)} + ${u(c * k.dst.rowStride)} + m0${i ? ` + ${u(i)}` : ''}`;
  const guard = (i: number) => ['j == 0u', ...(k.M % R ? [`m0${i ? ` + ${u(i)}` : ''} < ${u(k.M)}`] : [])].join(' && ');
  let partLen = 0;
  if (T === 1) {
    for (const x of accs) body.push(`if (${guard(x.i)}) {`, `  dst[${dstAt(x.i, x.c)}] = ${x.name};`, '}');
  } else if (sub) {
    // Butterfly within a subgroup (min(T, size) lanes), then one partial per subgroup through shared memory.
    partLen = W * A;
    body.push(`let w = min(${u(T)}, sgSize);`, 'for (var o = w / 2u; o > 0u; o = o / 2u) {', ...accs.map((x) => `  ${x.name} = ${x.name} + subgroupShuffleXor(${x.name}, o);`), '}');
    body.push('if (j % w == 0u) {', ...accs.map((x) => `  part[(g * ${u(T)} + j / w) * ${u(A)} + ${u(x.a)}] = ${x.name};`), '}', 'workgroupBarrier();');
    for (const x of accs) body.push(`if (${guard(x.i)}) {`, '  var t = 0.0;', `  for (var p = 0u; p < ${u(T)} / w; p = p + 1u) {`, `    t = t + part[(g * ${u(T)} + p) * ${u(A)} + ${u(x.a)}];`, '  }', `  dst[${dstAt(x.i, x.c)}] = t;`, '}');
  } else {
    partLen = W * A;
    body.push(...accs.map((x) => `part[lid * ${u(A)} + ${u(x.a)}] = ${x.name};`), 'workgroupBarrier();');
    for (let o = T / 2; o >= 1; o /= 2) {
      body.push(`if (j < ${u(o)}) {`, ...accs.map((x) => `  part[lid * ${u(A)} + ${u(x.a)}] = part[lid * ${u(A)} + ${u(x.a)}] + part[(lid + ${u(o)}) * ${u(A)} + ${u(x.a)}];`), '}', 'workgroupBarrier();');
    }
    for (const x of accs) body.push(`if (${guard(x.i)}) {`, `  dst[${dstAt(x.i, x.c)}] = part[lid * ${u(A)} + ${u(x.a)}];`, '}');
  }
  const q = q8_1Wgsl(k.type1 === 'f16', order);
  const xq = fuse
    ? [storageDecl(1, 'src1', 'read', q.elem)]
    : shx
      ? [storageDecl(1, 'src1', 'read', q.elem), `var<workgroup> xq: array<vec4<u32>, ${k.N * KB * XQ_VEC4S}>;`]
      : [storageDecl(1, 'xq', 'read', 'vec4<u32>')];
  const ldXq = `fn ld_xq(t: u32) -> Xq {\n  let o = t * ${u(XQ_VEC4S)};\n  let e = xq[o + 2u];\n  return Xq(xq[o], xq[o + 1u], bitcast<f32>(e.x), bitcast<f32>(e.y), bitcast<i32>(e.z));\n}`;
  return [
    `// generated: ${label} — mmvq ${fuse ? 'fused (activations quantized in registers, one pass)' : shx ? 'shared (activations quantized into workgroup memory, one pass)' : 'pass 2'}: ${R} row(s) per workgroup, ${RT} per thread, ${T} thread(s) per row group over blocks, ${U} block(s) per step${vec4Codes(s) ? ', codes as vec4 loads' : ''}${table ? ', E2M1 codes through a workgroup table' : ''}, dot4I8Packed, ${sub ? 'subgroup' : 'shared'} reduction`,
    `requires ${DOT4_WGSL_FEATURE};`,
    ...rowReduceEnables(usesSubgroups(s)),
    storageDecl(0, 'src0', 'read', vec4Codes(s) ? 'vec4<u32>' : 'u32'),
    ...xq,
    storageDecl(2, 'dst', 'read_write', 'f32'),
    ...(partLen ? [`var<workgroup> part: array<f32, ${partLen}>;`] : []),
    '',
    (table ? table.wgsl : decode).trim(),
    '',
    fuse ? q.fns : shx ? `${q.fns}\n${ldXq}` : `${q.struct}\n${ldXq}`,
    '',
    ...computeMain(W, rowReduceBuiltins(sub), body),
  ].join('\n');
}

export const MMVQ: FamilyDef<MmvqSchedule, GemvSnippet> = {
  name: 'mmvq',
  doc: "ggml's MMVQ for quantized GEMV (N ≤ 8): activations rounded to q8_1 (in a first pass, fused into the GEMV, or once per workgroup into workgroup memory), dot4I8Packed over whole weight blocks; a two-pass run is timed as their sum",
  space: {
    workgroupSize: { values: [64, 128, 256], doc: 'threads per workgroup (the GEMV pass)' },
    // 32 and 64: where 'shared' spreads a workgroup's quantize over many rows; swept on request.
    rowsPerWorkgroup: { values: [1, 2, 4, 8, 16, 32, 64], sweep: [1, 2, 4, 8, 16], doc: 'weight rows per workgroup' },
    rowsPerThread: { values: [1, 2, 4], doc: 'rows a thread takes per block it visits: one activation block feeds them all, their weight loads are in flight together', default: 1 },
    blocksPerThread: { values: [1, 2, 4], doc: "blocks of each row a thread loads per loop step before using any (loads in flight along K)", default: 1 },
    activations: {
      values: ACTIVATIONS,
      // H200 (docs/benchmarks.md, tune-mmvq / tune-mmvqfp4): fused lost every shape and format, 1.07–3.8× slower: swept on request.
      // shared (tune-mmvq3, H200): wins at 4096² (q4_0 11.9 / q8_0 12.7 µs, W256 R16 RT2, against 14.1 / 14.7 for the
      // pick), loses 1.5–4.6× at 16384² (each workgroup re-reads and quantizes all of K; 64 rows a workgroup starves the GPU): swept on request.
      // tune-mmvq4 (H200): with quantizeThreads 4 shared wins at 4096² (q4_0 10.5 / q8_0 11.4 µs, W256 R16 RT2 U4: the registry's
      // rule there) and still loses 1.5–2.3× at 16384².
      sweep: ['prequantized'],
      doc: "q8_1 activations from a first pass ('prequantized', timed with it), quantized in registers inside the GEMV ('fused': one pass) or once per workgroup into workgroup memory ('shared': one pass, N·K/32·48 B of it)",
      default: 'prequantized',
    },
    // tune-mmvq4 (H200): pairs lost everywhere (16384² q4_0 53.9–56.1 against 50.6 µs, q8_0 108–126 against 78–81; 4096² +0.1–1 µs): swept on request.
    // 4 (ggml mxfp4 in fours, constant shifts): H200 2026-12-02 (matmul-tune.sh mmvq7) 75.0–90.2 µs against 74.8–78.8 for single blocks: not a rule.
    blocksPerLoad: { values: [1, 2, 4, 8], sweep: [1], doc: "consecutive blocks a thread loads as one (2: q4_0/q8_0 pairs from 4-aligned words, no select; 4: ggml mxfp4 in fours from 17 aligned words, constant shifts; 8: eight from whole vec4s, with codeLoads 'vec4')", default: 1 },
    quantizeThreads: { values: [1, 4], sweep: [1], doc: "'shared' only: threads per activation block in the quantize (4: src1 read coalesced, max and Σq by subgroup shuffles; needs 'subgroups')", default: 1 },
    // H200 2026-12-02 (matmul-tune.sh mmvq5): vec4 int4 16384² 49.2 against 53.5 µs, nvfp4/mxfp4_t1 +2–3%: swept on request.
    codeLoads: { values: CODE_LOADS, sweep: ['words'], doc: "how a block's code words are loaded: 'words' (src0 as u32, word by word) or 'vec4' (src0 as vec4<u32>: a block's 16 code bytes one load; Track-1 16-byte-aligned code streams only)", default: 'words' },
    // H200 2026-12-02 (matmul-tune.sh mmvq7): 'mantissa' within ±2% of 'convert' (nvfp4/mxfp4 16384²): swept on request.
    dotFloat: { values: DOT_FLOATS, sweep: ['convert'], doc: "how a block's integer dot becomes f32: 'convert' (f32(), a conversion per dot) or 'mantissa' (the dot chain started from 1.5·2^23's bits, the sum read as an f32 less 1.5·2^23: exact, no conversion)", default: 'convert', omitDefault: true },
    preload: { values: PRELOADS, sweep: ['none'], doc: "'shared' only: 'weights' issues a thread's first step of weight loads before the quantize", default: 'none' },
    // H200 2026-12-02 (matmul-tune.sh mmvq6): 'table' lost 1.6–2.7× on nvfp4, mxfp4_t1 and mxfp4 at 16384²: swept on request. 'bits' stays out of schedules and keys (omitDefault): every key made before it holds.
    e2m1Decode: { values: E2M1_DECODES, sweep: ['bits'], doc: "how E2M1 codes become i8: 'bits' (bit operations) or 'table' (a 32 KiB per-lane table in workgroup memory, each code byte looked up; E2M1 formats only)", default: 'bits', omitDefault: true },
    reduction: { values: ['subgroup', 'shared'], doc: "how a row's partial sums meet" },
  },
  threads: (s) => s.workgroupSize,
  // The schedule alone (N ≤ 8): the partials and the E2M1 table. 'shared' adds N·K/32·48 B that only the case knows: fits() checks that sum (mmvqWorkgroupBytes).
  workgroupBytes: (s) => partialsBytes(s) + tableBytes(s),
  threadsText: (s) => `workgroupSize ${s.workgroupSize}`,
  validate(s, adapter) {
    const reasons: string[] = [];
    const RT = rowsPerThread(s);
    if (!isPow2(s.workgroupSize)) reasons.push(`workgroupSize ${s.workgroupSize} is not a power of two`);
    if (!isPow2(s.rowsPerWorkgroup)) reasons.push(`rowsPerWorkgroup ${s.rowsPerWorkgroup} is not a power of two`);
    if (!isPow2(RT) || RT > s.rowsPerWorkgroup) reasons.push(`rowsPerThread ${RT} must be a power of two ≤ rowsPerWorkgroup ${s.rowsPerWorkgroup}`);
    else if (s.rowsPerWorkgroup / RT > s.workgroupSize) reasons.push(`rowsPerWorkgroup / rowsPerThread = ${s.rowsPerWorkgroup / RT} row groups exceed workgroupSize ${s.workgroupSize}`);
    if (!isPow2(blocksPerThread(s)) || blocksPerThread(s) > 8) reasons.push(`blocksPerThread ${blocksPerThread(s)} must be 1, 2, 4 or 8`);
    if (s.activations !== undefined && !ACTIVATIONS.includes(s.activations)) reasons.push(`activations '${s.activations}' is not ${ACTIVATIONS.join(', ')}`);
    if (![1, 2, 4, 8].includes(blocksPerLoad(s))) reasons.push(`blocksPerLoad ${blocksPerLoad(s)} must be 1, 2, 4 or 8`);
    if (quantizeThreads(s) !== 1 && quantizeThreads(s) !== 4) reasons.push(`quantizeThreads ${quantizeThreads(s)} must be 1 or 4`);
    else if (quantizeThreads(s) > 1 && !sharedX(s)) reasons.push(`quantizeThreads ${quantizeThreads(s)} is 'shared' activations' knob (got '${s.activations ?? 'prequantized'}')`);
    else if (quantizeThreads(s) > 1 && !adapter.features.includes('subgroups')) reasons.push(`quantizeThreads ${quantizeThreads(s)} needs the 'subgroups' feature (max and Σq by shuffles), which this adapter lacks`);
    if (s.codeLoads !== undefined && !CODE_LOADS.includes(s.codeLoads)) reasons.push(`codeLoads '${s.codeLoads}' is not ${CODE_LOADS.join(', ')}`);
    if (s.dotFloat !== undefined && !DOT_FLOATS.includes(s.dotFloat)) reasons.push(`dotFloat '${s.dotFloat}' is not ${DOT_FLOATS.join(', ')}`);
    if (s.e2m1Decode !== undefined && !E2M1_DECODES.includes(s.e2m1Decode)) reasons.push(`e2m1Decode '${s.e2m1Decode}' is not ${E2M1_DECODES.join(', ')}`);
    if (preload(s) && !sharedX(s)) reasons.push(`preload 'weights' is 'shared' activations' knob (got '${s.activations ?? 'prequantized'}')`);
    if (!adapter.wgslFeatures?.includes(DOT4_WGSL_FEATURE)) reasons.push(`mmvq needs WGSL's ${DOT4_WGSL_FEATURE} (dot4I8Packed), which this runtime does not offer`);
    if (s.reduction === 'subgroup' && !adapter.features.includes('subgroups')) reasons.push("reduction 'subgroup' needs the 'subgroups' feature, which this adapter lacks");
    return reasons;
  },
  fits: fitsMmvq,
  generate(s, k, c) {
    const label = `${c.op} ${c.label}`;
    const KB = k.K / 32;
    const common = {
      label: `generated:${c.op} ${scheduleKey(s)}`,
      wgsl: gemvWgsl(s, k, label),
      entryPoint: 'main',
      dispatch: [Math.ceil(k.M / s.rowsPerWorkgroup), 1, 1] as [number, number, number],
      ...(usesSubgroups(s) ? { features: ['subgroups'] } : {}),
      inputRounding: 'q8_1' as const,
    };
    if (!prequantized(s)) return { ...common, bindings: MATMUL_BINDINGS };
    return {
      ...common,
      bindings: [
        { binding: 0, role: 'src0', access: 'read' },
        { binding: 1, role: 'scratch', buffer: 'xq', access: 'read' },
        { binding: 2, role: 'dst', access: 'read_write' },
      ],
      prelude: [
        {
          label: `generated:${c.op} ${scheduleKey(s)} quantize`,
          wgsl: quantizeWgsl(k, label, dot4Order(s, k)),
          entryPoint: 'main',
          bindings: [
            { binding: 0, role: 'src1', access: 'read' },
            { binding: 1, role: 'scratch', buffer: 'xq', access: 'read_write' },
          ],
          dispatch: [Math.ceil((k.N * KB) / QUANT_WG), 1, 1],
        },
      ],
      scratch: [{ name: 'xq', sizeBytes: k.N * KB * XQ_VEC4S * 16 }],
    };
  },
};
