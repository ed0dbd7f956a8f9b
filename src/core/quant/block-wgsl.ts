// Block-at-a-time WGSL decode for the GEMV kernels: one call reads a 32-weight chunk's words once
// (its scale(s) once, its packed quants as whole u32 words, blocks at 2-byte offsets joined by a
// funnel shift) and returns all 32 weights. Every weight format has it where K % 32 == 0:
//   ggml's 32-weight types (Q4_0…Q8_0, MXFP4): one block per call (LAYOUTS below);
//   the K-quants (Q4_K, Q5_K, Q6_K): one 32-weight eighth of a 256-weight super-block per call;
//   the Track-1 formats: 32 codes of the code stream (b words for b-bit codes, word-aligned since
//     K % 32 == 0) and the 1 or 2 block scales they fall in — one generator over the codec tables
//     (element bits and kind, block size, scale kind), not one copy per format.
// Two forms:
//   wq_block(blk)    -> WqBlock   { q: 8 × vec4<f32> in k order, d, m }: weight k = q·d + m
//                       (also as wq_raw(blk), the loads, then wq_unpack(raw), the arithmetic: for
//                       ggml's 32-weight types the raw fields, else the chunk index, loads at unpack);
//   wq_block_i8(blk) -> WqBlockI8 { q: 8 × u32 of four i8 each in k order, d, m } for the
//                       integer-dot (MMVQ) kernel: dot4I8Packed(q[i], x8) · d · dx + m · Σx
//                       (ggml's integer block types only).
// blk is the flat chunk index (row · K/32 + k/32). fround(q·d) + m is the codec's decode of each
// weight bit for bit: where a chunk has two scales (16-weight blocks: nvfp4, nvfp8, Q6_K's
// sub-blocks) q carries its scale already (the codec's product, rounded once) and d is 1 (nvfp4:
// the global, multiplied second as the codec does); the K-quants' d and m are the sub-block's
// d·sc and −dmin·m. Kernels sum d·Σ(q·x) + m·Σx: a reordering of the oracle's Σ fround(w)·x.
import { ELEMENTS, type ElementCodec } from './element';
import { QUANT_FORMATS } from './formats';
import { SCALE_BITS } from './scale';
import { elementDecodeWgsl, MINIFLOAT_LAYOUT, scaleDecodeWgsl } from './wgsl';
import { SCALE_MIN_K4_WGSL } from './weights-wgsl';
import { codeWords, weightFormat, type WeightFormat } from './weights';

const u = (n: number) => `${n >>> 0}u`;

/** Where a block's fields sit (bytes from the block start) and how its quants are made. */
interface BlockLayout {
  /** f16 d (or, for mxfp4, the E8M0 byte at 0). */
  readonly scale: 'f16' | 'e8m0';
  /** f16 min (q4_1, q5_1). */
  readonly m?: number;
  /** u32 of high bits (q5_*). */
  readonly qh?: number;
  readonly qs: number;
  /** 'nib4': 16 bytes of nibble pairs (element j low, j+16 high); 'i8': 32 signed bytes. */
  readonly codes: 'nib4' | 'i8';
  /** Subtracted from the unsigned code (q4_0: 8, q5_0: 16). */
  readonly bias: number;
  readonly lut?: boolean;
}

const LAYOUTS: Readonly<Record<string, BlockLayout>> = {
  q4_0: { scale: 'f16', qs: 2, codes: 'nib4', bias: 8 },
  q4_1: { scale: 'f16', m: 2, qs: 4, codes: 'nib4', bias: 0 },
  q5_0: { scale: 'f16', qh: 2, qs: 6, codes: 'nib4', bias: 16 },
  q5_1: { scale: 'f16', m: 2, qh: 4, qs: 8, codes: 'nib4', bias: 0 },
  q8_0: { scale: 'f16', qs: 2, codes: 'i8', bias: 0 },
  mxfp4: { scale: 'e8m0', qs: 1, codes: 'nib4', bias: 0, lut: true },
};

/** A 32-weight chunk: what one wq_block call returns. */
const CHUNK = 32;

/**
 * Whether `format` has a block decode for rows of `cols` weights: ggml's 32-weight types always,
 * the K-quants always (K is a multiple of 256), Track-1 when cols % 32 == 0 (a chunk then starts on a
 * word of the code stream; a ragged last block of a group-scaled format is fine). Without cols:
 * whether it has one for some K.
 */
export function hasBlockDecode(format: string | number, cols?: number): boolean {
  const f = weightFormat(format);
  if (f.kind === 'ggml') return f.name in LAYOUTS;
  return cols === undefined || cols % CHUNK === 0;
}

/**
 * The integer (MMVQ) form, wq_block_c8: ggml's 32-weight block types (MXFP4's E2M1 codes ×2 are the
 * integers ±{0,1,2,3,4,6,8,12}, ggml's kvalues_mxfp4) and the Track-1 formats whose codes become
 * i8 by bit operations: E2M1 (nvfp4, mxfp4_t1, fp4, fp4_f16) and 4- or 8-bit integers (int4, int8,
 * mxint4, mxint8 and the _f16 twins). Track-1 needs K % 32 == 0 as every block decode of it does.
 */
export function hasIntegerBlockDecode(format: string | number): boolean {
  const f = weightFormat(format);
  if (f.kind === 'ggml') return f.name in LAYOUTS;
  return f.kind === 'track1' && track1Dot4(QUANT_FORMATS.find((q) => q.name === f.codecName)!.element) !== null;
}

/** How a Track-1 element's codes become i8 for dot4I8Packed (null: they do not, cheaply). */
function track1Dot4(element: string): 'e2m1' | 'int4' | 'int8' | null {
  return element === 'e2m1' || element === 'int4' || element === 'int8' ? element : null;
}

export interface BlockDecode {
  /** WGSL: the block struct(s) and wq_block / wq_block_i8, reading `buffer` (u32/i32 words) past wordOffset. */
  readonly wgsl: string;
  readonly blockSize: 32;
  /** weight = q·d + m with m ≠ 0 (Q4_1, Q5_1, Q4_K, Q5_K), so kernels add m·Σx. */
  readonly hasMin: boolean;
  /** wq_block_c8 is defined (hasIntegerBlockDecode; wq_block_i8 too for ggml's integer quants). */
  readonly integer: boolean;
  /**
   * Which activations wq_block_c8's word t pairs with: 'k' the q8_1 block's quants 4t…4t+3; 'nib'
   * (Track-1 4-bit code streams, eight codes a word) 8⌊t/2⌋ + (t & 1) + {0, 2, 4, 6}: a word's even
   * nibbles, then its odd ones, so the codes need no shuffle (the activations are packed in that order).
   */
  readonly dot4Order: 'k' | 'nib';
  /** WqBlockI8 has d1: the scale of weights 16…31 (q[4…7]), d that of 0…15 (16-weight blocks: nvfp4). */
  readonly halves: boolean;
  /** WGSL of `fn wq_unpack(r: WqRaw) -> WqBlock`: wq_block's decode of raw fields loaded earlier (wq_raw), for kernels that prefetch. */
  readonly unpack: string;
  /** What wq_block_c8's codes carry over wq_block_i8's quants (q4_0: 8, q5_0: 16, else 0). */
  readonly bias: number;
  /**
   * The WGSL of wq_pair_c8(blk) -> WqPairI8 { a, b }, for kernels that take blocks in pairs to append to `wgsl`
   * (the others leave it out): blocks blk and blk + 1 (blk even, the pair 4-aligned) as wq_block_c8 returns them, from the pair's 2·qsWords + 1 words with no select on alignment (q4_0: 9 words for
   * 36 B, q8_0: 17 for 68 B). Where blocks start 2-aligned with the f16 scale first (q4_0, q8_0).
   */
  readonly pairC8?: string;
  /**
   * The same decode with `buffer` declared `array<vec4<u32>>` (mmvq's codeLoads 'vec4'): wq_block_c8 loads a block's
   * code words as whole vec4s (4-bit codes: one 16-byte load per 32 weights, 8-bit: two), every other word (scales,
   * nvfp4's global) a component pick through wq_w. Track-1 integer-dot formats whose code stream starts on a
   * 16-byte boundary; else c8Vec4Why says why not.
   */
  readonly c8Vec4?: string;
  readonly c8Vec4Why?: string;
  /**
   * The WGSL of wq_quad_c8(blk) -> WqQuadI8 { b0 … b3 }, for kernels that take blocks in fours to append to `wgsl`: blocks
   * blk…blk + 3 (blk % 4 == 0) as wq_block_c8 returns them, from their 4·blockBytes / 4 aligned words with constant
   * shifts. Where a block's bytes are odd (ggml mxfp4, 17 B: four are 17 words).
   */
  readonly quadC8?: string;
  /** c8Vec4 defines wq_oct_c8(blk) -> WqOctI8 { b0 … b7 }: blocks blk…blk + 7 (blk % 8 == 0) from whole vec4s (q4_0: 9, q8_0: 17); ggml's blocks are read only so under codeLoads 'vec4'. */
  readonly octC8?: boolean;
  /** wq_block_c8 turns E2M1 code words into i8 through wq_e2m1x2_i8 (ggml mxfp4, nvfp4, mxfp4_t1, fp4…): e2m1TableDecode can swap in a table. */
  readonly e2m1?: boolean;
}

