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
import nativeWgsl from '../../../kernels/SOFT_MAX/soft_max.wgsl?raw';
import { deviceOffsetElements, gather, prng, randomBuffer, writeElement } from '../hostdata';
import { uniformSchema } from '../codegen/uniforms';
import { f32Bits, grid2d, type BindingRole, type KernelSpec, nativeTemplated } from '../kernel';
import { f, u } from '../codegen/wgsl';
import { NORM, type NormSnippet } from '../families/norm';
import { generatedPath } from '../families/types';
import { contiguous, elementStrides, forEachElement, nrows, type TensorDesc } from '../tensor';
import { commonRejection } from './contract';
import { dims4, layoutError } from './rows-common';
import { caseLabel, paramsLabel, parseParams, type ParamSpec, OpCaseError, rowFeatures, type OpCase, type OpDef, eachElementOnce } from './types';
import { inputSeed } from '../inputs';

const SYNTAX = 'ne0xne1[xne2xne3] of src0 and dst (ne0: keys, ne1: queries, ne2: heads)';

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

function makeCase(dims: readonly number[], layout: string = 'contiguous', params: Readonly<Record<string, number>> = {}): OpCase {
  const ne = dims4('SOFT_MAX', dims, SYNTAX);
  const checked = parseParams('SOFT_MAX', PARAMS, params);
  const [ne0, ne1, ne2] = ne;
  const src0 = contiguous('f32', ne);
  const srcs: TensorDesc[] = [src0];
  let inplace = false;
  switch (layout) {
    case 'contiguous':
      break;
    case 'inplace':
      inplace = true;
      break;
    case 'mask':
      srcs.push(contiguous('f32', [ne0, ne1]));
      break;
    case 'mask-f16-padded':
      srcs.push(contiguous('f16', [ne0, Math.ceil(ne1 / 16) * 16]));
      break;
    case 'mask-heads':
      srcs.push(contiguous('f32', [ne0, ne1, ne2]));
      break;
    case 'mask-inplace':
      srcs.push(contiguous('f32', [ne0, ne1]));
      inplace = true;
      break;
    case 'mask-sinks':
      srcs.push(contiguous('f32', [ne0, ne1]), contiguous('f32', [ne2]));
      break;
    default:
      throw layoutError('SOFT_MAX', layout, LAYOUTS);
  }
  const mask = srcs[1];
  if (mask) {
    // ggml_soft_max_impl's asserts (the layouts above satisfy them; kept as the contract).
    if (mask.ne[0] !== ne0 || mask.ne[1] < ne1 || ne[2] % mask.ne[2] || ne[3] % mask.ne[3]) {
      throw new OpCaseError(`SOFT_MAX: mask ${mask.ne.join('x')} does not fit src0 ${ne.join('x')} (ggml asserts mask.ne0 == ne0, mask.ne1 >= ne1, ne2 % mask.ne2 == 0, ne3 % mask.ne3 == 0)`);
    }
  }
  if (checked.max_bias > 0 && !mask) {
    throw new OpCaseError(`SOFT_MAX: max_bias ${checked.max_bias} > 0 needs a mask (ggml asserts it); take a mask layout or max_bias=0`);
  }
  const dst = inplace ? { ...src0, layout: 'inplace' } : contiguous('f32', ne);
  return Object.freeze({ op: 'SOFT_MAX', dims: Object.freeze([...dims]), layout, label: caseLabel(dims, layout, 'contiguous', paramsLabel(PARAMS, checked)), srcs: Object.freeze(srcs), dst, inplace, params: checked });
}

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

const NATIVE_WG = 256;

/** Strides and offsets (elements) of src0, the mask (its broadcast ne12, ne13), the sinks and dst; ALiBi's constants. */
const PARAMS_SCHEMA = uniformSchema('Params', {
  ne0: 'u32', ne1: 'u32', ne2: 'u32', nrows: 'u32',
  s01: 'u32', s02: 'u32', s03: 'u32', off0: 'u32',
  s11: 'u32', s12: 'u32', s13: 'u32', off1: 'u32',
  ne12: 'u32', ne13: 'u32', off2: 'u32', n_head_log2: 'u32',
  s1: 'u32', s2: 'u32', s3: 'u32', offd: 'u32',
  scale: 'f32', max_bias: 'f32', m0: 'f32', m1: 'f32',
  neg_inf_bits: 'u32',
});

