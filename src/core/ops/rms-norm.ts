// RMS_NORM — ggml_rms_norm(a, eps): per row (over ne0), y = x · scale with
// scale = 1/sqrt(Σx²/ne0 + eps); dst has a's shape; ggml_rms_norm_inplace makes dst a view of a.
// Like ggml's CPU kernel (which asserts nb00 == sizeof(float)), src0 rows must be contiguous.
import { f } from '../codegen/wgsl';
import type { NormSnippet } from '../families/norm';
import { gather } from '../hostdata';
import { contiguous } from '../tensor';
import { defineRowOp, familyOperands, type RowKernel } from './row-kit';
import { cases, planesSwapped, rowsStrided, SRC0_PERMUTED, SRC0_ROWS_STRIDED } from './rows-common';
import type { MatrixEntry, OpCase, ParamSpec } from './types';

const LAYOUTS = [
  { name: 'contiguous', doc: 'src0 and dst packed, same shape' },
  { name: 'inplace', doc: 'ggml_rms_norm_inplace: dst is src0 itself' },
  SRC0_ROWS_STRIDED,
  SRC0_PERMUTED,
] as const;

/**
 * The lab's default eps. ggml_rms_norm has no default of its own; llama.cpp passes the model's
 * f_norm_rms_eps, 1e-5 for LLaMA 2 and 3, 1e-6 for LLaMA 1 and many others: the lab keeps 1e-6
 * (what every stored result so far used) and its matrices also run 1e-5.
 */
export const DEFAULT_EPS = 1e-6;

/** The norms' one param. ggml stores eps as a float in op_params. */
export const EPS_PARAM: ParamSpec = Object.freeze({ name: 'eps', type: 'f32', default: DEFAULT_EPS, min: 0, doc: 'added to mean(x²) before the square root (ggml op_params[0], a float)' });
export const NORM_PARAMS: readonly ParamSpec[] = Object.freeze([EPS_PARAM]);

/**
 * The norms' matrix: odd and even contiguous rows, then the op's views, then eps 1e-5. Few rows:
 * SwiftShader (CI's adapter, a CPU) pays per workgroup, and a workgroup is a row.
 */
export function normMatrix(views: readonly MatrixEntry[]): MatrixEntry[] {
  return [...cases('contiguous', [4096, 32], [4093, 37], [1000, 11, 3], [64, 64]), ...views, { dims: [4096, 8], layout: 'contiguous', params: { eps: 1e-5 } }];
}

/**
 * f64 reference. epsFloor is 0: every term x² is ≥ 0, so the sum has no cancellation and its
 * rounding error is relative to the sum itself; scale and y = x·scale then carry relative
 * error too, so |out − ref| scales with |ref| (an x of 0 gives exactly 0 on both sides).
 */
function oracle(c: OpCase, srcs: readonly ArrayBuffer[]) {
  const x = gather(c.srcs[0], srcs[0]);
  const ne0 = c.dst.ne[0];
  const eps = Math.fround(c.params.eps); // the f32 ggml keeps in op_params
  const ref = new Float64Array(x.length);
  for (let base = 0; base < x.length; base += ne0) {
    let sum = 0;
    for (let i = 0; i < ne0; i++) sum += x[base + i] * x[base + i];
    const scale = 1 / Math.sqrt(sum / ne0 + eps);
    for (let i = 0; i < ne0; i++) ref[base + i] = x[base + i] * scale;
  }
  return { ref, epsFloor: new Float64Array(x.length), terms: ne0 };
}

/** The row template: Σx², then x · (mean + eps)^-½ per element. */
const native: RowKernel = { operands: [{ name: 'x', src: 0 }], reduce: { sum: 'x * x' }, finish: ['let t = inverseSqrt(total / f32(ne.x) + eps);'], out: 'x * t' };

/** RMS_NORM for the row family: Σx², then x · scale; in place, x is read from dst's own binding. */
function snippet(c: OpCase): NormSnippet {
  return {
    operands: familyOperands(c, native.operands),
    reductions: [{ name: 'sum', map: 'x * x', combine: 'sum' }],
    finish: [`let scale = inverseSqrt(sum / ${f(c.dst.ne[0])} + ${f(c.params.eps)});`],
    output: { kind: 'row', tensor: c.dst, expr: 'x * scale' },
  };
}

export const RMS_NORM = defineRowOp({
  name: 'RMS_NORM',
  summary: 'dst = x / sqrt(mean(x²) + eps) per row (ggml_rms_norm, ggml_rms_norm_inplace)',
  layouts: LAYOUTS,
  params: NORM_PARAMS,
  matrix: normMatrix([...cases('inplace', [4096, 16], [4093, 7]), ...cases('src0-rows-strided', [4096, 16]), ...cases('src0-permuted', [128, 8, 4], [1000, 11, 3])]),
  // Every layout ggml allows is taken; only the shared limits (binding size, u32 indices) decline.
  sources(ne, layout) {
    switch (layout) {
      case 'contiguous':
        return { srcs: [contiguous('f32', ne)] };
      case 'inplace':
        return { srcs: [contiguous('f32', ne)], inplace: true };
      case 'src0-rows-strided':
        return { srcs: [rowsStrided(ne)] };
      case 'src0-permuted':
        return { srcs: [planesSwapped(ne)] };
    }
    return undefined;
  },
  oracle,
  native,
  generated: snippet,
});