/** The rows × cols of the matrix: Track-1 needs it (the scale stream starts past rows·cols codes). */
export interface BlockShape {
  readonly rows: number;
  readonly cols: number;
}

/** How many u32 words cover `n` bytes starting at any offset ≡ align (mod 4). */
const wordsSpanned = (n: number, align: number) => Math.ceil((n + align) / 4);

/**
 * WGSL for wq_block (and wq_block_i8 where the quants are integers) of format f, blocks packed
 * back to back from word `wordOffset` of `buffer` (weights.ts's ggml layout).
 */
export function blockDecodeWgsl(format: string | number, wordOffset: number, buffer = 'src0', shape?: BlockShape): BlockDecode {
  const f: WeightFormat = weightFormat(format);
  if (f.kind === 'ggml-k') return kQuantBlock(f, wordOffset, buffer);
  if (f.kind === 'track1') {
    if (!shape) throw new Error(`${f.name}: a Track-1 block decode needs the matrix shape (its scale stream starts past the codes)`);
    if (shape.cols % CHUNK) throw new Error(`${f.name}: no block decode at K = ${shape.cols} (K must be a multiple of ${CHUNK})`);
    const block = track1Block(f, wordOffset, buffer, shape);
    if (!block.integer) return block;
    if (wordOffset % 4) return { ...block, c8Vec4Why: `${f.name}'s code stream starts at word ${wordOffset} of ${buffer}, not on a 16-byte boundary` };
    return { ...block, c8Vec4: track1Block(f, wordOffset, buffer, shape, true).wgsl };
  }
  const L = LAYOUTS[f.name];
  if (!L) throw new Error(`${f.name}: no block decode`);
  const bb = f.blockBytes!;
  // A block starts at byte blk·bb: 4-aligned when bb is, else 2-aligned (even bb), else anywhere (mxfp4).
  const maxMis = bb % 4 === 0 ? 0 : bb % 2 === 0 ? 2 : 3;
  const qsBytes = L.codes === 'nib4' ? 16 : 32;
  const qsWords = qsBytes / 4;
  const span = wordsSpanned(qsBytes, maxMis);
  // The block's scale at its byte offset o: f16, or MXFP4's E8M0 byte halved (its codes are ×2).
  const scaleAt = L.scale === 'f16' ? 'wq_f16_at(o)' : 'wq_e8m0_half((wq_w(o >> 2u) >> ((o & 3u) * 8u)) & 0xffu)';
  const lines: string[] = [
    `// block decode: ${f.name} (${bb} B per 32 weights), one call per block`,
    ...wordReads(buffer, wordOffset),
    ...(L.lut ? [e2m1x2Wgsl(), E8M0_HALF_WGSL] : []),
    `struct WqRaw {\n  qs: array<u32, ${qsWords}>,\n  d: f32,\n  m: f32,\n  qh: u32,\n}`,
  ];
  // The block's raw fields: the quant words loaded once (span words, funnelled), scale, min, high bits.
  // q4_0 and q8_0 (2-aligned, the f16 scale then the quants): qsWords + 1 words from the scale's word cover
  // both, at either alignment (the quants from its byte 2, or whole words from the next): one load fewer.
  const scaleWord = maxMis === 2 && L.scale === 'f16' && L.qs === 2 && L.m === undefined && L.qh === undefined;
  // MXFP4 (17 B: the E8M0 byte, then the codes): the block's 17 bytes from word o/4 (5 words), the
  // scale from the first of them and the code words past it ((W >> 8) >> sh joins a shift of 8…32
  // bits with WGSL's shifts below 32): one load fewer than a separate scale word, no select. H200 GEMV
  // 16384² (mmvq, with the decode above): 80.1 / 79.8 → 77.5 / 77.0 µs.
  const mx = L.scale === 'e8m0';
  const raw = scaleWord
    ? [
        `fn wq_raw(blk: u32) -> WqRaw {`,
        `  let o = blk * ${u(bb)};`,
        `  let w0 = o >> 2u;`,
        // o % 4 == 2: the scale is W0's high half and the quants start at W1.
        `  let h = (o & 2u) != 0u;`,
        ...Array.from({ length: qsWords + 1 }, (_, i) => `  let W${i} = wq_w(w0 + ${u(i)});`),
        `  var r: WqRaw;`,
        `  r.d = unpack2x16float(select(W0, W0 >> 16u, h)).x;`,
        `  r.m = 0.0;`,
        `  r.qh = 0u;`,
        ...Array.from({ length: qsWords }, (_, t) => `  r.qs[${t}] = select((W${t} >> 16u) | (W${t + 1} << 16u), W${t + 1}, h);`),
        `  return r;`,
        `}`,
      ]
    : mx
    ? [
        `fn wq_raw(blk: u32) -> WqRaw {`,
        `  let o = blk * ${u(bb)};`,
        `  let w0 = o >> 2u;`,
        `  let sh = (o & 3u) * 8u;`,
        ...Array.from({ length: 5 }, (_, i) => `  let W${i} = wq_w(w0 + ${u(i)});`),
        `  var r: WqRaw;`,
        `  r.d = wq_e8m0_half((W0 >> sh) & 0xffu);`,
        `  r.m = 0.0;`,
        `  r.qh = 0u;`,
        ...Array.from({ length: qsWords }, (_, t) => `  r.qs[${t}] = ((W${t} >> 8u) >> sh) | (W${t + 1} << (24u - sh));`),
        `  return r;`,
        `}`,
      ]
    : [
        `fn wq_raw(blk: u32) -> WqRaw {`,
        `  let o = blk * ${u(bb)};`,
        `  var r: WqRaw;`,
        `  r.d = ${scaleAt};`,
        `  r.m = ${L.m !== undefined ? `wq_f16_at(o + ${u(L.m)})` : '0.0'};`,
        `  r.qh = ${L.qh !== undefined ? (f.name === 'q5_1' ? `wq_w((o + ${u(L.qh)}) >> 2u)` : `wq_u32_at(o + ${u(L.qh)})`) : '0u'};`,
        `  let a = o + ${u(L.qs)};`,
        `  let w0 = a >> 2u;`,
        `  let s = (a & 3u) * 8u;`,
        ...Array.from({ length: span }, (_, i) => `  let W${i} = wq_w(w0 + ${u(i)});`),
        ...Array.from({ length: qsWords }, (_, t) => (maxMis === 0 ? `  r.qs[${t}] = W${t};` : `  r.qs[${t}] = wq_funnel(W${t}, W${t + 1}, s);`)),
        `  return r;`,
        `}`,
      ];
  lines.push(...raw);
  // Bits t…t+3 of qh (q5_*'s bit 4 of quants t…t+3); t a WGSL u32 expression.
  const hi = (qh: string, t: string) => `((vec4<u32>(${qh}) >> (vec4<u32>(0u, 1u, 2u, 3u) + vec4<u32>(${t}))) & vec4<u32>(1u))`;
  // f32 form of four quants: nibbles (word w shifted by `shift`, high bits from qh at t) with bias or table; or four i8.
  const vec4Of = (w: string, shift: string, qh: string, t: string): string => {
    // i8 bytes: (b ^ 0x80) − 128, the offset byte converted without an int → float conversion.
    if (L.codes === 'i8') return u2f(`((vec4<u32>(${w} ^ 0x80808080u) >> ${BYTE_LANES}) & vec4<u32>(255u))`, 128);
    let q = `((vec4<u32>(${w}) >> ${shift}) & vec4<u32>(15u))`;
    if (L.qh !== undefined) q = `(${q} | (${hi(qh, t)} << vec4<u32>(4u)))`;
    if (L.lut) return `wq_e2m1x2(${q})`;
    return u2f(q, L.bias);
  };
  // vec4 i (k = 4i…4i+3): the low nibbles of word i for i < 4, the high nibbles of word i − 4 after.
  const vecOf = (i: number) => vec4Of(`r.qs[${L.codes === 'i8' ? i : i % 4}]`, i < 4 ? 'vec4<u32>(0u, 8u, 16u, 24u)' : 'vec4<u32>(4u, 12u, 20u, 28u)', 'r.qh', u(4 * i));
  lines.push(...wqFn('block', ['  let r = wq_raw(blk);'], Array.from({ length: 8 }, (_, i) => vecOf(i)), 'r.d', 'r.m'));
  // wq_block's arithmetic on raw fields loaded earlier (kernels that load a tile's raw blocks ahead and decode them later).
  const unpack = wqFn('unpack', [], Array.from({ length: 8 }, (_, i) => vecOf(i)), 'r.d', 'r.m').join('\n') + '\n';
  // Part s (k = 8s…8s+7): nib4 reads quant words 2(s & 1), +1 (high nibbles for s ≥ 2); i8 words 2s, 2s + 1.
  const partBody = [
    `  let o = blk * ${u(bb)};`,
    ...(L.qh !== undefined ? [`  let qh = ${f.name === 'q5_1' ? `wq_w((o + ${u(L.qh)}) >> 2u)` : `wq_u32_at(o + ${u(L.qh)})`};`] : []),
    ...(L.codes === 'nib4' ? ['  let ns = (s >> 1u) * 4u;'] : []),
    ...wordsAt('W', `o + ${u(L.qs)} + ${L.codes === 'nib4' ? '(s & 1u) * 8u' : 's * 8u'}`, 2, maxMis === 0),
  ];
  const partQ = [0, 1].map((t) => vec4Of(`W${t}`, `(${BYTE_LANES} + vec4<u32>(ns))`, 'qh', `s * 8u + ${u(4 * t)}`));
  lines.push(...wqFn('part', partBody, partQ, scaleAt, L.m !== undefined ? `wq_f16_at(o + ${u(L.m)})` : '0.0'));
  // wq_block_c8's word i of raw words r.qs (the integer formats): wq_oct_c8 below reuses it.
  let c8Of: ((i: number) => string) | null = null;
  if (!L.lut) {
    // i8 form: byte lanes of one u32 (four quants), the bias taken per byte without borrows.
    const spread = (t: number) => `(((r.qh >> ${u(t)}) & 1u) << 4u) | (((r.qh >> ${u(t + 1)}) & 1u) << 12u) | (((r.qh >> ${u(t + 2)}) & 1u) << 20u) | (((r.qh >> ${u(t + 3)}) & 1u) << 28u)`;
    const i8Of = (i: number, biased: boolean): string => {
      if (L.codes === 'i8') return `r.qs[${i}]`;
      let q = i < 4 ? `(r.qs[${i % 4}] & 0x0f0f0f0fu)` : `((r.qs[${i % 4}] >> 4u) & 0x0f0f0f0fu)`;
      if (L.qh !== undefined) q = `(${q} | ${spread(4 * i)})`;
      const b = L.bias * 0x01010101;
      return L.bias && biased ? `((${q} | 0x80808080u) - ${u(b)}) ^ 0x80808080u` : q;
    };
    const fn = (name: string, biased: boolean) => [
      `fn ${name}(blk: u32) -> WqBlockI8 {`,
      `  let r = wq_raw(blk);`,
      `  var b: WqBlockI8;`,
      `  b.d = r.d;`,
      `  b.m = r.m;`,
      ...Array.from({ length: 8 }, (_, i) => `  b.q[${i}] = ${i8Of(i, biased)};`),
      `  return b;`,
      `}`,
    ];
    lines.push(WQ_BLOCK_I8_STRUCT, ...fn('wq_block_i8', true), ...fn('wq_block_c8', false));
    c8Of = (i) => i8Of(i, false);
  } else {
    // MXFP4: each quant word's eight E2M1 codes as i8 (2·E2M1, ggml's kvalues_mxfp4): low nibbles are
    // quants 4t…4t+3, high nibbles 16 + 4t…; d is the E8M0 scale halved, as wq_block's.
    lines.push(E2M1X2_I8_WGSL, WQ_BLOCK_I8_STRUCT, `fn wq_block_c8(blk: u32) -> WqBlockI8 {`, `  let r = wq_raw(blk);`, `  var b: WqBlockI8;`, `  b.d = r.d;`, `  b.m = 0.0;`);
    for (let t = 0; t < 4; t++) lines.push(`  let p${t} = wq_e2m1x2_i8(r.qs[${t}]);`, `  b.q[${t}] = p${t}.x;`, `  b.q[${t + 4}] = p${t}.y;`);
    lines.push(`  return b;`, `}`);
  }
  const c8Vec4Why = `ggml ${f.name} blocks are ${bb} B (codes at byte ${L.qs} of each): a block's codes do not start on a 16-byte boundary`;
  const wgsl = lines.join('\n') + '\n';
  const base = { wgsl, unpack, blockSize: 32 as const, hasMin: L.m !== undefined, integer: true, bias: L.lut ? 0 : L.bias, dot4Order: 'k' as const, halves: false, c8Vec4Why, e2m1: L.lut === true };
  if (mx) return { ...base, quadC8: mxQuadC8(bb, L.qs) };
  if (!scaleWord || !c8Of) return base;
  const c8 = c8Of;
  const n = qsWords;
  // Two 2-aligned blocks from the 2n + 1 words W{w0}… of a 4-aligned pair: block a's scale is W{w0}'s low half and
  // its quants the funnel of W{w0}…W{w0+n} by 16 bits; block b's scale is W{w0+n}'s high half, its quants the next n
  // words whole. `name(h, t)` names quant word t of block h ('a' or 'b'). wq_pair_c8 takes one pair, wq_oct_c8 four.
  const pairDecode = (a: string, b: string, w0: number, name: (h: 'a' | 'b', t: number) => string): string[] => [
    ...Array.from({ length: n }, (_, t) => `  let ${name('a', t)} = (W${w0 + t} >> 16u) | (W${w0 + t + 1} << 16u);`),
    ...Array.from({ length: n }, (_, t) => `  let ${name('b', t)} = W${w0 + n + 1 + t};`),
    `  ${a}.d = unpack2x16float(W${w0}).x;`,
    `  ${a}.m = 0.0;`,
    `  ${b}.d = unpack2x16float(W${w0 + n} >> 16u).x;`,
    `  ${b}.m = 0.0;`,
    ...(['a', 'b'] as const).flatMap((h) => Array.from({ length: 8 }, (_, i) => `  ${h === 'a' ? a : b}.q[${i}] = ${c8(i).replace(/r\.qs\[(\d)\]/g, (_m: string, t: string) => name(h, Number(t)))};`)),
  ];
  // A pair from an even block index: byte 36p (q4_0) or 68p (q8_0), 4-aligned (mmvq's blocksPerLoad 2 appends it).
  const pairC8 = [
    'struct WqPairI8 {\n  a: WqBlockI8,\n  b: WqBlockI8,\n}',
    'fn wq_pair_c8(blk: u32) -> WqPairI8 {',
    `  let w0 = (blk * ${u(bb)}) >> 2u;`,
    ...Array.from({ length: 2 * n + 1 }, (_, i) => `  let W${i} = wq_w(w0 + ${u(i)});`),
    '  var p: WqPairI8;',
    ...pairDecode('p.a', 'p.b', 0, (h, t) => `${h}s${t}`),
    '  return p;',
    '}',
  ].join('\n') + '\n';
  if (wordOffset % 4) return { ...base, pairC8 };
  // Eight blocks from a multiple of 8 (8·bb B: q4_0 144 = 9 vec4, q8_0 272 = 17): the same decode with buffer as
  // array<vec4<u32>> (wq_w a component pick) and wq_oct_c8, four pairs from whole vec4 loads.
  const nv = bb / 2; // vec4s per eight blocks
  const vWordReads = wordReads(buffer, wordOffset, true)[0];
  const words = wordReads(buffer, wordOffset)[0];
  const oct: string[] = [
    `struct WqOctI8 {\n${Array.from({ length: 8 }, (_, h) => `  b${h}: WqBlockI8,`).join('\n')}\n}`,
    'fn wq_oct_c8(blk: u32) -> WqOctI8 {',
    `  let v = ${u(wordOffset / 4)} + (blk >> 3u) * ${u(nv)};`,
    ...Array.from({ length: nv }, (_, i) => `  let V${i} = ${buffer}[v${i ? ` + ${u(i)}` : ''}];`),
    ...Array.from({ length: 4 * nv }, (_, i) => `  let W${i} = V${i >> 2}.${'xyzw'[i & 3]};`),
    '  var o: WqOctI8;',
    ...Array.from({ length: 4 }, (_, k) => pairDecode(`o.b${2 * k}`, `o.b${2 * k + 1}`, k * (2 * n + 1), (h, t) => `${h}${k}s${t}`)).flat(),
    '  return o;',
    '}',
  ];
  return { ...base, pairC8, c8Vec4: `${wgsl.replace(words, vWordReads)}${oct.join('\n')}\n`, octC8: true };
}

