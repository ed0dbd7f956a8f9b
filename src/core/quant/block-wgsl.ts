// Block-at-a-time WGSL decode of ggml's 32-weight block types (Q4_0, Q4_1, Q5_0, Q5_1, Q8_0,
// MXFP4) for the GEMV kernels: one call reads a block's words once (its scale once, its packed
// quants as whole u32 words, 2-byte-aligned blocks joined by a funnel shift) and returns all 32
// quants. Two forms:
//   wq_block(blk)    -> WqBlock   { q: 8 × vec4<f32> in k order, d, m }: weight k = q·d + m
//                       (also as wq_raw(blk), the loads, then wq_unpack(raw), the arithmetic);
//   wq_block_i8(blk) -> WqBlockI8 { q: 8 × u32 of four i8 each in k order, d, m } for the
//                       integer-dot (MMVQ) kernel: dot4I8Packed(q[i], x8) · d · dx + m · Σx.
// blk is the flat block index (row · K/32 + k/32). q·d is exact in f32 for every type here (an
// f16 or power-of-two scale times a ≤ 5-bit integer), so Σ d·(q·x) only reorders the oracle's
// sum of fround(q·d)·x; Q4_1/Q5_1's + m is one rounding per weight in the oracle, taken here as
// m·Σx (within the bound's eps per term).
import { weightFormat, type WeightFormat } from './weights';

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

/** The formats with a block decoder (ggml's 32-weight legacy types and MXFP4). */
export function hasBlockDecode(format: string | number): boolean {
  const f = weightFormat(format);
  return f.kind === 'ggml' && f.name in LAYOUTS;
}

/** The integer (MMVQ) form: every block type whose quants are integers (not mxfp4's E2M1 table). */
export function hasIntegerBlockDecode(format: string | number): boolean {
  return hasBlockDecode(format) && !LAYOUTS[weightFormat(format).name].lut;
}

export interface BlockDecode {
  /** WGSL: the block struct(s) and wq_block / wq_block_i8, reading `buffer` (u32/i32 words) past wordOffset. */
  readonly wgsl: string;
  readonly blockSize: 32;
  /** Q4_1/Q5_1: weight = q·d + m, so kernels add m·Σx. */
  readonly hasMin: boolean;
  /** wq_block_i8 is defined too (integer quants; not mxfp4's E2M1 table). */
  readonly integer: boolean;
  /** WGSL of `fn wq_unpack(r: WqRaw) -> WqBlock`: wq_block's decode of raw fields loaded earlier (wq_raw), for kernels that prefetch. */
  readonly unpack: string;
  /** What wq_block_c8's codes carry over wq_block_i8's quants (q4_0: 8, q5_0: 16, else 0). */
  readonly bias: number;
}

/** How many u32 words cover `n` bytes starting at any offset ≡ align (mod 4). */
const wordsSpanned = (n: number, align: number) => Math.ceil((n + align) / 4);

/**
 * WGSL for wq_block (and wq_block_i8 where the quants are integers) of format f, blocks packed
 * back to back from word `wordOffset` of `buffer` (weights.ts's ggml layout).
 */
