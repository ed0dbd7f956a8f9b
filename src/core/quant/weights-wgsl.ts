// WGSL decode of a packed weight matrix (weights.ts's layout) for any weight format: functions
// `fn wq_rc(row, col) -> f32` and `fn wq(i: u32) -> f32` (flat index i = row·K + col), read from
// a storage array named `src0` (u32 or i32 words: each read is bitcast to u32). Track-1 decode
// comes from the codec's tables (wgsl.ts: element and scale decode); ggml blocks from their byte
// layout below, each float step in the reference C's order. Kernels call these; the layout never
// leaks out.
import { ELEMENTS } from './element';
import { QUANT_FORMATS } from './formats';
import { elementDecodeWgsl, scaleDecodeWgsl } from './wgsl';
import { codeWords, weightFormat, type WeightFormat } from './weights';
import { SCALE_BITS } from './scale';

function u(n: number): string {
  return `${n >>> 0}u`;
}

/** Offsets inside a legacy ggml block: f16 d, optional f16 m, optional 32-bit qh, the codes. */
const GGML_LAYOUT: Readonly<Record<string, { m?: number; qh?: number; qs: number; q: string }>> = {
  q4_0: { qs: 2, q: 'f32(i32(nib) - 8) * d' },
  q4_1: { m: 2, qs: 4, q: 'f32(nib) * d + m' },
  q5_0: { qh: 2, qs: 6, q: 'f32(i32(nib | (hb << 4u)) - 16) * d' },
  q5_1: { m: 2, qh: 4, qs: 8, q: 'f32(nib | (hb << 4u)) * d + m' },
};

const BYTE_READS = (buffer: string, wordOffset: number) => [
  `fn wq_word(w: u32) -> u32 {\n  return bitcast<u32>(${buffer}[${u(wordOffset)} + w]);\n}`,
  `fn wq_byte(b: u32) -> u32 {\n  return (wq_word(b >> 2u) >> ((b & 3u) * 8u)) & 0xffu;\n}`,
  `fn wq_i8(b: u32) -> i32 {\n  return bitcast<i32>(wq_byte(b) << 24u) >> 24u;\n}`,
  // f16 fields sit at even byte offsets in every block: never across a word.
  `fn wq_f16(b: u32) -> f32 {\n  return unpack2x16float(wq_word(b >> 2u) >> ((b & 2u) * 8u)).x;\n}`,
];

function ggmlDecode(f: WeightFormat, cols: number): string[] {
  const bpr = cols / f.blockSize;
  const head = [`  let o = (row * ${u(bpr)} + col / ${u(f.blockSize)}) * ${u(f.blockBytes!)};`];
  if (f.name === 'q8_0') return [`fn wq_rc(row: u32, col: u32) -> f32 {`, ...head, `  return f32(wq_i8(o + 2u + col % 32u)) * wq_f16(o);`, `}`];
  if (f.name === 'mxfp4') {
    return [
      // ggml's kvalues_mxfp4 (2·E2M1) times 2^(e − 128), the E8M0 scale taken at half.
      `const KV_MXFP4 = array<f32, 16>(0.0, 1.0, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 0.0, -1.0, -2.0, -3.0, -4.0, -6.0, -8.0, -12.0);`,
      `fn wq_rc(row: u32, col: u32) -> f32 {`,
      ...head,
      `  let j = col % 32u;`,
      `  let nib = (wq_byte(o + 1u + j % 16u) >> ((j / 16u) * 4u)) & 0xfu;`,
      `  return KV_MXFP4[nib] * ldexp(1.0, i32(wq_byte(o)) - 128);`,
      `}`,
    ];
  }
  const L = GGML_LAYOUT[f.name];
  return [
    `fn wq_rc(row: u32, col: u32) -> f32 {`,
    ...head,
    `  let j = col % 32u;`,
    `  let d = wq_f16(o);`,
    ...(L.m !== undefined ? [`  let m = wq_f16(o + ${u(L.m)});`] : []),
    `  let nib = (wq_byte(o + ${u(L.qs)} + j % 16u) >> ((j / 16u) * 4u)) & 0xfu;`,
    ...(L.qh !== undefined ? [`  let hb = (wq_byte(o + ${u(L.qh)} + j / 8u) >> (j % 8u)) & 1u;`] : []),
    `  return ${L.q};`,
    `}`,
  ];
}

/**
 * ggml's get_scale_min_k4 over `wq_byte(b)`: the 6-bit scale and min of sub-block j from the 12
 * bytes q at o + 4 (Q4_K, Q5_K), without a branch (neighbouring threads take different j): j < 4
 * reads q[j] and q[j + 4]; j ≥ 4 the low/high nibbles of q[j + 4] and the top bits of q[j − 4], q[j].
 */
export const SCALE_MIN_K4_WGSL: readonly string[] = [
  `fn wq_scale_min(o: u32, j: u32) -> vec2<u32> {`,
  `  let a = wq_byte(o + 4u + j);`,
  `  let b = wq_byte(o + 8u + j);`,
  `  let c = wq_byte(o + j);`,
  `  return select(vec2<u32>((b & 0xfu) | ((c >> 6u) << 4u), (b >> 4u) | ((a >> 6u) << 4u)), vec2<u32>(a & 63u, b & 63u), j < 4u);`,
  `}`,
];