/**
 * MXFP4 four blocks at a time (mmvq's blocksPerLoad 4 appends it): blocks blk…blk + 3 (blk % 4 == 0) are 4·bb = 68 B,
 * 17 words from word (blk / 4)·17, 4-aligned. Block h's E8M0 byte is byte bb·h (word 4h, byte h) and its code words
 * start at byte bb·h + qs: every shift is a constant (one funnel shift per code word, block 3's are whole words), where
 * wq_raw's 5-load form shifts by a runtime amount; 17 loads for four blocks instead of 20. Decodes as wq_block_c8 does.
 */
function mxQuadC8(bb: number, qs: number): string {
  const lines = [
    `struct WqQuadI8 {\n${Array.from({ length: 4 }, (_, h) => `  b${h}: WqBlockI8,`).join('\n')}\n}`,
    'fn wq_quad_c8(blk: u32) -> WqQuadI8 {',
    `  let w0 = (blk >> 2u) * ${u(bb)};`,
    ...Array.from({ length: bb }, (_, i) => `  let W${i} = wq_w(w0 + ${u(i)});`),
    '  var o: WqQuadI8;',
  ];
  for (let h = 0; h < 4; h++) {
    const [sw, ss] = [(bb * h) >> 2, ((bb * h) & 3) * 8];
    const byte = ss === 24 ? `W${sw} >> 24u` : ss ? `(W${sw} >> ${u(ss)}) & 0xffu` : `W${sw} & 0xffu`;
    lines.push(`  o.b${h}.d = wq_e8m0_half(${byte});`, `  o.b${h}.m = 0.0;`);
    const [cw, cs] = [(bb * h + qs) >> 2, ((bb * h + qs) & 3) * 8];
    for (let t = 0; t < 4; t++) {
      const w = cs ? `(W${cw + t} >> ${u(cs)}) | (W${cw + t + 1} << ${u(32 - cs)})` : `W${cw + t}`;
      lines.push(`  let p${h}${t} = wq_e2m1x2_i8(${w});`, `  o.b${h}.q[${t}] = p${h}${t}.x;`, `  o.b${h}.q[${t + 4}] = p${h}${t}.y;`);
    }
  }
  return [...lines, '  return o;', '}'].join('\n') + '\n';
}

