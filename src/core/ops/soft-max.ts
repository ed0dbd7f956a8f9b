// SOFT_MAX — ggml_soft_max_ext(a, mask, scale, max_bias) (ggml_soft_max: no mask, scale 1;
// *_inplace: dst is a view of a), with ggml_soft_max_add_sinks' src2. Per row (ggml-cpu):
//   s_i = a_i·scale + slope·mask_i,  m = max(max_i s_i, sink),  dst_i = exp(s_i − m) / (Σ exp(s_j − m) + exp(sink − m))
// ggml asserts: a contiguous; mask f16 or f32, contiguous, mask.ne0 == a.ne0, mask.ne1 ≥ a.ne1
// (the KQ mask is padded), a.ne2 % mask.ne2 == 0, a.ne3 % mask.ne3 == 0 (the mask's row is
// a's row i1; heads and batches broadcast by modulo); max_bias > 0 needs a mask; sinks are f32
// [a.ne2], one logit per head (the sink term is absent without them). ALiBi: n_head = ne2,
// n_head_log2 = 2^⌊log2 n_head⌋, m0 = 2^(−max_bias/n_head_log2), m1 = 2^(−max_bias/2/n_head_log2),
// slope(h) = h < n_head_log2 ? m0^(h+1) : m1^(2(h − n_head_log2) + 1); slope 1 without ALiBi.
// op_params: [scale, max_bias] as f32. The f16 mask needs no shader-f16: the kernels read it
// as u32 pairs and unpack.
import { f, u } from '../codegen/wgsl';
import type { NormSnippet } from '../families/norm';
import { gather, prng, randomBuffer, writeElement } from '../hostdata';
import { inputSeed } from '../inputs';
import { contiguous, forEachElement } from '../tensor';
import { cases } from './rows-common';
import { defineRowOp, familyOperands, type RowKernel } from './row-kit';
import { OpCaseError, type OpCase, type ParamSpec, type Rejection } from './types';

const LAYOUTS = [
  { name: 'contiguous', doc: 'ggml_soft_max: no mask; src0 and dst packed' },
  { name: 'inplace', doc: 'ggml_soft_max_inplace: no mask; dst is src0 itself' },
  { name: 'mask', doc: 'f32 mask [ne0, ne1, 1, 1] (causal, -inf above the diagonal) broadcast over heads and batches' },
  { name: 'mask-f16-padded', doc: 'f16 mask with rows padded to a multiple of 16 (ne11 > ne01, as llama pads its KQ mask)' },
  { name: 'mask-heads', doc: 'f32 mask [ne0, ne1, ne2, 1]: one per head, broadcast over batches' },
  { name: 'mask-inplace', doc: 'ggml_soft_max_ext_inplace: f32 mask [ne0, ne1, 1, 1]; dst is src0 itself' },
  { name: 'mask-sinks', doc: 'f32 mask [ne0, ne1, 1, 1] and attention sinks f32 [ne2] (ggml_soft_max_add_sinks)' },
] as const;

export const PARAMS: readonly ParamSpec[] = Object.freeze([
  { name: 'scale', type: 'f32', default: 1, min: -1024, max: 1024, doc: 'multiplies src0 before the mask is added (1/sqrt(head_dim) in attention)' },
  { name: 'max_bias', type: 'f32', default: 0, min: 0, max: 16, doc: 'ALiBi maximum bias; 0 is no ALiBi, > 0 needs a mask (8 in the ALiBi paper)' },
]);

/** ggml's ALiBi constants, in f32 as ggml computes them. */
export function alibi(maxBias: number, nHead: number): { nHeadLog2: number; m0: number; m1: number } {
  const nHeadLog2 = 2 ** Math.floor(Math.log2(nHead));
  const m0 = Math.fround(2 ** Math.fround(-Math.fround(maxBias) / nHeadLog2));
  const m1 = Math.fround(2 ** Math.fround(-Math.fround(Math.fround(maxBias) / 2) / nHeadLog2));
  return { nHeadLog2, m0, m1 };
}

/** The slope of head h (ggml's powf in f32); 1 without ALiBi. */
export function alibiSlope(maxBias: number, nHead: number, h: number): number {
  if (!(maxBias > 0)) return 1;
  const { nHeadLog2, m0, m1 } = alibi(maxBias, nHead);
  return Math.fround(h < nHeadLog2 ? m0 ** (h + 1) : m1 ** (2 * (h - nHeadLog2) + 1));
}

