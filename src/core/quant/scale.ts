// Scale codecs: how a block's scale is stored. FP32 and FP16 hold amax/maxFinite (FP16 rounded to
// nearest even, subnormals kept); E8M0 is OCP MX's power of two 2^(code-127), code 255 = NaN;
// E4M3 × FP32 global is NVFP4's two-level scale (NVIDIA, "Introducing NVFP4", 2025): a tensor-wide
// FP32 global times a per-block E4M3.
import { ELEMENTS } from './element';
import { f16Decode, f16Encode } from './half';

export type ScaleKind = 'fp32' | 'fp16' | 'e8m0' | 'e4m3_fp32_global';

/** Bits stored per block for each scale kind (the global FP32 of nvfp4 is per tensor, not counted). */
export const SCALE_BITS: Readonly<Record<ScaleKind, number>> = Object.freeze({ fp32: 32, fp16: 16, e8m0: 8, e4m3_fp32_global: 8 });

export const E8M0_NAN = 0xff;
export const E8M0_BIAS = 127;

export function e8m0Decode(code: number): number {
  return code === E8M0_NAN ? NaN : 2 ** (code - E8M0_BIAS);
}

/** The E8M0 code of 2^exp, exp clamped to the representable [-127, 127]. */
export function e8m0FromExponent(exp: number): number {
  return Math.min(127, Math.max(-127, exp)) + E8M0_BIAS;
}

const f32Bits = new DataView(new ArrayBuffer(4));

export function f32ToBits(x: number): number {
  f32Bits.setFloat32(0, x, true);
  return f32Bits.getUint32(0, true);
}

export function f32FromBits(bits: number): number {
  f32Bits.setUint32(0, bits >>> 0, true);
  return f32Bits.getFloat32(0, true);
}

/** Each scale kind's codec (E8M0 is encoded from an exponent, see e8m0FromExponent). */
const SCALE_CODECS: { readonly [K in ScaleKind]: { decode(code: number): number; encode: K extends 'e8m0' ? null : (value: number) => number } } = {
  fp32: { decode: f32FromBits, encode: f32ToBits },
  fp16: { decode: f16Decode, encode: f16Encode },
  e8m0: { decode: e8m0Decode, encode: null },
  e4m3_fp32_global: { decode: (code) => ELEMENTS.e4m3.decode(code), encode: (value) => ELEMENTS.e4m3.encode(value) },
};

/** Stored scale code → value, for the per-block kinds (nvfp4's global multiplies separately). */
export function scaleDecode(kind: ScaleKind, code: number): number {
  return SCALE_CODECS[kind].decode(code);
}

/** Value → stored scale code, rounding to nearest even (E8M0 takes an exponent, see e8m0FromExponent). */
export function scaleEncode(kind: Exclude<ScaleKind, 'e8m0'>, value: number): number {
  return SCALE_CODECS[kind].encode(value);
}