/** The word reads every block decode shares: wq_w (word w past wordOffset), a funnel shift, u32 and f16 at a byte. */
function wordReads(buffer: string, wordOffset: number, vec4 = false): string[] {
  return [
    vec4
      ? `fn wq_w(w: u32) -> u32 {\n  let i = ${u(wordOffset)} + w;\n  return ${buffer}[i >> 2u][i & 3u];\n}`
      : `fn wq_w(w: u32) -> u32 {\n  return bitcast<u32>(${buffer}[${u(wordOffset)} + w]);\n}`,
    // lo's bytes from s/8 on, then hi's: a u32 at a byte offset that is not a multiple of 4.
    `fn wq_funnel(lo: u32, hi: u32, s: u32) -> u32 {\n  return select((lo >> s) | (hi << (32u - s)), lo, s == 0u);\n}`,
    `fn wq_u32_at(b: u32) -> u32 {\n  return wq_funnel(wq_w(b >> 2u), wq_w((b >> 2u) + 1u), (b & 3u) * 8u);\n}`,
    `fn wq_f16_at(b: u32) -> f32 {\n  return unpack2x16float(wq_w(b >> 2u) >> ((b & 2u) * 8u)).x;\n}`,
  ];
}

/**
 * ggml's kvalues_mxfp4 (2·E2M1) of four codes, computed from the bits by the generic minifloat decode
 * rather than looked up: a dynamically indexed const array is lowered to a per-thread local copy by
 * some compilers (the suspected cause of the mxfp4 GEMV's 866 µs against q4_0's 294 at 16384² on the
 * H200). Doubling is exact. A function, not a constant: elementDecode4 is defined below.
 */
const e2m1x2Wgsl = (): string => [elementDecode4(ELEMENTS.e2m1, 'wq_e2m1'), `fn wq_e2m1x2(c: vec4<u32>) -> vec4<f32> {\n  return 2.0 * wq_e2m1(c);\n}`].join('\n');

/**
 * 2^(e − 128), MXFP4's scale for its ×2 codes, from the bits as ggml's GGML_E8M0_TO_FP32_HALF builds
 * it: (e − 1) << 23 for e ≥ 2, the subnormals 2^-127 and 2^-128 below (no ldexp).
 */
const E8M0_HALF_WGSL = `fn wq_e8m0_half(e: u32) -> f32 {\n  return bitcast<f32>(select((e - 1u) << 23u, 0x00200000u << e, e < 2u));\n}`;

const hex = (n: number) => `0x${(n >>> 0).toString(16).padStart(8, '0')}u`;