/**
 * f64 reference. Per element the bound's floor is ref·(|a·scale| + |slope·mask| + |m| + |s − m|):
 * s − m is formed in f32 from terms of those sizes, and exp turns that absolute rounding into a
 * relative error of the result (WGSL's exp adds 2|s − m| ulp of its own). Masked (-inf) entries
 * are exactly 0 on both sides.
 */
function oracle(c: OpCase, srcs: readonly ArrayBuffer[]) {
  const x = gather(c.srcs[0], srcs[0]);
  const mask = c.srcs[1] ? gather(c.srcs[1], srcs[1]) : null;
  const sinks = c.srcs[2] ? gather(c.srcs[2], srcs[2]) : null;
  const [ne0, ne1, ne2, ne3] = c.dst.ne;
  const [, ne11, ne12, ne13] = c.srcs[1]?.ne ?? [ne0, ne1, 1, 1];
  const scale = Math.fround(c.params.scale);
  const maxBias = Math.fround(c.params.max_bias);
  const ref = new Float64Array(x.length);
  const epsFloor = new Float64Array(x.length);
  const s = new Float64Array(ne0);
  const mag = new Float64Array(ne0);
  for (let i3 = 0; i3 < ne3; i3++)
    for (let i2 = 0; i2 < ne2; i2++) {
      const slope = alibiSlope(maxBias, ne2, i2);
      for (let i1 = 0; i1 < ne1; i1++) {
        const base = ne0 * (i1 + ne1 * (i2 + ne2 * i3));
        const mBase = ne0 * (i1 + ne11 * ((i2 % ne12) + ne12 * (i3 % ne13)));
        let m = -Infinity;
        for (let i = 0; i < ne0; i++) {
          const xs = x[base + i] * scale;
          const mv = mask ? slope * mask[mBase + i] : 0;
          s[i] = xs + mv;
          mag[i] = Math.abs(xs) + Math.abs(mv);
          if (s[i] > m) m = s[i];
        }
        const sink = sinks ? sinks[i2] : null;
        if (sink !== null && sink > m) m = sink;
        let sum = sink !== null ? Math.exp(sink - m) : 0;
        for (let i = 0; i < ne0; i++) sum += Math.exp(s[i] - m);
        for (let i = 0; i < ne0; i++) {
          const y = Math.exp(s[i] - m) / sum;
          ref[base + i] = y;
          epsFloor[base + i] = y === 0 ? 0 : y * (mag[i] + Math.abs(m) + Math.abs(s[i] - m));
        }
      }
    }
  return { ref, epsFloor, terms: ne0 + (sinks ? 1 : 0) };
}

/**
 * Seeded inputs as attention makes them: logits in [-8, 8); a causal mask (entry (i0, i1) is
 * -inf when key i0 lies past query i1's position i1 + max(0, ne0 − ne1), else a small negative
 * distance term, so the slope·mask product is exercised); sink logits in [-2, 2).
 */
function inputs(c: OpCase, seed: number): ArrayBuffer[] {
  const a = randomBuffer(c.srcs[0], inputSeed(seed, 0));
  const af = new Float32Array(a);
  for (let i = 0; i < af.length; i++) af[i] *= 8;
  const out = [a];
  const maskT = c.srcs[1];
  if (maskT) {
    const buf = new ArrayBuffer(maskT.bufferSizeBytes);
    const view = new DataView(buf);
    const next = prng(inputSeed(seed, 1));
    const shift = Math.max(0, c.dst.ne[0] - c.dst.ne[1]);
    forEachElement(maskT, (_i, off, i0, i1) => {
      writeElement(view, maskT.type, off, i0 > i1 + shift ? -Infinity : -next() * ((i1 + shift - i0) % 4));
    });
    out.push(buf);
  }
  const sinksT = c.srcs[2];
  if (sinksT) {
    const buf = randomBuffer(sinksT, inputSeed(seed, 2));
    const f = new Float32Array(buf);
    for (let i = 0; i < f.length; i++) f[i] *= 2;
    out.push(buf);
  }
  return out;
}

