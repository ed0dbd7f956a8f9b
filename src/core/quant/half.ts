// IEEE binary16 on the host: round to nearest even with full subnormal support. Block scales of
// wide-range elements (E5M2 max 57344) land in f16's subnormal range; flushing them to zero would
// wipe whole blocks.
import { floorLog2, roundHalfEven } from './rne';

export const F16_MAX = 65504;
export const F16_MIN_SUBNORMAL = 2 ** -24;

/** The f16 bit pattern nearest x (ties to even); overflow gives ±Inf, NaN gives 0x7e00. */
export function f16Encode(x: number): number {
  if (Number.isNaN(x)) return 0x7e00;
  const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  if (a === 0) return sign;
  if (a === Infinity) return sign | 0x7c00;
  const e = Math.max(floorLog2(a), -14);
  // m counts units of the exponent's ulp: [1024, 2048] for normals, [0, 1024] below 2^-14.
  const m = roundHalfEven(a / 2 ** (e - 10));
  const code = e === -14 && m <= 1024 ? m : (e + 14) * 1024 + m;
  return code >= 0x7c00 ? sign | 0x7c00 : sign | code;
}

/** The value of an f16 bit pattern (the low 16 bits of `bits`). */
export function f16Decode(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >> 10) & 0x1f;
  const man = bits & 0x3ff;
  if (exp === 0x1f) return man === 0 ? sign * Infinity : NaN;
  if (exp === 0) return sign * man * F16_MIN_SUBNORMAL;
  return sign * (1024 + man) * 2 ** (exp - 25);
}

let f16Table: Float64Array | null = null;
/** Every f16 bit pattern's value (f16Decode), built once: decoders read scales and halves from it. */
export function f16Values(): Float64Array {
  if (!f16Table) {
    f16Table = new Float64Array(65536);
    for (let i = 0; i < 65536; i++) f16Table[i] = f16Decode(i);
  }
  return f16Table;
}