/**
 * `fn wq_e4m3x2_f16(w: u32) -> vec2<f32>`: the E4M3 codes in bits 0…7 and 8…15 of w (bits above ignored) × 2^-8, both
 * at once. E4M3 s.eeee.mmm placed in an f16 as s.0eeee.mmm0000000 is exactly E4M3 × 2^(7 − 15) — normals and
 * subnormals alike (the same mantissa alignment, f16's bias 15 against 7) — and unpack2x16float (core WGSL, no
 * shader-f16) widens both halves exactly: 7 integer operations for the pair (the bytes placed, each sign carried from
 * bit 14 to 15 by z + (z & 0x4000)), where building each f32 from its bits took ≈ 20. The codes the codec calls NaN
 * (0x7f, 0xff) give ±480, as the bitwise decode before did (the encoder never writes them). Callers multiply by
 * E4M3_F16_UNSCALE (2^8), folded into a constant they already apply.
 */
const E4M3X2_F16_WGSL = ((): string => {
  const { exp, man, bias } = MINIFLOAT_LAYOUT.e4m3;
  if (exp !== 4 || man !== 3 || bias !== 7) throw new Error('wq_e4m3x2_f16 is written for E4M3 (4 exponent bits under the sign: one gap bit below f16\'s)');
  const at = 10 - man; // the code's bits 0…6 (mantissa, then exponent) at f16 bits 7…13, its sign at 14, carried to 15
  return [
    'fn wq_e4m3x2_f16(w: u32) -> vec2<f32> {',
    `  let z = ((w << ${u(at)}) & ${hex(0xff << at)}) | ((w << ${u(at + 8)}) & ${hex((0xff << (at + 16)) >>> 0)});`,
    `  return unpack2x16float(z + (z & ${hex(((0x80 << at) | (0x80 << (at + 16))) >>> 0)}));`,
    '}',
  ].join('\n');
})();
/** 2^(15 − 7): wq_e4m3x2_f16's values × this are E4M3's. */
const E4M3_F16_UNSCALE = 2 ** (15 - MINIFLOAT_LAYOUT.e4m3.bias);
const WQ_BLOCK_I8_STRUCT = `struct WqBlockI8 {\n  q: array<u32, 8>,\n  d: f32,\n  m: f32,\n}`;

/**
 * Eight E2M1 codes (the nibbles of c) ×2 as i8 — the integers ±{0,1,2,3,4,6,8,12} — by bit operations on
 * all nibbles at once (no table: see e2m1x2Wgsl): .x the even nibbles' four bytes, .y the odd ones'.
 * Magnitude code m = 4·b2 + 2·b1 + b0 → v = m + g + (g & 2g), g = b2·(m & 3) (b2 moved under b1 and
 * b0 by the two shifts a, b; g & 2g is 2·b0·b1·b2): at most 12, no carry between nibbles. The sign s
 * counts where m ≠ 0 (m + 7 reaches bit 3; −0 is 0); t = (v ^ 15s) + s is the nibble 16 − v of a
 * negative weight, and each byte takes t's nibble with the sign spread over its upper four bits
 * (240s for the even nibbles, 15s in place for the odd ones): 0xF0 | (16 − v) = 256 − v, the two's
 * complement −v. 26 WGSL operations, 2 of them multiplies (was 27 with 4: the sign spread per byte twice
 * and added by two multiply-adds); with 3-input logic fused, an estimated 15 integer-pipe instructions
 * (was 17). H200 GEMV 16384² (matmul-tune.sh e2m1): mxfp4_t1 68.3 → 66.5 µs, nvfp4 76.3 → 75.8 µs;
 * ggml mxfp4 with main's loads 80.9 against 80.1 (inside 1%): the integer op count is not the wall.
 */
const E2M1X2_I8_WGSL = [
  `fn wq_e2m1x2_i8(c: u32) -> vec2<u32> {`,
  `  let a = c >> 1u;`,
  `  let b = c >> 2u;`,
  `  let g = c & ((a & 0x22222222u) | (b & 0xddddddddu)) & 0x33333333u;`,
  `  let m = c & 0x77777777u;`,
  `  let v = m + g + (g & (g << 1u));`,
  `  let s = (c & (m + 0x77777777u) & 0x88888888u) >> 3u;`,
  `  let s15 = s * 15u;`,
  `  let t = (v ^ s15) + s;`,
  `  return vec2<u32>((t & 0x0f0f0f0fu) | ((s * 240u) & 0xf0f0f0f0u), ((t >> 4u) & 0x0f0f0f0fu) | (s15 & 0xf0f0f0f0u));`,
  `}`,
].join('\n');

/** Threads per 32-weight chunk in the part form: wq_part(blk, s) gives weights 8s…8s+7 of chunk blk. */
export const BLOCK_PARTS = 4;

/**
 * struct WqBlock and fn wq_block(blk) (8 vec4: the whole chunk), struct WqPart and fn wq_part(blk, s)
 * (2 vec4: weights 8s…8s+7, so four neighbouring threads read a chunk's words and their activations
 * side by side), or fn wq_unpack(r: WqRaw) (WqBlock from raw fields loaded earlier): `body` computes
 * what q (vec4 expressions), d and m read.
 */
function wqFn(form: 'block' | 'part' | 'unpack', body: readonly string[], q: readonly string[], d: string, m: string): string[] {
  const [T, fn, args] = form === 'block' ? ['WqBlock', 'wq_block', 'blk: u32'] : form === 'part' ? ['WqPart', 'wq_part', 'blk: u32, s: u32'] : ['WqBlock', 'wq_unpack', 'r: WqRaw'];
  return [
    ...(form === 'unpack' ? [] : [`struct ${T} {\n  q: array<vec4<f32>, ${q.length}>,\n  d: f32,\n  m: f32,\n}`]),
    `fn ${fn}(${args}) -> ${T} {`,
    ...body,
    `  var b: ${T};`,
    `  b.d = ${d};`,
    `  b.m = ${m};`,
    ...q.map((e, i) => `  b.q[${i}] = ${e};`),
    `  return b;`,
    `}`,
  ];
}

/**
 * The raw form of the K-quant and Track-1 decoders: the chunk index (their loads depend on it
 * through scales and offsets), so wq_unpack does the loads — kernels that prefetch raw blocks
 * (sgmatrix) still work, without the prefetch.
 */
const RAW_AS_INDEX = [`struct WqRaw {\n  blk: u32,\n}`, `fn wq_raw(blk: u32) -> WqRaw {\n  return WqRaw(blk);\n}`].join('\n');
const UNPACK_BY_INDEX = `fn wq_unpack(r: WqRaw) -> WqBlock {\n  return wq_block(r.blk);\n}\n`;

/**
 * q − sub as vec4<f32> for a vec4<u32> q < 2^23, exactly, without an int → float conversion (a
 * quarter-rate instruction on NVIDIA GPUs, 32 of them per chunk): 2^23 + q is the f32 with q in its
 * mantissa, and subtracting 2^23 + sub leaves the small integer q − sub.
 */
function u2f(q: string, sub: number, n = 4): string {
  return `(bitcast<vec${n}<f32>>(${q} | vec${n}<u32>(0x4b000000u)) - vec${n}<f32>(${8388608 + sub}.0))`;
}

const vu = (xs: readonly number[]) => `vec4<u32>(${xs.map(u).join(', ')})`;

/**
 * `fn wq_el4(c: vec4<u32>) -> vec4<f32>` (or `name` over vecN): element codes' values, equal to
 * wgsl.ts's scalar decode_<element> for every finite code (the encoder writes no NaN/Inf).
 * Minifloats are built from their bits (sign | exponent rebased to f32's | mantissa), subnormals as
 * m·2^(1−bias−man): no int → float conversion, no ldexp.
 */
