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
import { f32Bits, grid2d, type KernelSpec, packParams, type BindingRole } from '../kernel';
import { scheduleKey, type Schedule } from '../schedule/schedule';
import { contiguous, elementStrides, forEachElement, nelements, nrows, type TensorDesc } from '../tensor';
import { commonRejection } from './contract';
import { checkParams, dims4, layoutError, type ParamSpec, wgslVariant } from './rows-common';
import { caseLabel, OpCaseError, rowFeatures, type OpCase, type OpDef } from './types';

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

interface Variant {
  readonly mask: 'none' | 'f32' | 'f16';
  readonly inplace: boolean;
  readonly sinks: boolean;
}

function variantOf(c: OpCase): Variant {
  const mask = c.srcs.length > 1 ? (c.srcs[1].type === 'f16' ? 'f16' : 'f32') : 'none';
  return { mask, inplace: c.inplace, sinks: c.srcs.length > 2 };
}

function makeCase(dims: readonly number[], layout: string = 'contiguous', params: Readonly<Record<string, number>> = {}): OpCase {
  const ne = dims4('SOFT_MAX', dims, SYNTAX);
  const checked = checkParams('SOFT_MAX', PARAMS, params);
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
  return Object.freeze({ op: 'SOFT_MAX', dims: Object.freeze([...dims]), layout, label: caseLabel(dims, layout, 'contiguous'), srcs: Object.freeze(srcs), dst, inplace, params: checked });
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
  const a = randomBuffer(c.srcs[0], seed * 7919);
  const af = new Float32Array(a);
  for (let i = 0; i < af.length; i++) af[i] *= 8;
  const out = [a];
  const maskT = c.srcs[1];
  if (maskT) {
    const buf = new ArrayBuffer(maskT.bufferSizeBytes);
    const view = new DataView(buf);
    const next = prng(seed * 7919 + 104729);
    const shift = Math.max(0, c.dst.ne[0] - c.dst.ne[1]);
    forEachElement(maskT, (_i, off, i0, i1) => {
      writeElement(view, maskT.type, off, i0 > i1 + shift ? -Infinity : -next() * ((i1 + shift - i0) % 4));
    });
    out.push(buf);
  }
  const sinksT = c.srcs[2];
  if (sinksT) {
    const buf = randomBuffer(sinksT, seed * 7919 + 2 * 104729);
    const f = new Float32Array(buf);
    for (let i = 0; i < f.length; i++) f[i] *= 2;
    out.push(buf);
  }
  return out;
}

function nativeParams(c: OpCase): Uint32Array {
  const [src0, mask, sinks] = c.srcs;
  const [ne0, ne1, ne2] = c.dst.ne;
  const [, s01, s02, s03] = elementStrides(src0);
  const [, s11, s12, s13] = mask ? elementStrides(mask) : [0, 0, 0, 0];
  const [, s1, s2, s3] = elementStrides(c.dst);
  const { nHeadLog2, m0, m1 } = alibi(c.params.max_bias, ne2);
  return packParams([
    ne0, ne1, ne2, nrows(c.dst),
    s01, s02, s03, deviceOffsetElements(src0),
    s11, s12, s13, mask ? deviceOffsetElements(mask) : 0,
    mask ? mask.ne[2] : 1, mask ? mask.ne[3] : 1, sinks ? deviceOffsetElements(sinks) : 0, nHeadLog2,
    s1, s2, s3, deviceOffsetElements(c.dst),
    f32Bits(c.params.scale), f32Bits(c.params.max_bias), f32Bits(m0), f32Bits(m1),
    f32Bits(-Infinity),
  ]);
}

/** The kernel's bindings: fixed numbers per role (src0 0, mask 1, sinks 2, dst 3, params 4). */
function nativeBindings(v: Variant): { binding: number; role: BindingRole; access: 'read' | 'read_write' | 'uniform' }[] {
  const list: { binding: number; role: BindingRole; access: 'read' | 'read_write' | 'uniform' }[] = [];
  if (!v.inplace) list.push({ binding: 0, role: 'src0', access: 'read' });
  if (v.mask !== 'none') list.push({ binding: 1, role: 'src1', access: 'read' });
  if (v.sinks) list.push({ binding: 2, role: 'src2', access: 'read' });
  list.push({ binding: 3, role: 'dst', access: 'read_write' }, { binding: 4, role: 'params', access: 'uniform' });
  return list;
}

export function nativeVariantWgsl(v: Variant): string {
  return wgslVariant(nativeWgsl, { INPLACE: v.inplace, NO_MASK: v.mask === 'none', MASK_F32: v.mask === 'f32', MASK_F16: v.mask === 'f16', SINKS: v.sinks });
}

function native(c: OpCase): KernelSpec {
  const v = variantOf(c);
  const name = [v.inplace ? 'inplace' : '', v.mask !== 'none' ? `mask-${v.mask}` : '', v.sinks ? 'sinks' : ''].filter(Boolean).join(',');
  return {
    label: `native:SOFT_MAX/soft_max.wgsl${name ? `[${name}]` : ''}`,
    wgsl: nativeVariantWgsl(v),
    entryPoint: 'main',
    bindings: nativeBindings(v),
    dispatch: grid2d(nrows(c.dst)),
    uniforms: nativeParams(c),
  };
}

const NO_GENERATED = 'SOFT_MAX has no generated kernel yet (it comes with the generalized rows family, issue 9 Part 1)';

export const SOFT_MAX: OpDef = {
  name: 'SOFT_MAX',
  summary: 'dst = softmax(src0·scale + slope·mask) per row, sinks optional (ggml_soft_max_ext, *_inplace, ggml_soft_max_add_sinks)',
  shapeSyntax: SYNTAX,
  layouts: LAYOUTS,
  matrix: [
    { dims: [4096, 8], layout: 'contiguous' },
    { dims: [4093, 13], layout: 'contiguous', },
    { dims: [1000, 11, 3], layout: 'inplace' },
    { dims: [256, 32, 4], layout: 'mask' },
    { dims: [129, 37, 2, 2], layout: 'mask' },
    { dims: [200, 23, 5], layout: 'mask-f16-padded' },
    { dims: [64, 64, 8], layout: 'mask-heads' },
    { dims: [77, 9, 3, 2], layout: 'mask-heads' },
    { dims: [300, 17, 2], layout: 'mask-inplace' },
    { dims: [160, 20, 6], layout: 'mask-sinks' },
  ],
  makeCase,
  oracle,
  inputs,
  flops: () => null,
  bytes: (c) => ({ readBytes: c.srcs.reduce((n, t) => n + nelements(t) * (t.type === 'f16' ? 2 : 4), 0), writeBytes: nelements(c.dst) * 4 }),
  features: rowFeatures,
  native,
  family: 'norm',
  require: (c, adapter) => commonRejection(c, adapter),
  fits: () => [NO_GENERATED],
  generate: (s: Schedule, c: OpCase) => {
    throw new OpCaseError(`schedule ${scheduleKey(s)} cannot take SOFT_MAX ${c.label}: ${NO_GENERATED}`);
  },
};
