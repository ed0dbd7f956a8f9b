// SOFT_MAX_BACK — ggml_soft_max_ext_back(a = dy, b = y, scale, max_bias): the gradient of
// SOFT_MAX. Source order as ggml_compute_backward calls it: src0 = dy (the incoming gradient),
// src1 = y (SOFT_MAX's own output); dst = dx with dy's shape; *_inplace makes dst a view of dy.
// Per row (ggml-cpu): dx = scale · y · (dy − Σ y·dy). The graph builder asserts nothing; the
// CPU kernel asserts dy, y and dx contiguous and the same shape, and max_bias == 0 (as CUDA's
// does): ALiBi has no backward in ggml, so max_bias is declared with the single value 0.
// op_params: [scale, max_bias] as f32.
import nativeWgsl from '../../../kernels/SOFT_MAX_BACK/soft_max_back.wgsl?raw';
import { deviceOffsetElements, gather, randomBuffer } from '../hostdata';
import { f32Bits, grid2d, type BindingSpec, type KernelSpec, packParams } from '../kernel';
import { scheduleKey, type Schedule } from '../schedule/schedule';
import { contiguous, elementStrides, nelements, nrows } from '../tensor';
import { commonRejection } from './contract';
import { checkParams, dims4, layoutError, type ParamSpec, wgslVariant } from './rows-common';
import { caseLabel, rowFeatures, OpCaseError, type OpCase, type OpDef } from './types';

const SYNTAX = 'ne0xne1[xne2xne3] of dy, y and dx';

const LAYOUTS = [
  { name: 'contiguous', doc: 'dy, y and dx packed, same shape' },
  { name: 'inplace', doc: 'ggml_soft_max_ext_back_inplace: dx is dy itself' },
] as const;

export const PARAMS: readonly ParamSpec[] = Object.freeze([
  { name: 'scale', type: 'f32', default: 1, min: -1024, max: 1024, doc: 'the forward SOFT_MAX scale: multiplies the gradient' },
  { name: 'max_bias', type: 'f32', default: 0, min: 0, max: 0, doc: 'the forward ALiBi max_bias: ggml (CPU and CUDA) asserts 0 in the backward' },
]);

function makeCase(dims: readonly number[], layout: string = 'contiguous', params: Readonly<Record<string, number>> = {}): OpCase {
  const ne = dims4('SOFT_MAX_BACK', dims, SYNTAX);
  const checked = checkParams('SOFT_MAX_BACK', PARAMS, params);
  const dy = contiguous('f32', ne);
  const y = contiguous('f32', ne);
  let inplace = false;
  switch (layout) {
    case 'contiguous':
      break;
    case 'inplace':
      inplace = true;
      break;
    default:
      throw layoutError('SOFT_MAX_BACK', layout, LAYOUTS, layout.includes('strided') || layout.includes('permuted') ? 'ggml asserts dy, y and dx contiguous' : '');
  }
  const dst = inplace ? { ...dy, layout: 'inplace' } : contiguous('f32', ne);
  return Object.freeze({ op: 'SOFT_MAX_BACK', dims: Object.freeze([...dims]), layout, label: caseLabel(dims, layout, 'contiguous'), srcs: Object.freeze([dy, y]), dst, inplace, params: checked });
}

/**
 * f64 reference. The dot has ne0 terms that may cancel, and dy − dot cancels too: the floor is
 * |scale·y|·(|dy| + Σ|y·dy|), the magnitudes the f32 rounding scales with.
 */
function oracle(c: OpCase, srcs: readonly ArrayBuffer[]) {
  const dy = gather(c.srcs[0], srcs[0]);
  const y = gather(c.srcs[1], srcs[1]);
  const ne0 = c.dst.ne[0];
  const scale = Math.fround(c.params.scale);
  const ref = new Float64Array(dy.length);
  const epsFloor = new Float64Array(dy.length);
  for (let base = 0; base < dy.length; base += ne0) {
    let dot = 0;
    let abs = 0;
    for (let i = 0; i < ne0; i++) {
      dot += y[base + i] * dy[base + i];
      abs += Math.abs(y[base + i] * dy[base + i]);
    }
    for (let i = 0; i < ne0; i++) {
      ref[base + i] = scale * y[base + i] * (dy[base + i] - dot);
      epsFloor[base + i] = Math.abs(scale * y[base + i]) * (Math.abs(dy[base + i]) + abs);
    }
  }
  return { ref, epsFloor, terms: ne0 };
}