/**
 * The row template, two passes as ggml's soft_max: the max of s = x·scale + slope·mask (the
 * sink joins it), then Σ exp(s − max) (the sink's term joins it), then exp(s − max)/Σ per
 * element; s is recomputed each pass (the row stays in cache). In place, x is read from dst.
 * The mask's row is the query row i1 (ne11 ≥ ne01); heads and batches broadcast by modulo.
 */
function native(c: OpCase): RowKernel {
  const [, mask, sinks] = c.srcs;
  const { nHeadLog2, m0, m1 } = alibi(c.params.max_bias, c.dst.ne[2]);
  const s = mask ? '(x * scale + slope * m)' : '(x * scale)';
  return {
    operands: [{ name: 'x', src: 0 }, ...(mask ? [{ name: 'm', src: 1 as const, broadcast: true }] : [])],
    rowLets: mask ? ['let slope = alibi_slope(c.z); // ALiBi: head i2 of n_head = ne02 heads'] : [],
    functions: mask ? ALIBI_WGSL : '',
    uniforms: mask ? { m0: ['f32', m0], m1: ['f32', m1], n_head_log2: ['u32', nHeadLog2] } : {},
    reduce: { max: s },
    finish: ['var row_max = total;', ...(sinks ? ['let sink = load_src2(p.src2.off + c.z * p.src2.st.x); // the sink logit of head i2', 'row_max = max(row_max, sink);'] : [])],
    pass2: { map: `exp(${s} - row_max)`, finish: ['var row_sum = total2;', ...(sinks ? ['row_sum += exp(sink - row_max);'] : []), 'let inv = 1.0 / row_sum;'] },
    out: `exp(${s} - row_max) * inv`,
    flags: [...(c.inplace ? ['INPLACE'] : []), ...(mask ? ['MASK'] : []), ...(mask?.type === 'f16' ? ['MASK_F16'] : []), ...(sinks ? ['SINKS'] : [])],
  };
}

/** ALiBi's slope of head h (1 without max_bias): ggml's powf(m, e) by squaring, to a few ulp. */
const ALIBI_WGSL = `
fn powi(b: f32, e: u32) -> f32 {
  var result = 1.0;
  var base = b;
  var k = e;
  while (k > 0u) {
    if ((k & 1u) == 1u) {
      result *= base;
    }
    base *= base;
    k >>= 1u;
  }
  return result;
}

fn alibi_slope(h: u32) -> f32 {
  if (p.max_bias <= 0.0) {
    return 1.0;
  }
  if (h < p.n_head_log2) {
    return powi(p.m0, h + 1u);
  }
  return powi(p.m1, 2u * (h - p.n_head_log2) + 1u);
}`;

/**
 * The head's ALiBi slope as WGSL: a literal when every row has the same head, else ggml's
 * formula in the head index i2 (pow of the f32 m0/m1 ggml computes; a few ulp from powf).
 */
function slopeExpr(c: OpCase): string {
  const ne2 = c.dst.ne[2];
  if (!(c.params.max_bias > 0) || ne2 === 1) return f(alibiSlope(c.params.max_bias, ne2, 0));
  const { nHeadLog2, m0, m1 } = alibi(c.params.max_bias, ne2);
  return `select(pow(${f(m1)}, f32(2u * (i2 - ${u(nHeadLog2)}) + 1u)), pow(${f(m0)}, f32(i2 + 1u)), i2 < ${u(nHeadLog2)})`;
}

/**
 * SOFT_MAX for the row family: the max of s = x·scale + slope·mask, then Σ exp(s − max), then
 * exp(s − max)/Σ per element. In place, x is read from dst. The mask's row follows x's
 * (i1; heads and batches broadcast where the mask has one).
 */
function snippet(c: OpCase): NormSnippet {
  const mask = c.srcs[1];
  const s = mask ? `(x * SCALE + ${slopeExpr(c)} * m)` : '(x * SCALE)';
  return {
    operands: familyOperands(c, native(c).operands),
    reductions: [
      { name: 'row_max', map: s, combine: 'max' },
      { name: 'row_sum', map: `exp(${s} - row_max)`, combine: 'sum' },
    ],
    finish: ['let inv = 1.0 / row_sum;'],
    output: { kind: 'row', tensor: c.dst, expr: `exp(${s} - row_max) * inv` },
    constants: { SCALE: c.params.scale },
  };
}

