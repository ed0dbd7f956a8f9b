// SOFT_MAX_BACK — ggml_soft_max_ext_back(a = dy, b = y, scale, max_bias): the gradient of
// SOFT_MAX. Source order as ggml_compute_backward calls it: src0 = dy (the incoming gradient),
// src1 = y (SOFT_MAX's own output); dst = dx with dy's shape; *_inplace makes dst a view of dy.
// Per row (ggml-cpu): dx = scale · y · (dy − Σ y·dy). The graph builder asserts nothing; the
// CPU kernel asserts dy, y and dx contiguous and the same shape, and max_bias == 0 (as CUDA's
// does): ALiBi has no backward in ggml, so max_bias is not a lab param (only 0 is allowed).
// op_params: [scale, max_bias] as f32.
import nativeWgsl from '../../../kernels/SOFT_MAX_BACK/soft_max_back.wgsl?raw';
import { deviceOffsetElements, gather, randomBuffer } from '../hostdata';
import { uniformSchema } from '../codegen/uniforms';
import { grid2d, type KernelSpec, nativeTemplated } from '../kernel';
import { NORM, type NormSnippet } from '../families/norm';
import { generatedPath } from '../families/types';
import { contiguous, elementStrides, nrows } from '../tensor';
import { commonRejection } from './contract';
import { dims4, layoutError } from './rows-common';
import { caseLabel, paramsLabel, parseParams, type ParamSpec, rowFeatures, type OpCase, type OpDef, eachElementOnce } from './types';
import { inputSeed } from '../inputs';

const SYNTAX = 'ne0xne1[xne2xne3] of dy, y and dx';

const LAYOUTS = [
  { name: 'contiguous', doc: 'dy, y and dx packed, same shape' },
  { name: 'inplace', doc: 'ggml_soft_max_ext_back_inplace: dx is dy itself' },
] as const;

/**
 * op_params are [scale, max_bias], but ggml (CPU and CUDA) asserts max_bias == 0 in the backward
 * (ALiBi has no gradient there): only scale is a param; a max_bias is refused by name.
 */
export const PARAMS: readonly ParamSpec[] = Object.freeze([
  { name: 'scale', type: 'f32', default: 1, min: -1024, max: 1024, doc: 'the forward SOFT_MAX scale: multiplies the gradient' },
]);

function makeCase(dims: readonly number[], layout: string = 'contiguous', params: Readonly<Record<string, number>> = {}): OpCase {
  const ne = dims4('SOFT_MAX_BACK', dims, SYNTAX);
  const checked = parseParams('SOFT_MAX_BACK', PARAMS, params);
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
  return Object.freeze({ op: 'SOFT_MAX_BACK', dims: Object.freeze([...dims]), layout, label: caseLabel(dims, layout, 'contiguous', paramsLabel(PARAMS, checked)), srcs: Object.freeze([dy, y]), dst, inplace, params: checked });
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
  const dy = randomBuffer(c.srcs[0], inputSeed(seed, 0));
  const y = randomBuffer(c.srcs[1], inputSeed(seed, 1));
  const f = new Float32Array(y);
  const ne0 = c.dst.ne[0];
  for (let base = 0; base < f.length; base += ne0) {
    let sum = 0;
    for (let i = 0; i < ne0; i++) sum += Math.exp(8 * f[base + i]);
    for (let i = 0; i < ne0; i++) f[base + i] = Math.exp(8 * f[base + i]) / sum;
  }
  return [dy, y];
}

const NATIVE_WG = 256;

/** Row/plane strides and offsets of dy, y and dx (elements), and scale. */
const PARAMS_SCHEMA = uniformSchema('Params', {
  ne0: 'u32', ne1: 'u32', ne2: 'u32', nrows: 'u32',
  s01: 'u32', s02: 'u32', s03: 'u32', off0: 'u32',
  s11: 'u32', s12: 'u32', s13: 'u32', off1: 'u32',
  s1: 'u32', s2: 'u32', s3: 'u32', offd: 'u32',
  scale: 'f32',
});

function native(c: OpCase): KernelSpec {
  const [dy, y] = c.srcs;
  const [ne0, ne1, ne2] = c.dst.ne;
  const [, s01, s02, s03] = elementStrides(dy);
  const [, s11, s12, s13] = elementStrides(y);
  const [, s1, s2, s3] = elementStrides(c.dst);
  const values = { ne0, ne1, ne2, nrows: nrows(c.dst), s01, s02, s03, off0: deviceOffsetElements(dy), s11, s12, s13, off1: deviceOffsetElements(y), s1, s2, s3, offd: deviceOffsetElements(c.dst), scale: c.params.scale };
  const roles = c.inplace ? (['src1', 'dst', 'params'] as const) : (['src0', 'src1', 'dst', 'params'] as const);
  return nativeTemplated('SOFT_MAX_BACK/soft_max_back.wgsl', nativeWgsl, roles, grid2d(nrows(c.dst)), PARAMS_SCHEMA, values, { INPLACE: c.inplace, WG: NATIVE_WG });
}

/** SOFT_MAX_BACK for the row family: Σ y·dy, then (dy − dot)·y·scale; in place, dy is read from dst. */
function snippet(c: OpCase): NormSnippet {
  return {
    operands: [
      { name: 'dy', binding: c.inplace ? 'dst' : 'src0', tensor: c.srcs[0] },
      { name: 'y', binding: 'src1', tensor: c.srcs[1] },
    ],
    reductions: [{ name: 'dot_y_dy', map: 'y * dy', combine: 'sum' }],
    output: { kind: 'row', tensor: c.dst, expr: '(dy - dot_y_dy) * y * SCALE' },
    constants: { SCALE: c.params.scale },
  };
}

const generated = generatedPath(NORM, snippet);

export const SOFT_MAX_BACK: OpDef = {
  name: 'SOFT_MAX_BACK',
  bench: { dims: [4096, 4096] },
  summary: 'dx = scale · y · (dy − Σ y·dy) per row; src0 = dy, src1 = y (ggml_soft_max_ext_back, *_inplace)',
  shapeSyntax: SYNTAX,
  layouts: LAYOUTS,
  params: PARAMS,
  matrix: [
    { dims: [4096, 8], layout: 'contiguous' },
    { dims: [4093, 13], layout: 'contiguous' },
    { dims: [1000, 11, 3], layout: 'contiguous', params: { scale: 0.125 } },
    { dims: [77, 9, 3, 2], layout: 'contiguous' },
    { dims: [4096, 4], layout: 'inplace' },
    { dims: [255, 33, 2], layout: 'inplace', params: { scale: -2 } },
  ],
  makeCase,
  oracle,
  inputs,
  flops: () => null,
  bytes: eachElementOnce,
  features: rowFeatures,
  native,
  family: generated.family,
  // Every case makeCase builds is packed, which is all the generated kernel needs.
  require: (c, adapter) => commonRejection(c, adapter),
  fits: generated.fits,
  generate: generated.generate,
};