function ggmlKDecode(f: WeightFormat, cols: number): string[] {
  const head = [`  let o = (row * ${u(cols / 256)} + col / 256u) * ${u(f.blockBytes!)};`, `  let l = col % 256u;`];
  if (f.name === 'q6_k') {
    return [
      `fn wq_rc(row: u32, col: u32) -> f32 {`,
      ...head,
      `  let hf = l / 128u;`,
      `  let k = (l % 128u) / 32u;`,
      `  let li = l % 32u;`,
      `  let qlb = wq_byte(o + hf * 64u + li + 32u * (k & 1u));`,
      `  let nib = select(qlb & 0xfu, qlb >> 4u, k >= 2u);`,
      `  let hb = (wq_byte(o + 128u + hf * 32u + li) >> (2u * k)) & 3u;`,
      `  let sc = wq_i8(o + 192u + hf * 8u + li / 16u + 2u * k);`,
      `  let ds = wq_f16(o + 208u) * f32(sc);`,
      `  return ds * f32(i32(nib | (hb << 4u)) - 32);`,
      `}`,
    ];
  }
  const q5 = f.name === 'q5_k';
  return [
    ...SCALE_MIN_K4_WGSL,
    `fn wq_rc(row: u32, col: u32) -> f32 {`,
    ...head,
    `  let j = l / 64u;`,
    `  let t = l % 64u;`,
    `  let upper = t >= 32u;`,
    `  let sm = wq_scale_min(o, 2u * j + select(0u, 1u, upper));`,
    `  let b = wq_byte(o + ${q5 ? '48u' : '16u'} + 32u * j + t % 32u);`,
    `  var q = select(b & 0xfu, b >> 4u, upper);`,
    ...(q5 ? [`  q = q | (((wq_byte(o + 16u + t % 32u) >> (2u * j + select(0u, 1u, upper))) & 1u) << 4u);`] : []),
    `  let d1 = wq_f16(o) * f32(sm.x);`,
    `  let m1 = wq_f16(o + 2u) * f32(sm.y);`,
    `  return d1 * f32(q) - m1;`,
    `}`,
  ];
}

function streamRead(name: string, width: number, startWord: string): string {
  const mask = width === 32 ? '' : ` & ${u((1 << width) - 1)}`;
  const read = (w: string) => `wq_word(${startWord} + ${w})`;
  const body = 32 % width !== 0 ? `  var v = ${read('w')} >> s;\n  if (s + ${u(width)} > 32u) { v = v | (${read('w + 1u')} << (32u - s)); }` : `  let v = ${read('w')} >> s;`;
  return `fn ${name}(i: u32) -> u32 {\n  let bit = i * ${u(width)};\n  let w = bit >> 5u;\n  let s = bit & 31u;\n${body}\n  return v${mask};\n}`;
}

function track1Decode(f: WeightFormat, rows: number, cols: number): string[] {
  const q = QUANT_FORMATS.find((x) => x.name === f.codecName)!;
  const el = ELEMENTS[q.element];
  const cw = codeWords(f, rows, cols);
  const nb = Math.ceil(cols / q.blockSize);
  const sw = Math.ceil((rows * nb * SCALE_BITS[q.scale]) / 32);
  const global = q.scale === 'e4m3_fp32_global';
  return [
    elementDecodeWgsl(el),
    ...(global && el.name !== 'e4m3' ? [elementDecodeWgsl(ELEMENTS.e4m3)] : []),
    streamRead('wq_code', el.bits, '0u'),
    streamRead('wq_scale_code', SCALE_BITS[q.scale], u(cw)),
    scaleDecodeWgsl(q),
    `fn wq_rc(row: u32, col: u32) -> f32 {`,
    `  let e = decode_${el.name}(wq_code(row * ${u(cols)} + col));`,
    `  let s = decode_scale(wq_scale_code(row * ${u(nb)} + col / ${u(q.blockSize)}));`,
    // nvfp4: (e·s)·global in the CPU decode's order; the global is the word after the scales.
    global ? `  return (e * s) * bitcast<f32>(wq_word(${u(cw + sw)}));` : `  return e * s;`,
    `}`,
  ];
}

/**
 * WGSL for `fn wq(i: u32) -> f32` over a rows × cols matrix packed in `buffer` starting at word
 * `wordOffset` (the device offset past the guard band).
 */
export function weightDecodeWgsl(format: string | number, rows: number, cols: number, wordOffset: number, buffer = 'src0'): string {
  const f = weightFormat(format);
  const body = f.kind === 'ggml' ? ggmlDecode(f, cols) : f.kind === 'ggml-k' ? ggmlKDecode(f, cols) : track1Decode(f, rows, cols);
  // wq_rc(row, col) for kernels that walk rows (no division); wq(i) for flat indices.
  const flat = `fn wq(i: u32) -> f32 {\n  return wq_rc(i / ${u(cols)}, i % ${u(cols)});\n}`;
  return [`// weights: ${f.name} (${f.doc}), ${rows} × ${cols}`, ...BYTE_READS(buffer, wordOffset), ...body, flat].join('\n') + '\n';
}
