// RMS_NORM_BACK — ggml_rms_norm_back(a = dz, b = x, eps): the gradient of RMS_NORM. src0 = dz
// (the incoming gradient), src1 = x, same shape, rows contiguous; dst = dx with src0's shape.
// Per row, as ggml's CPU kernel (sums in double there):
//   sum_xx = Σx², sum_xdz = Σx·dz, mean_eps = sum_xx/ne0 + eps, sum_eps = sum_xx + eps·ne0,
//   rrms = 1/sqrt(mean_eps), dx = (x · (−sum_xdz/sum_eps) + dz) · rrms
// ggml has no in-place variant of this op.
import { f } from '../codegen/wgsl';
import type { NormSnippet } from '../families/norm';
import { gather } from '../hostdata';
import { contiguous } from '../tensor';
import { NORM_PARAMS, normMatrix } from './rms-norm';
import { defineRowOp, familyOperands, type RowKernel } from './row-kit';
import { cases, planesSwapped, rowsStrided } from './rows-common';
import { OpCaseError, type OpCase } from './types';

const LAYOUTS = [
  { name: 'contiguous', doc: 'dz, x and dx packed, same shape' },
  { name: 'src1-rows-strided', doc: 'x (src1) is a view whose rows sit in a wider packed tensor (odd row stride)' },
  { name: 'src0-permuted', doc: 'dz (src0) is permute(0,2,1,3) of a packed tensor (rows contiguous, planes swapped)' },
] as const;

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

/** The row template: Σx² and Σx·dz together (a vec2), then ggml's formula per element. */
const native: RowKernel = {
  operands: [
    { name: 'dz', src: 0 },
    { name: 'x', src: 1 },
  ],
  reduce: { acc: 'vec2<f32>', ident: 'vec2<f32>(0.0)', step: 'acc += vec2<f32>(x * x, x * dz);', combine: 'return a + b;' },
  finish: ['let n = f32(ne.x);', 'let rrms = inverseSqrt(total.x / n + eps);', 'let k = -total.y / (total.x + eps * n);'],
  out: '(x * k + dz) * rrms',
};

/** RMS_NORM_BACK for the row family: Σx² and Σx·dz together, then ggml's formula per element. */
function snippet(c: OpCase): NormSnippet {
  const ne0 = c.dst.ne[0];
  const eps = c.params.eps;
  return {
    operands: familyOperands(c, native.operands),
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

export const RMS_NORM_BACK = defineRowOp({
  name: 'RMS_NORM_BACK',
  summary: 'dx = (x · (−Σx·dz/(Σx² + eps·ne0)) + dz) / sqrt(mean(x²) + eps) per row (ggml_rms_norm_back)',
  layouts: LAYOUTS,
  params: NORM_PARAMS,
  matrix: normMatrix([...cases('src1-rows-strided', [4096, 16], [4093, 7]), ...cases('src0-permuted', [128, 8, 4], [1000, 11, 3])]),
  // Every layout ggml allows is taken; only the shared limits (binding size, u32 indices) decline.
  sources(ne, layout) {
    switch (layout) {
      case 'contiguous':
        return { srcs: [contiguous('f32', ne), contiguous('f32', ne)] };
      case 'src1-rows-strided':
        return { srcs: [contiguous('f32', ne), rowsStrided(ne)] };
      case 'src0-permuted':
        return { srcs: [planesSwapped(ne), contiguous('f32', ne)] };
      case 'inplace':
        throw new OpCaseError(`RMS_NORM_BACK has no 'inplace' layout: ggml has no in-place rms_norm_back (layouts: ${LAYOUTS.map((l) => l.name).join(', ')})`);
    }
    return undefined;
  },
  contiguousRows: [
    [0, 'src0 (dz)'],
    [1, 'src1 (x)'],
  ],
  oracle,
  native,
  generated: snippet,
});
