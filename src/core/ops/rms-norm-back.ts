// RMS_NORM_BACK — ggml_rms_norm_back(a = dz, b = x, eps): the gradient of RMS_NORM. src0 = dz
// (the incoming gradient), src1 = x, same shape, rows contiguous; dst = dx with src0's shape.
// Per row, as ggml's CPU kernel (sums in double there):
//   sum_xx = Σx², sum_xdz = Σx·dz, mean_eps = sum_xx/ne0 + eps, sum_eps = sum_xx + eps·ne0,
//   rrms = 1/sqrt(mean_eps), dx = (x · (−sum_xdz/sum_eps) + dz) · rrms
// ggml has no in-place variant of this op.
import nativeWgsl from '../../../kernels/RMS_NORM_BACK/rms_norm_back.wgsl?raw';
import { NORM, type NormSnippet } from '../families/norm';
import { generatedPath } from '../families/types';
import { f } from '../codegen/wgsl';
import { deviceOffsetElements, gather } from '../hostdata';
import { uniformSchema } from '../codegen/uniforms';
import { grid2d, type KernelSpec, nativeTemplated } from '../kernel';
import { contiguous, elementStrides, nrows, permute, rowsContiguous, sameShape, stridedRows } from '../tensor';
import { NORM_PARAMS, normDims } from './rms-norm';
import { commonRejection } from './contract';
import { caseLabel, OpCaseError, paramsLabel, parseParams, rowFeatures, type OpCase, type OpDef, eachElementOnce } from './types';

const LAYOUTS = [
  { name: 'contiguous', doc: 'dz, x and dx packed, same shape' },
  { name: 'src1-rows-strided', doc: 'x (src1) is a view whose rows sit in a wider packed tensor (odd row stride)' },
  { name: 'src0-permuted', doc: 'dz (src0) is permute(0,2,1,3) of a packed tensor (rows contiguous, planes swapped)' },
] as const;

function makeCase(dims: readonly number[], layout: string = 'contiguous', params: Readonly<Record<string, number>> = {}): OpCase {
  const ne = normDims('RMS_NORM_BACK', dims);
  const values = parseParams('RMS_NORM_BACK', NORM_PARAMS, params);
  const [ne0, ne1, ne2, ne3] = ne;
  let dz = contiguous('f32', ne);
  let x = contiguous('f32', ne);
  switch (layout) {
    case 'contiguous':
      break;
    case 'src1-rows-strided':
      x = stridedRows('f32', ne, ne0 + 3, 1);
      break;
    case 'src0-permuted':
      dz = permute(contiguous('f32', [ne0, ne2, ne1, ne3]), [0, 2, 1, 3]);
      break;
    case 'inplace':
      throw new OpCaseError(`RMS_NORM_BACK has no 'inplace' layout: ggml has no in-place rms_norm_back (layouts: ${LAYOUTS.map((l) => l.name).join(', ')})`);
    default:
      throw new OpCaseError(`RMS_NORM_BACK has no layout '${layout}' (layouts: ${LAYOUTS.map((l) => l.name).join(', ')})`);
  }
  if (!sameShape(dz, x)) throw new OpCaseError(`RMS_NORM_BACK: dz ${dz.ne.join('x')} and x ${x.ne.join('x')} must have the same shape`);
  for (const [name, t] of [['src0 (dz)', dz], ['src1 (x)', x]] as const) {
    if (!rowsContiguous(t)) throw new OpCaseError(`RMS_NORM_BACK: ${name} rows must be contiguous, got nb0 = ${t.nb[0]} B`);
  }
  const dst = contiguous('f32', ne);
  return Object.freeze({ op: 'RMS_NORM_BACK', dims: Object.freeze([...dims]), layout, label: caseLabel(dims, layout, 'contiguous', paramsLabel(NORM_PARAMS, values)), srcs: Object.freeze([dz, x]), dst, inplace: false, params: values });
}

/**
 * f64 reference, ggml's formula. epsFloor per element is the magnitude of the terms that meet
 * there, (|dz| + |x|·Σ|x·dz|/sum_eps)·rrms, so cancellation never shrinks the bound to 0: where
 * dz + x·k cancels, and inside sum_xdz too. A device's f32 sum_xdz is off by ~u·Σ|x·dz|, not
 * u·|sum_xdz|: with |sum_xdz| in place of Σ|x·dz|, rows whose products cancel (likely when ne0
 * is small, e.g. 8x70000) failed by 2× on SwiftShader for the native and generated kernels alike.
 */