/** The generated path reads f32 operands along rows: an f16 mask and per-head sinks are the native kernel's. */
function require(c: OpCase): Rejection | null {
  const mask = c.srcs[1];
  if (mask?.type === 'f16') return { code: 'f16-mask', reason: 'the row family reads f32 operands; the f16 mask runs native (it unpacks u32 pairs)' };
  if (c.srcs[2]) return { code: 'sinks', reason: 'the row family has no per-row scalar operand for the sinks; they run native' };
  if (mask && [1, 2, 3].some((d) => mask.ne[d] !== 1 && mask.ne[d] !== c.dst.ne[d])) {
    return { code: 'mask-broadcast', reason: `mask ${mask.ne.join('x')} broadcasts by modulo (or is padded), which the row family's row addressing does not do` };
  }
  return null;
}

export const SOFT_MAX = defineRowOp({
  name: 'SOFT_MAX',
  summary: 'dst = softmax(src0·scale + slope·mask) per row, sinks optional (ggml_soft_max_ext, *_inplace, ggml_soft_max_add_sinks)',
  shapeSyntax: 'ne0xne1[xne2xne3] of src0 and dst (ne0: keys, ne1: queries, ne2: heads)',
  layouts: LAYOUTS,
  params: PARAMS,
  matrix: [
    // Few rows (≲ 100): SwiftShader pays per workgroup, and a workgroup is a row. 12 heads take
    // ALiBi's second slope branch (n_head_log2 = 8).
    ...cases('contiguous', [4096, 8]),
    { dims: [4093, 13], layout: 'contiguous', params: { scale: 0.125 } },
    ...cases('inplace', [1000, 11, 3]),
    { dims: [256, 16, 4], layout: 'mask', params: { scale: 0.125 } },
    { dims: [129, 17, 2, 2], layout: 'mask', params: { max_bias: 8 } },
    ...cases('mask-f16-padded', [200, 23, 5]),
    { dims: [64, 16, 4], layout: 'mask-heads', params: { scale: 0.125, max_bias: 8 } },
    { dims: [77, 3, 12, 2], layout: 'mask-heads', params: { max_bias: 8 } },
    ...cases('mask-inplace', [300, 17, 2]),
    { dims: [160, 10, 6], layout: 'mask-sinks', params: { max_bias: 8 } },
  ],
  sources(ne, layout) {
    const [ne0, ne1, ne2] = ne;
    const src0 = contiguous('f32', ne);
    const mask = contiguous('f32', [ne0, ne1]);
    switch (layout) {
      case 'contiguous':
        return { srcs: [src0] };
      case 'inplace':
        return { srcs: [src0], inplace: true };
      case 'mask':
        return { srcs: [src0, mask] };
      case 'mask-f16-padded':
        return { srcs: [src0, contiguous('f16', [ne0, Math.ceil(ne1 / 16) * 16])] };
      case 'mask-heads':
        return { srcs: [src0, contiguous('f32', [ne0, ne1, ne2])] };
      case 'mask-inplace':
        return { srcs: [src0, mask], inplace: true };
      case 'mask-sinks':
        return { srcs: [src0, mask, contiguous('f32', [ne2])] };
    }
    return undefined;
  },
  check(c) {
    const [mask] = c.srcs.slice(1);
    const ne = c.dst.ne;
    // ggml_soft_max_impl's asserts (the layouts above satisfy them; kept as the contract).
    if (mask && (mask.ne[0] !== ne[0] || mask.ne[1] < ne[1] || ne[2] % mask.ne[2] || ne[3] % mask.ne[3])) {
      throw new OpCaseError(`SOFT_MAX: mask ${mask.ne.join('x')} does not fit src0 ${ne.join('x')} (ggml asserts mask.ne0 == ne0, mask.ne1 >= ne1, ne2 % mask.ne2 == 0, ne3 % mask.ne3 == 0)`);
    }
    if (c.params.max_bias > 0 && !mask) {
      throw new OpCaseError(`SOFT_MAX: max_bias ${c.params.max_bias} > 0 needs a mask (ggml asserts it); take a mask layout or max_bias=0`);
    }
  },
  contiguousRows: [],
  oracle,
  inputs,
  native,
  generated: snippet,
  require,
});