/** dy uniform in [-1, 1); y a real softmax output (each row of exp(8·u) normalized, u in [-1, 1)). */
function inputs(c: OpCase, seed: number): ArrayBuffer[] {
  const dy = randomBuffer(c.srcs[0], seed * 7919);
  const y = randomBuffer(c.srcs[1], seed * 7919 + 104729);
  const f = new Float32Array(y);
  const ne0 = c.dst.ne[0];
  for (let base = 0; base < f.length; base += ne0) {
    let sum = 0;
    for (let i = 0; i < ne0; i++) sum += Math.exp(8 * f[base + i]);
    for (let i = 0; i < ne0; i++) f[base + i] = Math.exp(8 * f[base + i]) / sum;
  }
  return [dy, y];
}

function nativeParams(c: OpCase): Uint32Array {
  const [dy, y] = c.srcs;
  const [ne0, ne1, ne2] = c.dst.ne;
  const st = (t: typeof dy) => elementStrides(t).slice(1);
  return packParams([ne0, ne1, ne2, nrows(c.dst), ...st(dy), deviceOffsetElements(dy), ...st(y), deviceOffsetElements(y), ...st(c.dst), deviceOffsetElements(c.dst), f32Bits(c.params.scale)]);
}

function native(c: OpCase): KernelSpec {
  const bindings: BindingSpec[] = [
    ...(c.inplace ? [] : [{ binding: 0, role: 'src0', access: 'read' } as const]),
    { binding: 1, role: 'src1', access: 'read' },
    { binding: 2, role: 'dst', access: 'read_write' },
    { binding: 3, role: 'params', access: 'uniform' },
  ];
  return {
    label: `native:SOFT_MAX_BACK/soft_max_back.wgsl${c.inplace ? '[inplace]' : ''}`,
    wgsl: wgslVariant(nativeWgsl, { INPLACE: c.inplace }),
    entryPoint: 'main',
    bindings,
    dispatch: grid2d(nrows(c.dst)),
    uniforms: nativeParams(c),
  };
}

const NO_GENERATED = 'SOFT_MAX_BACK has no generated kernel yet (it comes with the generalized rows family, issue 9 Part 1)';

export const SOFT_MAX_BACK: OpDef = {
  name: 'SOFT_MAX_BACK',
  summary: 'dx = scale · y · (dy − Σ y·dy) per row; src0 = dy, src1 = y (ggml_soft_max_ext_back, *_inplace)',
  shapeSyntax: SYNTAX,
  layouts: LAYOUTS,
  matrix: [
    { dims: [4096, 8], layout: 'contiguous' },
    { dims: [4093, 13], layout: 'contiguous' },
    { dims: [1000, 11, 3], layout: 'contiguous' },
    { dims: [77, 9, 3, 2], layout: 'contiguous' },
    { dims: [4096, 4], layout: 'inplace' },
    { dims: [255, 33, 2], layout: 'inplace' },
  ],
  makeCase,
  oracle,
  inputs,
  flops: () => null,
  bytes: (c) => ({ readBytes: (nelements(c.srcs[0]) + nelements(c.srcs[1])) * 4, writeBytes: nelements(c.dst) * 4 }),
  features: rowFeatures,
  native,
  family: 'norm',
  require: (c, adapter) => commonRejection(c, adapter),
  fits: () => [NO_GENERATED],
  generate: (s: Schedule, c: OpCase) => {
    throw new OpCaseError(`schedule ${scheduleKey(s)} cannot take SOFT_MAX_BACK ${c.label}: ${NO_GENERATED}`);
  },
};
