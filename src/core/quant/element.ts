// Element codecs: the small code stored per weight. Micro-floats follow the OCP 8-bit Floating
// Point spec (OFP8, E4M3 = "E4M3FN": no Inf, NaN only at S.1111.111; E5M2: IEEE-like Inf/NaN) and
// the OCP MX v1.0 spec's FP4 E2M1 (no Inf/NaN). Encoding rounds to nearest, ties to the even code,
// and saturates to ±max finite (OCP MX §6.3's conversion of scaled elements). Integers are N-bit
// two's complement; the symmetric block encoders only produce ±(2^(N-1)-1), but every code decodes.
import { roundHalfEven } from './rne';

export type ElementName = 'e2m1' | 'e4m3' | 'e5m2' | 'int2' | 'int3' | 'int4' | 'int5' | 'int6' | 'int8';

export interface ElementCodec {
  readonly name: ElementName;
  readonly bits: number;
  readonly kind: 'float' | 'int';
  /** Largest finite magnitude a code holds (the value the block scale maps amax onto). */
  readonly maxFinite: number;
  /** floor(log2(maxFinite)): OCP MX's emax_elem, used to pick an E8M0 shared exponent. */
  readonly emax: number;
  decode(code: number): number;
  /** The code nearest x (ties to even, saturating); NaN gives the element's NaN code or throws. */
  encode(x: number): number;
  /** True for codes that decode to NaN (they are not expected to round-trip). */
  isNaNCode(code: number): boolean;
}

interface MiniFloatSpec {
  readonly name: ElementName;
  readonly expBits: number;
  readonly manBits: number;
  readonly bias: number;
  /** 'ieee': all-ones exponent is Inf/NaN; 'fn': only all-ones exp+mantissa is NaN; 'none'. */
  readonly special: 'ieee' | 'fn' | 'none';
}

function miniFloat(spec: MiniFloatSpec): ElementCodec {
  const { expBits, manBits, bias, special } = spec;
  const bits = 1 + expBits + manBits;
  const signBit = 1 << (bits - 1);
  const expMax = (1 << expBits) - 1;
  const manMax = (1 << manBits) - 1;
  const magnitudeOf = (code: number): number => {
    const exp = (code >> manBits) & expMax;
    const man = code & manMax;
    if (special === 'ieee' && exp === expMax) return man === 0 ? Infinity : NaN;
    if (special === 'fn' && exp === expMax && man === manMax) return NaN;
    if (exp === 0) return man * 2 ** (1 - bias - manBits);
    return (2 ** manBits + man) * 2 ** (exp - bias - manBits);
  };
  // Finite non-negative magnitudes by code: code order is value order for a sign-magnitude float.
  const finite: number[] = [];
  for (let c = 0; c < signBit; c++) {
    const v = magnitudeOf(c);
    if (!Number.isFinite(v)) break;
    finite.push(v);
  }
  const maxFinite = finite[finite.length - 1];
  const nanCode = special === 'ieee' ? (expMax << manBits) | 1 << (manBits - 1) : special === 'fn' ? signBit - 1 : -1;
  return {
    name: spec.name,
    bits,
    kind: 'float',
    maxFinite,
    emax: Math.floor(Math.log2(maxFinite)),
    decode(code) {
      const m = magnitudeOf(code & (signBit - 1));
      return code & signBit ? -m : m;
    },
    encode(x) {
      if (Number.isNaN(x)) {
        if (nanCode < 0) throw new Error(`${spec.name} has no NaN code`);
        return nanCode;
      }
      const sign = x < 0 || Object.is(x, -0) ? signBit : 0;
      const a = Math.abs(x);
      if (a >= maxFinite) return sign | (finite.length - 1);
      // Binary search the first magnitude >= a, then pick the nearer neighbour (ties: even code).
      let lo = 0;
      let hi = finite.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (finite[mid] < a) lo = mid + 1;
        else hi = mid;
      }
      if (finite[lo] === a || lo === 0) return sign | lo;
      const below = a - finite[lo - 1];
      const above = finite[lo] - a;
      const code = below < above ? lo - 1 : above < below ? lo : lo % 2 === 0 ? lo : lo - 1;
      return sign | code;
    },
    isNaNCode(code) {
      return Number.isNaN(magnitudeOf(code & (signBit - 1)));
    },
  };
}

function signedInt(bits: 2 | 3 | 4 | 5 | 6 | 8): ElementCodec {
  const half = 1 << (bits - 1);
  const mask = (1 << bits) - 1;
  const name = `int${bits}` as ElementName;
  return {
    name,
    bits,
    kind: 'int',
    maxFinite: half - 1,
    emax: bits - 2,
    decode(code) {
      const c = code & mask;
      return c >= half ? c - (1 << bits) : c;
    },
    encode(x) {
      if (Number.isNaN(x)) throw new Error(`${name} has no NaN code`);
      const q = Math.min(half - 1, Math.max(-half, roundHalfEven(x)));
      return q & mask;
    },
    isNaNCode: () => false,
  };
}

export const ELEMENTS: Readonly<Record<ElementName, ElementCodec>> = Object.freeze({
  e2m1: miniFloat({ name: 'e2m1', expBits: 2, manBits: 1, bias: 1, special: 'none' }),
  e4m3: miniFloat({ name: 'e4m3', expBits: 4, manBits: 3, bias: 7, special: 'fn' }),
  e5m2: miniFloat({ name: 'e5m2', expBits: 5, manBits: 2, bias: 15, special: 'ieee' }),
  int2: signedInt(2),
  int3: signedInt(3),
  int4: signedInt(4),
  int5: signedInt(5),
  int6: signedInt(6),
  int8: signedInt(8),
});