function elementDecode4(el: ElementCodec, name = 'wq_el4', n = 4): string {
  const V = `vec${n}`;
  if (el.kind === 'int') {
    // b-bit two's complement c: (c ^ 2^(b−1)) − 2^(b−1).
    const half = 2 ** (el.bits - 1);
    return `fn ${name}(c: ${V}<u32>) -> ${V}<f32> {\n  return ${u2f(`(c ^ ${V}<u32>(${u(half)}))`, half, n)};\n}`;
  }
  const { exp, man, bias } = MINIFLOAT_LAYOUT[el.name];
  const v = (x: number) => `${V}<u32>(${u(x)})`;
  return [
    `fn ${name}(c: ${V}<u32>) -> ${V}<f32> {`,
    `  let e = (c >> ${v(man)}) & ${v((1 << exp) - 1)};`,
    `  let m = c & ${v((1 << man) - 1)};`,
    `  let normal = bitcast<${V}<f32>>(((e + ${v(127 - bias)}) << ${v(23)}) | (m << ${v(23 - man)}));`,
    `  let mag = select(${u2f('m', 0, n)} * ${2 ** (1 - bias - man)}, normal, e != ${v(0)});`,
    `  return select(mag, -mag, (c & ${v(1 << (el.bits - 1))}) != ${v(0)});`,
    `}`,
  ].join('\n');
}

/** The code of `bits` bits at bit p of the chunk's words W0…: a shift, a mask, a second word where it straddles. */
function codeAt(p: number, bits: number): { word: number; shift: number; straddles: boolean } {
  return { word: p >> 5, shift: p & 31, straddles: (p & 31) + bits > 32 };
}

/** Codes 4i…4i+3 of the chunk as a vec4<u32> (one vector shift where they share a word). */
function codes4(i: number, bits: number): string {
  const mask = bits === 32 ? null : (1 << bits) - 1;
  const at = [0, 1, 2, 3].map((t) => codeAt((4 * i + t) * bits, bits));
  const masked = (e: string, vec: boolean) => (mask === null ? e : `(${e} & ${vec ? `vec4<u32>(${u(mask)})` : u(mask)})`);
  if (at.every((a) => a.word === at[0].word && !a.straddles)) return masked(`(vec4<u32>(W${at[0].word}) >> ${vu(at.map((a) => a.shift))})`, true);
  const one = (a: (typeof at)[number]) => masked(a.straddles ? `((W${a.word} >> ${u(a.shift)}) | (W${a.word + 1} << ${u(32 - a.shift)}))` : `(W${a.word} >> ${u(a.shift)})`, false);
  return `vec4<u32>(${at.map(one).join(', ')})`;
}

/** Track-1: the chunk's codes (bits words from word blk·bits), its block scale(s) from the scale stream. */
function track1Block(f: WeightFormat, wordOffset: number, buffer: string, { rows, cols }: BlockShape, vec4 = false): BlockDecode {
  const q = QUANT_FORMATS.find((x) => x.name === f.codecName)!;
  const el = ELEMENTS[q.element];
  const bits = el.bits;
  const cw = codeWords(f, rows, cols);
  const nb = Math.ceil(cols / q.blockSize);
  const sbits = SCALE_BITS[q.scale];
  const sw = Math.ceil((rows * nb * sbits) / 32);
  const global = q.scale === 'e4m3_fp32_global';
  const perChunk = CHUNK / q.blockSize; // 2 (block 16), 1 (32), 0.5 (64)
  // Scale code i of the stream (8-, 16- or 32-bit codes, LSB-first).
  const scaleCode =
    sbits === 32 ? `wq_w(${u(cw)} + i)` : sbits === 16 ? `(wq_w(${u(cw)} + (i >> 1u)) >> ((i & 1u) * 16u)) & 0xffffu` : `(wq_w(${u(cw)} + (i >> 2u)) >> ((i & 3u) * 8u)) & 0xffu`;
  // The chunk's first scale: blk·32/blockSize when every row's blocks are whole, else row by row (ragged last block).
  const KB = cols / CHUNK;
  const si =
    cols % q.blockSize === 0
      ? perChunk >= 1 ? (perChunk === 1 ? 'blk' : `blk * ${u(perChunk)}`) : `blk / ${u(1 / perChunk)}`
      : `(blk / ${u(KB)}) * ${u(nb)} + (blk % ${u(KB)}) / ${u(1 / perChunk)}`;
  // The whole chunk: bits words from word blk·bits. Part s: its 8·bits bits from byte 4·bits·blk + bits·s
  // (a funnel where bits is not a multiple of 4). 16-weight blocks: q carries its block's scale (the
  // codec's e·s) and d is the global (1 elsewhere); else d is the chunk's one scale.
  const fns = (['block', 'part'] as const).map((form) => {
    const n = form === 'block' ? 8 : 2;
    const body =
      form === 'block'
        ? [`  let w0 = blk * ${u(bits)};`, ...Array.from({ length: bits }, (_, i) => `  let W${i} = wq_w(w0 + ${u(i)});`)]
        : wordsAt('W', `blk * ${u(4 * bits)} + s * ${u(bits)}`, Math.ceil(bits / 4), bits % 4 === 0);
    body.push(`  let si = ${si};`);
    if (perChunk !== 2) return wqFn(form, body, Array.from({ length: n }, (_, i) => `wq_el4(${codes4(i, bits)})`), 'wq_scale(si)', '0.0');
    // E4M3 scales (nvfp4) through wq_e4m3x2_f16: both of a chunk's from one word, or part s's (the word's low byte after the shift).
    const e4 = (at: string) => `wq_e4m3x2_f16(wq_w(${u(cw)} + (${at} >> 2u)) >> ((${at} & 3u) * 8u)) * ${E4M3_F16_UNSCALE}.0`;
    if (global) body.push(...(form === 'block' ? [`  let sp = ${e4('si')};`, '  let s0 = sp.x;', '  let s1 = sp.y;'] : ['  let sk = si + (s >> 1u);', `  let s0 = (${e4('sk')}).x;`]));
    else body.push(...(form === 'block' ? ['  let s0 = wq_scale(si);', '  let s1 = wq_scale(si + 1u);'] : ['  let s0 = wq_scale(si + (s >> 1u));']));
    return wqFn(form, body, Array.from({ length: n }, (_, i) => `wq_el4(${codes4(i, bits)}) * s${i < 4 ? 0 : 1}`), global ? `bitcast<f32>(wq_w(${u(cw + sw)}))` : '1.0', '0.0');
  });
  const dot4 = track1Dot4(q.element);
  const gScale = global ? ` * bitcast<f32>(wq_w(${u(cw + sw)}))` : '';
  // nvfp4's two E4M3 scales: one word read, both decoded at once as an f16 pair (si is even: same word), × 2^8 after.
  const pair = global ? { word: `wq_w(${u(cw)} + (si >> 2u)) >> ((si & 3u) * 8u)` } : null;
  // vec4: the chunk's bits words are bits/4 whole vec4s from vec4 wordOffset/4 + blk·bits/4 (wordOffset % 4 == 0).
  const codeLoads = vec4
    ? [
        ...Array.from({ length: bits / 4 }, (_, v) => `  let V${v} = ${buffer}[${u(wordOffset / 4)} + blk${bits === 4 ? '' : ` * ${u(bits / 4)}`}${v ? ` + ${u(v)}` : ''}];`),
        ...Array.from({ length: bits }, (_, i) => `  let W${i} = V${i >> 2}.${'xyzw'[i & 3]};`),
      ]
    : [`  let w0 = blk * ${u(bits)};`, ...Array.from({ length: bits }, (_, i) => `  let W${i} = wq_w(w0 + ${u(i)});`)];
  const c8 = dot4 ? track1C8(dot4, bits, si, perChunk === 2, gScale, pair, codeLoads) : [];
  const lines = [
    `// block decode: ${f.name} (${q.element} codes, ${q.blockSize}-weight blocks, ${q.scale} scale), ${rows} × ${cols}, one call per 32 weights`,
    ...wordReads(buffer, wordOffset, vec4),
    elementDecode4(el),
    ...(global ? [E4M3X2_F16_WGSL] : []),
    ...(q.scale === 'e4m3_fp32_global' ? [elementDecodeWgsl(ELEMENTS.e4m3)] : []),
    scaleDecodeWgsl(q),
    `fn wq_scale(i: u32) -> f32 {\n  return decode_scale(${scaleCode});\n}`,
    ...fns.flat(),
    ...c8,
  ];
  const dot4Fields = { integer: dot4 !== null, bias: dot4 === 'int4' ? 8 : 0, dot4Order: dot4 === 'int8' ? ('k' as const) : ('nib' as const), halves: dot4 !== null && perChunk === 2, e2m1: dot4 === 'e2m1' };
  return { wgsl: [...lines, RAW_AS_INDEX].join('\n') + '\n', unpack: UNPACK_BY_INDEX, blockSize: 32, hasMin: false, ...dot4Fields };
}