function native(c: OpCase): KernelSpec {
  const [src0, mask, sinks] = c.srcs;
  const [ne0, ne1, ne2] = c.dst.ne;
  const [, s01, s02, s03] = elementStrides(src0);
  const [, s11, s12, s13] = mask ? elementStrides(mask) : [0, 0, 0, 0];
  const [, s1, s2, s3] = elementStrides(c.dst);
  const { nHeadLog2, m0, m1 } = alibi(c.params.max_bias, ne2);
  const values = {
    ne0, ne1, ne2, nrows: nrows(c.dst),
    s01, s02, s03, off0: deviceOffsetElements(src0),
    s11, s12, s13, off1: mask ? deviceOffsetElements(mask) : 0,
    ne12: mask ? mask.ne[2] : 1, ne13: mask ? mask.ne[3] : 1, off2: sinks ? deviceOffsetElements(sinks) : 0, n_head_log2: nHeadLog2,
    s1, s2, s3, offd: deviceOffsetElements(c.dst),
    scale: c.params.scale, max_bias: c.params.max_bias, m0, m1,
    neg_inf_bits: f32Bits(-Infinity),
  };
  // Bindings in order, present ones only: src0 (not in place), mask, sinks, dst, params.
  const roles: BindingRole[] = [...(c.inplace ? [] : ['src0' as const]), ...(mask ? ['src1' as const] : []), ...(sinks ? ['src2' as const] : []), 'dst', 'params'];
  const at = (role: BindingRole) => roles.indexOf(role);
  const defines = {
    INPLACE: c.inplace, MASK: !!mask, MASK_F16: mask?.type === 'f16', SINKS: !!sinks, WG: NATIVE_WG,
    B_SRC0: at('src0'), B_SRC1: at('src1'), B_SRC2: at('src2'), B_DST: at('dst'), B_PARAMS: at('params'),
  };
  return nativeTemplated('SOFT_MAX/soft_max.wgsl', nativeWgsl, roles, grid2d(nrows(c.dst)), PARAMS_SCHEMA, values, defines);
}

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
    operands: [
      { name: 'x', binding: c.inplace ? 'dst' : 'src0', tensor: c.srcs[0] },
      ...(mask ? [{ name: 'm', binding: 'src1' as const, tensor: mask }] : []),
    ],
    reductions: [
      { name: 'row_max', map: s, combine: 'max' },
      { name: 'row_sum', map: `exp(${s} - row_max)`, combine: 'sum' },
    ],
    finish: ['let inv = 1.0 / row_sum;'],
    output: { kind: 'row', tensor: c.dst, expr: `exp(${s} - row_max) * inv` },
    constants: { SCALE: c.params.scale },
  };
}

const generated = generatedPath(NORM, snippet);

/** The generated path reads f32 operands along rows: an f16 mask and per-head sinks are the native kernel's. */
function require(c: OpCase, adapter: Parameters<OpDef['require']>[1]) {
  const mask = c.srcs[1];
  if (mask?.type === 'f16') return { code: 'f16-mask', reason: 'the row family reads f32 operands; the f16 mask runs native (it unpacks u32 pairs)' };
  if (c.srcs[2]) return { code: 'sinks', reason: 'the row family has no per-row scalar operand for the sinks; they run native' };
  if (mask && [1, 2, 3].some((d) => mask.ne[d] !== 1 && mask.ne[d] !== c.dst.ne[d])) {
    return { code: 'mask-broadcast', reason: `mask ${mask.ne.join('x')} broadcasts by modulo (or is padded), which the row family's row addressing does not do` };
  }
  return commonRejection(c, adapter);
}

export const SOFT_MAX: OpDef = {
  name: 'SOFT_MAX',
  bench: { dims: [4096, 4096] },
  summary: 'dst = softmax(src0·scale + slope·mask) per row, sinks optional (ggml_soft_max_ext, *_inplace, ggml_soft_max_add_sinks)',
  shapeSyntax: SYNTAX,
  layouts: LAYOUTS,
  params: PARAMS,
  matrix: [
    // Few rows (≲ 100): SwiftShader pays per workgroup, and a workgroup is a row. 12 heads take
    // ALiBi's second slope branch (n_head_log2 = 8).
    { dims: [4096, 8], layout: 'contiguous' },
    { dims: [4093, 13], layout: 'contiguous', params: { scale: 0.125 } },
    { dims: [1000, 11, 3], layout: 'inplace' },
    { dims: [256, 16, 4], layout: 'mask', params: { scale: 0.125 } },
    { dims: [129, 17, 2, 2], layout: 'mask', params: { max_bias: 8 } },
    { dims: [200, 23, 5], layout: 'mask-f16-padded' },
    { dims: [64, 16, 4], layout: 'mask-heads', params: { scale: 0.125, max_bias: 8 } },
    { dims: [77, 3, 12, 2], layout: 'mask-heads', params: { max_bias: 8 } },
    { dims: [300, 17, 2], layout: 'mask-inplace' },
    { dims: [160, 10, 6], layout: 'mask-sinks', params: { max_bias: 8 } },
  ],
  makeCase,
  oracle,
  inputs,
  flops: () => null,
  bytes: eachElementOnce,
  features: rowFeatures,
  native,
  family: generated.family,
  require,
  fits: generated.fits,
  generate: generated.generate,
};