function oracle(c: OpCase, srcs: readonly ArrayBuffer[]) {
  const dz = gather(c.srcs[0], srcs[0]);
  const x = gather(c.srcs[1], srcs[1]);
  const ne0 = c.dst.ne[0];
  const eps = Math.fround(c.params.eps); // the f32 ggml keeps in op_params
  const ref = new Float64Array(x.length);
  const epsFloor = new Float64Array(x.length);
  for (let base = 0; base < x.length; base += ne0) {
    let sumXx = 0;
    let sumXdz = 0;
    let sumAbsXdz = 0;
    for (let i = 0; i < ne0; i++) {
      sumXx += x[base + i] * x[base + i];
      sumXdz += x[base + i] * dz[base + i];
      sumAbsXdz += Math.abs(x[base + i] * dz[base + i]);
    }
    const meanEps = sumXx / ne0 + eps;
    const sumEps = sumXx + eps * ne0;
    const rrms = 1 / Math.sqrt(meanEps);
    for (let i = 0; i < ne0; i++) {
      ref[base + i] = (x[base + i] * (-sumXdz / sumEps) + dz[base + i]) * rrms;
      epsFloor[base + i] = (Math.abs(dz[base + i]) + (Math.abs(x[base + i]) * sumAbsXdz) / sumEps) * rrms;
    }
  }
  return { ref, epsFloor, terms: ne0 };
}

const NATIVE_WG = 256;

/** Row/plane strides and offsets in elements (dz, x, dx) and eps. */
const PARAMS = uniformSchema('Params', {
  ne0: 'u32', ne1: 'u32', ne2: 'u32', nrows: 'u32',
  s01: 'u32', s02: 'u32', s03: 'u32', off0: 'u32',
  s11: 'u32', s12: 'u32', s13: 'u32', off1: 'u32',
  s1: 'u32', s2: 'u32', s3: 'u32', offd: 'u32',
  eps: 'f32',
});

function native(c: OpCase): KernelSpec {
  const [dz, x] = c.srcs;
  const [, s01, s02, s03] = elementStrides(dz);
  const [, s11, s12, s13] = elementStrides(x);
  const [, s1, s2, s3] = elementStrides(c.dst);
  const [ne0, ne1, ne2] = c.dst.ne;
  const values = {
    ne0, ne1, ne2, nrows: nrows(c.dst),
    s01, s02, s03, off0: deviceOffsetElements(dz),
    s11, s12, s13, off1: deviceOffsetElements(x),
    s1, s2, s3, offd: deviceOffsetElements(c.dst),
    eps: c.params.eps,
  };
  return nativeTemplated('RMS_NORM_BACK/rms_norm_back.wgsl', nativeWgsl, ['src0', 'src1', 'dst', 'params'], grid2d(nrows(c.dst)), PARAMS, values, { WG: NATIVE_WG });
}

/** RMS_NORM_BACK for the row family: Σx² and Σx·dz together, then ggml's formula per element. */
function snippet(c: OpCase): NormSnippet {
  const ne0 = c.dst.ne[0];
  const eps = c.params.eps;
  return {
    operands: [
      { name: 'dz', binding: 'src0', tensor: c.srcs[0] },
      { name: 'x', binding: 'src1', tensor: c.srcs[1] },
    ],
    reductions: [
      { name: 'sum_xx', map: 'x * x', combine: 'sum' },
      { name: 'sum_xdz', map: 'x * dz', combine: 'sum' },
    ],
    finish: [
      `let rrms = inverseSqrt(sum_xx / ${f(ne0)} + ${f(eps)});`,
      // eps·ne0 folded in f64, then rounded once, as ggml adds it in double.
      `let k = -sum_xdz / (sum_xx + ${f(Math.fround(eps) * ne0)});`,
    ],
    output: { kind: 'row', tensor: c.dst, expr: '(x * k + dz) * rrms' },
  };
}

const generated = generatedPath(NORM, snippet);

export const RMS_NORM_BACK: OpDef = {
  name: 'RMS_NORM_BACK',
  bench: { dims: [4096, 4096] },
  summary: 'dx = (x · (−Σx·dz/(Σx² + eps·ne0)) + dz) / sqrt(mean(x²) + eps) per row (ggml_rms_norm_back)',
  shapeSyntax: 'ne0xne1[xne2xne3] of dst',
  layouts: LAYOUTS,
  params: NORM_PARAMS,
  matrix: [
    // Few rows: SwiftShader (CI's adapter, a CPU) pays per workgroup, and a workgroup is a row.
    { dims: [4096, 32], layout: 'contiguous' },
    { dims: [4093, 37], layout: 'contiguous' },
    { dims: [1000, 11, 3], layout: 'contiguous' },
    { dims: [64, 64], layout: 'contiguous' },
    { dims: [4096, 16], layout: 'src1-rows-strided' },
    { dims: [4093, 7], layout: 'src1-rows-strided' },
    { dims: [128, 8, 4], layout: 'src0-permuted' },
    { dims: [1000, 11, 3], layout: 'src0-permuted' },
    { dims: [4096, 8], layout: 'contiguous', params: { eps: 1e-5 } },
  ],
  makeCase,
  oracle,
  flops: () => null,
  bytes: eachElementOnce,
  features: rowFeatures,
  native,
  family: generated.family,
  // Every case makeCase builds has contiguous rows, which is all the generated kernel needs.
  // Every layout ggml allows is taken; only the shared limits (binding size, u32 indices) decline.
  require: (c, adapter) => commonRejection(c, adapter),
  fits: generated.fits,
  generate: generated.generate,
};
