import { describe, expect, it } from 'vitest';
import { unpackCodes } from './bitpack';
import { dequantize, quantize, storedBytes } from './codec';
import { ELEMENTS } from './element';
import { elementOf, QUANT_FORMATS, quantFormat } from './formats';
import { e8m0Decode } from './scale';

function pseudoRandom(n: number, seed: number): Float32Array {
  const out = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = (s / 2 ** 32 - 0.5) * 8 * (i % 7 === 0 ? 10 : 1);
  }
  return out;
}

describe('Track-1 codec', () => {
  for (const f of QUANT_FORMATS) {
    it(`${f.name}: decode → encode gives back the same codes and scales`, () => {
      const cols = f.raggedTail ? f.blockSize * 2 + f.blockSize / 2 : f.blockSize * 2;
      const q = quantize(f.name, pseudoRandom(3 * cols, 7), 3, cols);
      const w = dequantize(q);
      const again = quantize(f.name, w, 3, cols);
      if (f.scale !== 'e4m3_fp32_global') {
        // nvfp4's global follows the tensor amax, which decoding moves: pinned separately below.
        expect(Array.from(again.codes)).toEqual(Array.from(q.codes));
        expect(Array.from(again.scales)).toEqual(Array.from(q.scales));
      }
      // Error bound: half a step of the coarsest element spacing at the block's scale.
      const el = elementOf(f);
      const x = pseudoRandom(3 * cols, 7);
      // E8M0 picks 2^(floor(log2 amax) − emax): amax/s can pass maxFinite (E4M3: 448 < 512) and
      // saturate, the clipping OCP MX accepts.
      const clip = f.scale === 'e8m0' ? 1 - el.maxFinite / 2 ** (el.emax + 1) : 0;
      const worst = x.map((_, i) => (maxHalfStep(el.name) * 2 + clip) * blockAmax(x, cols, f.blockSize, i) * 1.0001);
      for (let i = 0; i < x.length; i++) expect(Math.abs(x[i] - w[i])).toBeLessThanOrEqual(worst[i]);
    });

    it(`${f.name}: a block holding every non-NaN code decodes and re-encodes to itself`, () => {
      const el = elementOf(f);
      const codes: number[] = [];
      for (let c = 0; c < 1 << el.bits; c++) if (!el.isNaNCode(c) && Number.isFinite(el.decode(c))) codes.push(c);
      // The symmetric int encoder never emits -2^(N-1): it decodes, but re-encodes as -(2^(N-1)-1).
      const kept = codes.filter((c) => !(el.kind === 'int' && el.decode(c) === -(el.maxFinite + 1)));
      const scale = f.scale === 'e8m0' ? 2 ** -el.emax : 0.75;
      const block = f.blockSize;
      // Each block opens with +maxFinite so its amax pins the block scale to `scale`.
      const cols = Math.ceil(kept.length / block) * block;
      const w = new Float64Array(cols);
      for (let i = 0; i < cols; i++) w[i] = i % block === 0 ? el.maxFinite * scale : el.decode(kept[i % kept.length]) * scale;
      const q = quantize(f.name, w, 1, cols);
      const got = unpackCodes(q.codes, el.bits, cols);
      for (let i = 0; i < cols; i++) {
        const want = i % block === 0 ? el.encode(el.maxFinite) : kept[i % kept.length];
        expect(got[i]).toBe(want);
      }
    });
  }

  it('int4: a pinned block (amax 7 → scale 1, ties to even, symmetric clamp)', () => {
    const w = new Float32Array(64);
    w.set([7, -7, 3.5, 2.5, 1, -6.5]);
    const q = quantize('int4', w, 1, 64);
    expect(q.codes[0]).toBe(0x00a12497); // nibbles 7, 9(-7), 4, 2, 1, a(-6.5 ties to -6)
    expect(Array.from(q.scales)).toEqual([0x3f800000]);
    expect(Array.from(dequantize(q).subarray(0, 6))).toEqual([7, -7, 4, 2, 1, -6]);
    expect(storedBytes(quantFormat('int4'), 1, 64)).toBe(36);
  });

  it('mxfp4: a pinned block (amax 6 → E8M0 2^0, code 127)', () => {
    const w = new Float32Array(32);
    w.set([6, -6, 0.25, 5, 0.75]);
    const q = quantize('mxfp4', w, 1, 32);
    expect(q.codes[0]).toBe(0x000260f7); // 7, f, 0 (0.25 ties to 0), 6 (5 ties to 4), 2 (0.75 ties to 1)
    expect(Array.from(q.scales)).toEqual([127]);
    expect(Array.from(dequantize(q).subarray(0, 5))).toEqual([6, -6, 0, 4, 1]);
  });

  it('mxfp4: amax 100 → 2^(6-2) = 16, saturating 100/16 = 6.25 to 6', () => {
    const w = new Float32Array(32);
    w.set([100, 1]);
    const q = quantize('mxfp4', w, 1, 32);
    expect(Array.from(q.scales)).toEqual([127 + 4]);
    expect(Array.from(dequantize(q).subarray(0, 2))).toEqual([96, 0]); // 1/16 rounds to 0
  });

  it('mxint8: the shared exponent follows amax across the whole E8M0 range', () => {
    for (let k = -149; k <= 127; k++) {
      const w = new Float64Array(32);
      w[0] = 2 ** k;
      const q = quantize('mxint8', w, 1, 32);
      const code = q.scales[0] & 0xff;
      expect(code).toBe(Math.max(-127, k - 6) + 127);
      if (k >= -121) expect(dequantize(q)[0]).toBe(Math.fround(2 ** k));
    }
    expect(e8m0Decode(0)).toBe(2 ** -127);
    expect(e8m0Decode(254)).toBe(2 ** 127);
    expect(e8m0Decode(255)).toBeNaN();
  });

  it('int3: codes straddle a u32 word (code 10 is bits 30…32)', () => {
    const w = new Float32Array(64);
    w[10] = 3;
    w[11] = -3;
    const q = quantize('int3', w, 1, 64);
    expect(Array.from(q.codes.subarray(0, 2))).toEqual([0xc0000000, 0b1010]);
  });

  it('fp8_e5m2_f16: a block scale in the f16 subnormal range is kept, not flushed', () => {
    const w = new Float32Array(32);
    w[0] = 57344 * 2 ** -20;
    w[1] = 2 ** -20;
    const q = quantize('fp8_e5m2_f16', w, 1, 32);
    expect(q.scales[0] & 0xffff).toBe(0x0010); // 2^-20 = 16 · 2^-24
    expect(Array.from(dequantize(q).subarray(0, 2))).toEqual([57344 * 2 ** -20, 2 ** -20]);
  });

  it('nvfp4: global = amax/(6·448), E4M3 block scales, pinned', () => {
    const w = new Float32Array(32);
    w[0] = 2688; // tensor amax → global 1, block 0 scale E4M3(448) = 0x7e
    w[16] = 6; // block 1 scale E4M3(1) = 0x38
    w[17] = -3;
    w[18] = 2.5;
    const q = quantize('nvfp4', w, 1, 32);
    expect(q.globalScale).toBe(1);
    expect(Array.from(q.scales)).toEqual([0x387e]);
    expect(q.codes[0] & 0xf).toBe(7);
    expect(q.codes[2] & 0xfff).toBe(0x4d7); // 6 → 7, -3 → 0xd, 2.5 → 4 (tie to 2)
    expect(Array.from(dequantize(q).subarray(16, 19))).toEqual([6, -3, 2]);
    expect(storedBytes(quantFormat('nvfp4'), 1, 32)).toBe(16 + 2 + 4);
  });

  it('int8: a ragged tail block (96 = 64 + 32) gets its own scale from its own amax', () => {
    const w = new Float32Array(96);
    w[0] = 127;
    w[64] = 12.7;
    const q = quantize('int8', w, 1, 96);
    expect(Array.from(q.scales).map((b) => new Float32Array(new Uint32Array([b]).buffer)[0])).toEqual([1, Math.fround(0.1)]);
    expect(dequantize(q)[64]).toBe(Math.fround(127 * Math.fround(0.1)));
  });

  it('an all-zero block decodes to zeros in every format', () => {
    for (const f of QUANT_FORMATS) expect(Array.from(dequantize(quantize(f.name, new Float32Array(32), 1, 32)))).toEqual(new Array(32).fill(0));
  });

  it('bad input: ragged tail where forbidden, NaN/Inf weights, f16 scale overflow, wrong length', () => {
    expect(() => quantize('mxfp4', new Float32Array(48), 1, 48)).toThrow(/mxfp4: a row of 48 is not a multiple of its block size 32, and mxfp4 forbids a ragged tail block/);
    expect(() => quantize('nvfp4', new Float32Array(24), 1, 24)).toThrow(/nvfp4: .*block size 16/);
    const nan = new Float32Array(64);
    nan[1] = NaN;
    expect(() => quantize('int4', nan, 1, 64)).toThrow(/int4: weight \[0, 1\] is NaN; int4 cannot encode NaN\/Inf/);
    const inf = new Float32Array(64);
    inf[3] = -Infinity;
    expect(() => quantize('mxfp8_e4m3', inf, 2, 32)).toThrow(/mxfp8_e4m3: weight \[0, 3\] is -Infinity/);
    const big = new Float32Array(32);
    big[0] = 1e6;
    expect(() => quantize('fp4_f16', big, 1, 32)).toThrow(/fp4_f16: block 0 of row 0 needs scale 166666.*beyond FP16's max 65504/);
    expect(() => quantize('int4', new Float32Array(10), 1, 64)).toThrow(/int4: 10 weights given for 1 × 64/);
    expect(() => quantize('q9', new Float32Array(1), 1, 1)).toThrow(/unknown quant format 'q9'/);
  });
});

/** Half the largest gap between neighbouring element values, relative to maxFinite. */
function maxHalfStep(name: keyof typeof ELEMENTS): number {
  const el = ELEMENTS[name];
  const vals: number[] = [];
  for (let c = 0; c < 1 << el.bits; c++) if (!el.isNaNCode(c) && Number.isFinite(el.decode(c))) vals.push(el.decode(c));
  vals.sort((a, b) => a - b);
  let gap = 0;
  for (let i = 1; i < vals.length; i++) gap = Math.max(gap, vals[i] - vals[i - 1]);
  return gap / 2 / el.maxFinite;
}

function blockAmax(x: Float32Array, cols: number, block: number, i: number): number {
  const r = Math.floor(i / cols);
  const b = Math.floor((i % cols) / block);
  let a = 0;
  for (let j = r * cols + b * block; j < Math.min(r * cols + cols, r * cols + (b + 1) * block); j++) a = Math.max(a, Math.abs(x[j]));
  return a;
}
