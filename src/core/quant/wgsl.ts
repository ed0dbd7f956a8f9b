// WGSL decode for the Track-1 formats, generated from the codec's own tables (element bit layout,
// block size, scale kind), so the kernel and the CPU oracle cannot drift apart. Everything is
// exact in f32: ldexp builds element magnitudes, bitcasts build scales, and one multiply (nvfp4:
// two, in the CPU decode's order) rounds once. NaN/Inf element codes and E8M0 0xFF are not special-
// cased: the encoder never writes them (WGSL has no dependable NaN), so the kernel need not read them.
import { bitsPerWeight, elementOf, quantFormat, type QuantFormat } from './formats';
import { ELEMENTS, type ElementCodec } from './element';
import { SCALE_BITS } from './scale';

/** Exponent bits, mantissa bits and bias of each minifloat element (block-wgsl.ts builds its vector decode from them too). */
export const MINIFLOAT_LAYOUT: Readonly<Record<string, { exp: number; man: number; bias: number }>> = {
  e2m1: { exp: 2, man: 1, bias: 1 },
  e4m3: { exp: 4, man: 3, bias: 7 },
  e5m2: { exp: 5, man: 2, bias: 15 },
};

function u(n: number): string {
  return `${n >>> 0}u`;
}

/** `fn decode_<element>(c: u32) -> f32`: the element value of a code. */
export function elementDecodeWgsl(el: ElementCodec): string {
  if (el.kind === 'int') {
    const sh = 32 - el.bits;
    return `fn decode_${el.name}(c: u32) -> f32 {\n  return f32(bitcast<i32>(c << ${u(sh)}) >> ${u(sh)});\n}`;
  }
  const { exp, man, bias } = MINIFLOAT_LAYOUT[el.name];
  return [
    `fn decode_${el.name}(c: u32) -> f32 {`,
    `  let e = (c >> ${u(man)}) & ${u((1 << exp) - 1)};`,
    `  let m = c & ${u((1 << man) - 1)};`,
    `  let mag = select(ldexp(f32(${u(1 << man)} + m), i32(e) - ${bias + man}), ldexp(f32(m), ${1 - bias - man}), e == 0u);`,
    `  return select(mag, -mag, (c & ${u(1 << (el.bits - 1))}) != 0u);`,
    `}`,
  ].join('\n');
}

/** `fn <name>_at(i: u32) -> u32`: code i of an LSB-first u32 stream of `width`-bit codes. */
export function streamReadWgsl(name: string, buffer: string, width: number): string {
  const mask = width === 32 ? '' : ` & ${u((1 << width) - 1)}`;
  const straddles = 32 % width !== 0;
  return [
    `fn ${name}_at(i: u32) -> u32 {`,
    `  let bit = i * ${u(width)};`,
    `  let w = bit >> 5u;`,
    `  let s = bit & 31u;`,
    straddles ? `  var v = ${buffer}[w] >> s;\n  if (s + ${u(width)} > 32u) { v = v | (${buffer}[w + 1u] << (32u - s)); }` : `  let v = ${buffer}[w] >> s;`,
    `  return v${mask};`,
    `}`,
  ].join('\n');
}

/** `fn decode_scale(c: u32) -> f32`: a block scale's value from its stored code. */
export function scaleDecodeWgsl(f: QuantFormat): string {
  const body: Record<QuantFormat['scale'], string> = {
    fp32: 'return bitcast<f32>(c);',
    fp16: 'return unpack2x16float(c).x;',
    // 2^(c−127): c ≥ 1 is a normal f32 exponent field; c = 0 is the subnormal 2^-127.
    e8m0: 'return select(bitcast<f32>(c << 23u), bitcast<f32>(0x00400000u), c == 0u);',
    e4m3_fp32_global: 'return decode_e4m3(c);',
  };
  return `fn decode_scale(c: u32) -> f32 {\n  ${body[f.scale]}\n}`;
}

/**
 * The decode module for one format, over `codes: array<u32>`, `scales: array<u32>` and a
 * `global_scale: f32` in scope: `fn dequant_at(row, col, cols) -> f32`.
 */
export function formatDecodeWgsl(name: string): string {
  const f = quantFormat(name);
  const el = elementOf(f);
  const parts = [`// ${f.name}: ${el.name} codes, block ${f.blockSize}, ${f.scale} scale, ${bitsPerWeight(f)} bits/weight`, elementDecodeWgsl(el)];
  if (f.scale === 'e4m3_fp32_global' && el.name !== 'e4m3') parts.push(elementDecodeWgsl(ELEMENTS.e4m3));
  parts.push(streamReadWgsl('code', 'codes', el.bits), streamReadWgsl('scale_code', 'scales', SCALE_BITS[f.scale]), scaleDecodeWgsl(f));
  const product = f.scale === 'e4m3_fp32_global' ? '(e * s) * global_scale' : 'e * s';
  parts.push(
    [
      `fn dequant_at(row: u32, col: u32, cols: u32) -> f32 {`,
      `  let blocks_per_row = (cols + ${u(f.blockSize - 1)}) / ${u(f.blockSize)};`,
      `  let e = decode_${el.name}(code_at(row * cols + col));`,
      `  let s = decode_scale(scale_code_at(row * blocks_per_row + col / ${u(f.blockSize)}));`,
      `  return ${product};`,
      `}`,
    ].join('\n'),
  );
  return parts.join('\n\n') + '\n';
}

export const DEQUANT_WORKGROUP = 256;

/** A standalone DEQUANT kernel: one thread per weight, f32 out, a 2-D grid past 65535 workgroups. */
export function dequantKernelWgsl(name: string): string {
  return [
    `struct Params { rows: u32, cols: u32, global_scale: f32, groups_x: u32 }`,
    `@group(0) @binding(0) var<storage, read> codes: array<u32>;`,
    `@group(0) @binding(1) var<storage, read> scales: array<u32>;`,
    `@group(0) @binding(2) var<storage, read_write> dst: array<f32>;`,
    `@group(0) @binding(3) var<uniform> params: Params;`,
    `var<private> global_scale: f32;`,
    ``,
    formatDecodeWgsl(name),
    `@compute @workgroup_size(${DEQUANT_WORKGROUP})`,
    `fn main(@builtin(global_invocation_id) gid: vec3<u32>) {`,
    `  let i = gid.x + gid.y * params.groups_x * ${u(DEQUANT_WORKGROUP)};`,
    `  if (i >= params.rows * params.cols) { return; }`,
    `  global_scale = params.global_scale;`,
    `  dst[i] = dequant_at(i / params.cols, i % params.cols, params.cols);`,
    `}`,
    ``,
  ].join('\n');
}