/**
 * Track-1's wq_block_c8: the chunk's code words as i8 words for dot4I8Packed. 8-bit integers are
 * the words themselves (quants 4t…4t+3); a 4-bit word gives its even nibbles then its odd ones
 * (dot4Order 'nib'): E2M1 ×2 signed (wq_e2m1x2_i8, d the scale halved), int4 as unsigned c ^ 8
 * (bias 8, taken through Σq). 16-weight blocks (nvfp4): d for q[0…3], d1 for q[4…7]; nvfp4's global in both.
 */
function track1C8(dot4: 'e2m1' | 'int4' | 'int8', bits: number, si: string, halves: boolean, gScale: string, pair: { word: string } | null, codeLoads: readonly string[]): string[] {
  const half = dot4 === 'e2m1' ? ' * 0.5' : '';
  // The f16 pair's 2^8 and E2M1's ½ one constant, multiplied into the global first (powers of two: the same product, rounded once).
  const unscale = E4M3_F16_UNSCALE * (dot4 === 'e2m1' ? 0.5 : 1);
  const scales =
    halves && pair
      ? [`  let sw = ${pair.word};`, `  let sc = wq_e4m3x2_f16(sw) * (${gScale ? gScale.replace(/^ \* /, '') : '1.0'} * ${unscale}.0);`, `  b.d = sc.x;`, `  b.d1 = sc.y;`]
      : [`  b.d = wq_scale(si)${half}${gScale};`, ...(halves ? [`  b.d1 = wq_scale(si + 1u)${half}${gScale};`] : [])];
  const q: string[] = [];
  for (let i = 0; i < bits; i++) {
    if (dot4 === 'int8') q.push(`  b.q[${i}] = W${i};`);
    else if (dot4 === 'e2m1') q.push(`  let p${i} = wq_e2m1x2_i8(W${i});`, `  b.q[${2 * i}] = p${i}.x;`, `  b.q[${2 * i + 1}] = p${i}.y;`);
    else q.push(`  let c${i} = W${i} ^ 0x88888888u;`, `  b.q[${2 * i}] = c${i} & 0x0f0f0f0fu;`, `  b.q[${2 * i + 1}] = (c${i} >> 4u) & 0x0f0f0f0fu;`);
  }
  return [
    ...(dot4 === 'e2m1' ? [E2M1X2_I8_WGSL] : []),
    halves ? `struct WqBlockI8 {\n  q: array<u32, 8>,\n  d: f32,\n  d1: f32,\n  m: f32,\n}` : WQ_BLOCK_I8_STRUCT,
    `fn wq_block_c8(blk: u32) -> WqBlockI8 {`,
    ...codeLoads,
    `  let si = ${si};`,
    `  var b: WqBlockI8;`,
    ...scales,
    `  b.m = 0.0;`,
    ...q,
    `  return b;`,
    `}`,
  ];
}

/** `let P0…P{n−1}`: n words from byte expression `at` (a funnel over n + 1 where `at` may not be 4-aligned). */
function wordsAt(name: string, at: string, n: number, aligned: boolean): string[] {
  if (aligned) return [`  let ${name}w = (${at}) >> 2u;`, ...Array.from({ length: n }, (_, i) => `  let ${name}${i} = wq_w(${name}w + ${u(i)});`)];
  return [
    `  let ${name}a = ${at};`,
    `  let ${name}w = ${name}a >> 2u;`,
    `  let ${name}s = (${name}a & 3u) * 8u;`,
    ...Array.from({ length: n + 1 }, (_, i) => `  let ${name}r${i} = wq_w(${name}w + ${u(i)});`),
    ...Array.from({ length: n }, (_, i) => `  let ${name}${i} = wq_funnel(${name}r${i}, ${name}r${i + 1}, ${name}s);`),
  ];
}

const BYTE_LANES = 'vec4<u32>(0u, 8u, 16u, 24u)';

/**
 * The K-quants, one 32-weight eighth c of super-block blk/8 per call (ggml-k.ts's dequantize, step
 * for step): Q4_K/Q5_K's chunk is sub-block c (scale and min from get_scale_min_k4; quants the low or
 * high nibbles of 32 bytes, Q5_K's bit 4 from qh), Q6_K's is half c/4, quarter c%4 (two 16-weight
 * scales, so q carries d·sc).
 */
function kQuantBlock(f: WeightFormat, wordOffset: number, buffer: string): BlockDecode {
  const bb = f.blockBytes!;
  const head = [`// block decode: ${f.name} (${bb} B per 256 weights), one call per 32 weights (or 8: wq_part)`, ...wordReads(buffer, wordOffset)];
  const byteAt = `fn wq_byte(b: u32) -> u32 {\n  return (wq_w(b >> 2u) >> ((b & 3u) * 8u)) & 0xffu;\n}`;
  const lanes = (w: string, extra: string) => `(vec4<u32>(${w}) >> (${BYTE_LANES} + vec4<u32>(${extra})))`;
  // The chunk's 8 words of a stream from byte `at`, or part s's 2 (from at + 8s).
  const words = (form: 'block' | 'part', name: string, at: string, aligned: boolean) => (form === 'block' ? wordsAt(name, at, 8, aligned) : wordsAt(name, `${at} + s * 8u`, 2, aligned));
  const n = (form: 'block' | 'part') => (form === 'block' ? 8 : 2);
  const i8 = (b: string) => `f32(bitcast<i32>(wq_byte(${b}) << 24u) >> 24u)`;
  if (f.name === 'q6_k') {
    const fns = (['block', 'part'] as const).map((form) => {
      const body = [
        `  let o = (blk >> 3u) * ${u(bb)};`,
        '  let c = blk & 7u;',
        '  let hf = c >> 2u;',
        '  let k = c & 3u;',
        ...words(form, 'L', `o + hf * 64u + 32u * (k & 1u)`, false),
        ...words(form, 'H', `o + 128u + hf * 32u`, false),
        '  let ns = (k >> 1u) * 4u;',
        '  let d = wq_f16_at(o + 208u);',
        // The 16-weight sub-blocks' i8 scales (both, or part s's), d·sc rounded once as the codec does.
        `  let sc = o + 192u + hf * 8u + 2u * k;`,
        ...(form === 'block' ? [`  let ds0 = d * ${i8('sc')};`, `  let ds1 = d * ${i8('sc + 1u')};`] : [`  let ds0 = d * ${i8('sc + (s >> 1u)')};`]),
      ];
      const qs = Array.from({ length: n(form) }, (_, i) => `${u2f(`((${lanes(`L${i}`, 'ns')} & vec4<u32>(15u)) | ((${lanes(`H${i}`, '2u * k')} & vec4<u32>(3u)) << vec4<u32>(4u)))`, 32)} * ds${i < 4 ? 0 : 1}`);
      return wqFn(form, body, qs, '1.0', '0.0');
    });
    return { wgsl: [...head, byteAt, ...fns.flat(), RAW_AS_INDEX].join('\n') + '\n', unpack: UNPACK_BY_INDEX, blockSize: 32, hasMin: false, integer: false, bias: 0, dot4Order: 'k', halves: false };
  }
  const q5 = f.name === 'q5_k';
  const fns = (['block', 'part'] as const).map((form) => {
    const body = [
      `  let o = (blk >> 3u) * ${u(bb)};`,
      '  let c = blk & 7u;',
      '  let sm = wq_scale_min(o, c);',
      ...words(form, 'Q', `o + ${q5 ? '48u' : '16u'} + 32u * (c >> 1u)`, true),
      ...(q5 ? words(form, 'H', 'o + 16u', true) : []),
      '  let ns = (c & 1u) * 4u;',
    ];
    const qs = Array.from({ length: n(form) }, (_, i) => {
      const nib = `(${lanes(`Q${i}`, 'ns')} & vec4<u32>(15u))`;
      return u2f(q5 ? `(${nib} | ((${lanes(`H${i}`, 'c')} & vec4<u32>(1u)) << vec4<u32>(4u)))` : nib, 0);
    });
    // weight = fround(d·sc · q) − fround(dmin·m): d = d·sc, m = −dmin·m.
    return wqFn(form, body, qs, 'wq_f16_at(o) * f32(sm.x)', '-(wq_f16_at(o + 2u) * f32(sm.y))');
  });
  return { wgsl: [...head, byteAt, ...SCALE_MIN_K4_WGSL, ...fns.flat(), RAW_AS_INDEX].join('\n') + '\n', unpack: UNPACK_BY_INDEX, blockSize: 32, hasMin: true, integer: false, bias: 0, dot4Order: 'k', halves: false };
}