export function blockDecodeWgsl(format: string | number, wordOffset: number, buffer = 'src0'): BlockDecode {
  const f: WeightFormat = weightFormat(format);
  const L = LAYOUTS[f.name];
  if (!L || f.kind !== 'ggml') throw new Error(`${f.name}: no block decode (ggml's 32-weight block types only)`);
  const bb = f.blockBytes!;
  // A block starts at byte blk·bb: 4-aligned when bb is, else 2-aligned (even bb), else anywhere (mxfp4).
  const maxMis = bb % 4 === 0 ? 0 : bb % 2 === 0 ? 2 : 3;
  const qsBytes = L.codes === 'nib4' ? 16 : 32;
  const qsWords = qsBytes / 4;
  const span = wordsSpanned(qsBytes, maxMis);
  const lines: string[] = [
    `// block decode: ${f.name} (${bb} B per 32 weights), one call per block`,
    `fn wq_w(w: u32) -> u32 {\n  return bitcast<u32>(${buffer}[${u(wordOffset)} + w]);\n}`,
    // lo's bytes from s/8 on, then hi's: a u32 at a byte offset that is not a multiple of 4.
    `fn wq_funnel(lo: u32, hi: u32, s: u32) -> u32 {\n  return select((lo >> s) | (hi << (32u - s)), lo, s == 0u);\n}`,
    `fn wq_u32_at(b: u32) -> u32 {\n  return wq_funnel(wq_w(b >> 2u), wq_w((b >> 2u) + 1u), (b & 3u) * 8u);\n}`,
    `fn wq_f16_at(b: u32) -> f32 {\n  return unpack2x16float(wq_w(b >> 2u) >> ((b & 2u) * 8u)).x;\n}`,
    ...(L.lut ? [`const WQ_KV = array<f32, 16>(0.0, 1.0, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 0.0, -1.0, -2.0, -3.0, -4.0, -6.0, -8.0, -12.0);`] : []),
    `struct WqRaw {\n  qs: array<u32, ${qsWords}>,\n  d: f32,\n  m: f32,\n  qh: u32,\n}`,
  ];
  // The block's raw fields: the quant words loaded once (span words, funnelled), scale, min, high bits.
  const raw = [
    `fn wq_raw(blk: u32) -> WqRaw {`,
    `  let o = blk * ${u(bb)};`,
    `  var r: WqRaw;`,
    L.scale === 'f16' ? `  r.d = wq_f16_at(o);` : `  r.d = ldexp(1.0, i32((wq_w(o >> 2u) >> ((o & 3u) * 8u)) & 0xffu) - 128);`,
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
  const hi = (t: number) => `((vec4<u32>(r.qh) >> vec4<u32>(${[0, 1, 2, 3].map((i) => u(t + i)).join(', ')})) & vec4<u32>(1u))`;
  // f32 form: vec4 i (k = 4i…4i+3): the unsigned codes, then bias or table.
  const codesOf = (i: number): string => {
    const shift = i < 4 ? 'vec4<u32>(0u, 8u, 16u, 24u)' : 'vec4<u32>(4u, 12u, 20u, 28u)';
    const q = `((vec4<u32>(r.qs[${i % 4}]) >> ${shift}) & vec4<u32>(15u))`;
    return L.qh !== undefined ? `(${q} | (${hi(4 * i)} << vec4<u32>(4u)))` : q;
  };
  const vecOf = (i: number): string => {
    if (L.codes === 'i8') return `vec4<f32>(bitcast<vec4<i32>>(vec4<u32>(r.qs[${i}]) << vec4<u32>(24u, 16u, 8u, 0u)) >> vec4<u32>(24u))`;
    if (L.lut) return `vec4<f32>(WQ_KV[c${i}.x], WQ_KV[c${i}.y], WQ_KV[c${i}.z], WQ_KV[c${i}.w])`;
    return L.bias ? `vec4<f32>(vec4<i32>(${codesOf(i)}) - vec4<i32>(${L.bias}))` : `vec4<f32>(${codesOf(i)})`;
  };
  // The f32 form from the raw fields `r`: wq_block's body, and wq_unpack's (kernels that load a tile's raw blocks ahead and decode them later).
  const decode = [
    `  var b: WqBlock;`,
    `  b.d = r.d;`,
    `  b.m = r.m;`,
    ...(L.lut ? Array.from({ length: 8 }, (_, i) => `  let c${i} = ${codesOf(i)};`) : []),
    ...Array.from({ length: 8 }, (_, i) => `  b.q[${i}] = ${vecOf(i)};`),
    `  return b;`,
    `}`,
  ];
  lines.push(`struct WqBlock {\n  q: array<vec4<f32>, 8>,\n  d: f32,\n  m: f32,\n}`, `fn wq_block(blk: u32) -> WqBlock {`, `  let r = wq_raw(blk);`, ...decode);
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
    lines.push(`struct WqBlockI8 {\n  q: array<u32, 8>,\n  d: f32,\n  m: f32,\n}`, ...fn('wq_block_i8', true), ...fn('wq_block_c8', false));
  }
  return { wgsl: lines.join('\n') + '\n', unpack: [`fn wq_unpack(r: WqRaw) -> WqBlock {`, ...decode].join('\n') + '\n', blockSize: 32, hasMin: L.m !== undefined, integer: !L.lut, bias: L.lut ? 0 : L.bias };
}