/**
 * mmvq's e2m1Decode 'table': E2M1 code bytes looked up in workgroup memory instead of decoded by bit operations
 * (wq_e2m1x2_i8's ≈15 integer-pipe instructions per code word; the E2M1 GEMVs are integer-ALU bound on the H200).
 * Entry P[b] of a code byte b (two nibbles lo, hi) holds their ×2 E2M1 values as i8 (ggml's kvalues_mxfp4) in
 * bytes 0 and 2: P[b] = v(lo) | v(hi) << 16. A code word c's bytes b0…b3 give two dot4I8Packed operands:
 * X01 = P[b0] | P[b1] << 8 = [lo0, lo1, hi0, hi1] and X23 = P[b2] | P[b3] << 8 = [lo2, lo3, hi2, hi3], so the
 * activations are packed to match (E2M1_TABLE_ORDER). The table is replicated per lane (E2M1_TABLE_COPIES):
 * word b·32 + lane, so the lanes of a subgroup of 32 read 32 different banks whatever bytes they hold; the
 * address is one shift and one 3-input and-or ((c << 5) & 0x1fe0 | lane, …). Per code word: 4 shifts, 4
 * and-ors, 2 shift-ors = 10 integer instructions (was ≈15) and 4 shared-memory loads. Any lane → copy map is
 * correct (every copy is the same table): lane = local_invocation_index & 31, the subgroup lane on 1-D
 * workgroups of 32-wide subgroups, a valid copy elsewhere (SwiftShader's subgroups of 4).
 */
export const E2M1_TABLE_COPIES = 32;
/** Workgroup memory of the table: 256 entries × 32 copies × 4 B = 32 KiB. */
export const E2M1_TABLE_BYTES = 256 * E2M1_TABLE_COPIES * 4;

/** Which q8_1 activations each word of wq_block_c8 pairs with under the table (block-wgsl BlockDecode.dot4Order, extended). */
export type Dot4Order = 'k' | 'nib' | 'nib-lut' | 'k-lut';
/**
 * The table's word order: Track-1 ('nib': code word i holds weights 8i…8i+7 LSB-first) → 'nib-lut', word t the
 * quants 4t + {0, 2, 1, 3}; ggml mxfp4 ('k': byte j of code word t holds weights 4t + j and 16 + 4t + j) → 'k-lut',
 * word t < 4 the quants 4t + {0, 1, 16, 17}, word t + 4 the quants 4t + {2, 3, 18, 19}.
 */
export const E2M1_TABLE_ORDER: Readonly<Record<'k' | 'nib', Dot4Order>> = { k: 'k-lut', nib: 'nib-lut' };

/** The 256 table entries from the codec's E2M1 decode: P[b] = i8(2·e2m1(b & 15)) | i8(2·e2m1(b >> 4)) << 16. */
export function e2m1x2Table(): number[] {
  const v = (n: number) => Math.round(2 * ELEMENTS.e2m1.decode(n)) & 0xff;
  return Array.from({ length: 256 }, (_, b) => (v(b & 15) | (v(b >> 4) << 16)) >>> 0);
}

/**
 * The block decode with E2M1 code words looked up (e2m1Decode 'table'): `decodeWgsl` (an e2m1 BlockDecode's wgsl or
 * c8Vec4) with wq_block_c8's wq_e2m1x2_i8 calls made wq_e2m1x2_lut calls, the table and its lookup appended; `fill`,
 * the statements a kernel runs first (every thread, `lid` its local_invocation_index, `threads` of them): its lane,
 * the table's 8192 words written from the codec's values (four constants of 2·E2M1 as i8, no dynamically indexed
 * array, each entry computed once), one barrier.
 */
export function e2m1TableDecode(decodeWgsl: string, threads: number): { wgsl: string; fill: string[] } {
  const calls = /(?<!fn )wq_e2m1x2_i8\(/g;
  if (!decodeWgsl.match(calls)) throw new Error('e2m1TableDecode: this block decode has no E2M1 code words (no wq_e2m1x2_i8 call)');
  const t = e2m1x2Table();
  const k = [0, 1, 2, 3].map((i) => [0, 1, 2, 3].reduce((w, j) => w | (t[4 * i + j] & 0xff) << (8 * j), 0) >>> 0);
  const n = 256 * E2M1_TABLE_COPIES;
  const wgsl = [
    decodeWgsl.replace(calls, 'wq_e2m1x2_lut(').trimEnd(),
    `var<workgroup> wq_lut: array<u32, ${n}>;`,
    'var<private> wq_lane: u32;',
    // Nibble n's 2·E2M1 as an i8 byte: byte n & 3 of constant n >> 2.
    `fn wq_e2m1x2_nib(n: u32) -> u32 {\n  let k = select(select(${u(k[0])}, ${u(k[1])}, n >= 4u), select(${u(k[2])}, ${u(k[3])}, n >= 12u), n >= 8u);\n  return (k >> ((n & 3u) * 8u)) & 0xffu;\n}`,
    [
      'fn wq_e2m1x2_lut(c: u32) -> vec2<u32> {',
      '  let p0 = wq_lut[((c << 5u) & 0x1fe0u) | wq_lane];',
      '  let p1 = wq_lut[((c >> 3u) & 0x1fe0u) | wq_lane];',
      '  let p2 = wq_lut[((c >> 11u) & 0x1fe0u) | wq_lane];',
      '  let p3 = wq_lut[((c >> 19u) & 0x1fe0u) | wq_lane];',
      '  return vec2<u32>(p0 | (p1 << 8u), p2 | (p3 << 8u));',
      '}',
    ].join('\n'),
  ].join('\n') + '\n';
  // A thread an entry (b = lid, lid + threads, …), computed once and stored into its 32 copies, copy (j + lid) % 32 at step j:
  // the 32 lanes of a subgroup write 32 different banks at every step. ~3 integer ops a store (a 32 KiB table per workgroup).
  const fill = [
    `wq_lane = lid & ${u(E2M1_TABLE_COPIES - 1)};`,
    `for (var b = lid; b < 256u; b = b + ${u(threads)}) {`,
    '  let e = wq_e2m1x2_nib(b & 15u) | (wq_e2m1x2_nib(b >> 4u) << 16u);',
    `  for (var j = 0u; j < ${u(E2M1_TABLE_COPIES)}; j = j + 1u) {`,
    `    wq_lut[(b << 5u) | ((j + lid) & ${u(E2M1_TABLE_COPIES - 1)})] = e;`,
    '  }',
    '}',
    'workgroupBarrier();',
  ];
  return { wgsl, fill };
}
