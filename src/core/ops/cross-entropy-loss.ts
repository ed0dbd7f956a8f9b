// CROSS_ENTROPY_LOSS — ggml_cross_entropy_loss(a = logits, b = labels): a scalar f32
//   dst = −(1/nr) · Σ_rows Σ_i log_softmax(a_row)_i · b_i,   nr = ggml_nrows(a),
// log_softmax computed as ggml's CPU kernel does: (a_i − max) − log Σ_j exp(a_j − max). ggml
// asserts same shape, f32, nb0 == sizeof(float) on both; it does not normalize the labels (they
// are taken as given: a distribution per row in training). The kernel addresses row r at
// r·nb1 for all nrows rows (ggml's "TODO: handle transposed/permuted matrices"), so a view whose
// planes are not nb1 apart (nb2 ≠ ne1·nb1, nb3 ≠ ne2·nb2) gives another answer there: refused.
import { gather, prng, randomBuffer } from '../hostdata';
import { inputSeed } from '../inputs';
import { contiguous, forEachElement, nelements, nrows, rowsContiguous, stridedRows, type TensorDesc } from '../tensor';
import { defineRowOp, type RowKernel } from './row-kit';
import { cases, rowsStrided } from './rows-common';
import { OpCaseError, type OpCase } from './types';

const LAYOUTS = [
  { name: 'contiguous', doc: 'logits and labels packed' },
  { name: 'src0-rows-strided', doc: 'the logits are rows of a wider packed tensor (rows evenly spaced, as ggml needs)' },
  { name: 'src1-rows-strided', doc: 'the labels are rows of a wider packed tensor' },
] as const;

/** Logits spread over [−4, 4): softmax far from uniform, as trained logits are. */
export const LOGIT_SCALE = 4;

/** ggml reads row r at r·nb1: the rows must be evenly spaced through every plane. */
export function checkRowsEvenlySpaced(op: string, name: string, t: TensorDesc): void {
  if (!rowsContiguous(t)) throw new OpCaseError(`${op}: ${name} rows must be contiguous (ggml asserts nb0 == sizeof(float)), got nb0 = ${t.nb[0]} B`);
  for (let d = 2; d < 4; d++) {
    if (t.ne[d] > 1 && t.nb[d] !== t.ne[d - 1] * t.nb[d - 1]) {
      throw new OpCaseError(`${op}: ${name} must have its rows evenly spaced (ggml's CPU kernel reads row r at r·nb1; it has a TODO for permuted views), got nb${d} = ${t.nb[d]} B ≠ ne${d - 1}·nb${d - 1} = ${t.ne[d - 1] * t.nb[d - 1]} B`);
    }
  }
}

/** Logits in [−LOGIT_SCALE, LOGIT_SCALE); a view's gaps hold values too (reading them shows). */
export function logitsBuffer(t: TensorDesc, seed: number): ArrayBuffer {
  const buf = randomBuffer(t, seed);
  const v = new Float32Array(buf);
  for (let i = 0; i < v.length; i++) v[i] *= LOGIT_SCALE;
  return buf;
}

/**
 * Labels as training has them: each row a probability distribution (non-negative, summing to 1 up to f32 rounding),
 * most mass on one class. Elements outside the tensor (a view's gaps) stay random in [−1, 1).
 */
export function labelsBuffer(t: TensorDesc, seed: number): ArrayBuffer {
  const buf = randomBuffer(t, seed);
  const view = new DataView(buf);
  const next = prng(seed ^ 0x5bd1e995);
  const nc = t.ne[0];
  const row = new Float64Array(nc);
  let rowOffsets: number[] = [];
  forEachElement(t, (_i, off, i0) => {
    if (i0 === 0) rowOffsets = [];
    rowOffsets.push(off);
    if (i0 < nc - 1) return;
    const hot = Math.floor(next() * nc);
    let sum = 0;
    for (let j = 0; j < nc; j++) sum += row[j] = next() + (j === hot ? nc : 0);
    rowOffsets.forEach((o, j) => view.setFloat32(o, row[j] / sum, true));
  });
  return buf;
}

function inputs(c: OpCase, seed: number): ArrayBuffer[] {
  return [logitsBuffer(c.srcs[0], inputSeed(seed, 0)), labelsBuffer(c.srcs[1], inputSeed(seed, 1))];
}

/** Per row of x: max and log Σ exp(x − max), the way ggml's CPU kernel forms log_softmax. */
export function rowLogSumExp(x: Float64Array, base: number, nc: number): { max: number; lse: number } {
  let max = -Infinity;
  for (let i = 0; i < nc; i++) max = Math.max(max, x[base + i]);
  let sum = 0;
  for (let i = 0; i < nc; i++) sum += Math.exp(x[base + i] - max);
  return { max, lse: Math.log(sum) };
}

/**
 * f64, ggml's formula. k = every term of the double sum (nc·nr). The floor is
 * (1/nr)·Σ(|x_i| + |max + lse|)·|y_i|: the size of the products whatever order the sum takes
 * (ggml's (x − max − lse)·y, or a kernel's Σx·y − (max + lse)·Σy).
 */
function oracle(c: OpCase, srcs: readonly ArrayBuffer[]) {
  const x = gather(c.srcs[0], srcs[0]);
  const y = gather(c.srcs[1], srcs[1]);
  const nc = c.srcs[0].ne[0];
  const nr = nrows(c.srcs[0]);
  let total = 0;
  let magnitude = 0;
  for (let base = 0; base < x.length; base += nc) {
    const { max, lse } = rowLogSumExp(x, base, nc);
    for (let i = 0; i < nc; i++) {
      total += (x[base + i] - max - lse) * y[base + i];
      magnitude += (Math.abs(x[base + i]) + Math.abs(max + lse)) * Math.abs(y[base + i]);
    }
  }
  return { ref: Float64Array.of(-total / nr), epsFloor: Float64Array.of(magnitude / nr), terms: nc * nr };
}

/**
 * A softmax's running (max, Σexp(x − max)) as a row-template accumulator: each thread rescales its
 * sum when its max grows; pairs merge at the larger max. LOWEST, the lowest finite f32, is a
 * "−∞" that keeps exp(LOWEST − m) at 0 instead of NaN.
 */
export const ONLINE_SOFTMAX_WGSL = `
const LOWEST = bitcast<f32>(0xff7fffffu);

fn online_add(acc: vec2<f32>, x: f32) -> vec2<f32> {
  var ms = acc;
  if (x > ms.x) {
    ms = vec2<f32>(x, ms.y * exp(ms.x - x));
  }
  return vec2<f32>(ms.x, ms.y + exp(x - ms.x));
}

fn online_merge(a: vec2<f32>, b: vec2<f32>) -> vec2<f32> {
  let m = max(a.x, b.x);
  return vec2<f32>(m, a.y * exp(a.x - m) + b.y * exp(b.x - m));
}`;

/** The row's softmax statistics alone: total.x is the max, total.y Σexp(x − max). */
export const ONLINE_SOFTMAX = { acc: 'vec2<f32>', ident: 'vec2<f32>(LOWEST, 0.0)', step: 'acc = online_add(acc, x);', combine: 'return online_merge(a, b);' } as const;

/**
 * The row template, one workgroup walking every row (one scalar over all rows): per row each
 * thread keeps the running max and exp-sum, Σx·y and Σy (a vec4); the row's loss is
 * Σx·y − (max + log Σexp)·Σy, summed into `run`; thread 0 writes −run/nr.
 */
const native: RowKernel = {
  operands: [
    { name: 'x', src: 0 },
    { name: 'y', src: 1 },
  ],
  functions: ONLINE_SOFTMAX_WGSL,
  reduce: { acc: 'vec4<f32>', ident: 'vec4<f32>(LOWEST, 0.0, 0.0, 0.0)', step: 'acc = vec4<f32>(online_add(acc.xy, x), acc.zw + vec2<f32>(x * y, y));', combine: 'return vec4<f32>(online_merge(a.xy, b.xy), a.zw + b.zw);' },
  finish: ['run += total.z - (total.x + log(total.y)) * total.w;'],
  allRows: { ident: '0.0' },
  write: ['run * (-1.0 / f32(nrows))'],
};

/** Why no family takes it (the registry's evidence says the same). */
export const CROSS_ENTROPY_LOSS_NATIVE_ONLY =
  "one scalar over every row: the row family reduces within a workgroup (one per row), and one dispatch cannot combine workgroups' partials (WGSL has no float atomics; a dispatch cannot zero its own output or a scratch buffer first)";

export const CROSS_ENTROPY_LOSS = defineRowOp({
  name: 'CROSS_ENTROPY_LOSS',
  bench: { dims: [32000, 512] },
  summary: 'dst = −(1/nr)·Σ log_softmax(logits)·labels over all rows: a scalar (ggml_cross_entropy_loss)',
  shapeSyntax: 'ne0xne1[xne2xne3] of the logits (and labels): ne0 is the vocabulary',
  layouts: LAYOUTS,
  matrix: [
    // The LM head's loss: a 32000 vocab over 2 tokens; odd vocabularies; a batch of planes.
    ...cases('contiguous', [32000, 2], [4093, 7], [1000, 11, 3], [100, 1]),
    ...cases('src0-rows-strided', [4093, 5]),
    ...cases('src1-rows-strided', [1001, 9, 2]),
  ],
  sources(ne, layout) {
    const srcs = [contiguous('f32', ne), contiguous('f32', ne)];
    if (layout === 'src0-rows-strided') srcs[0] = rowsStrided(ne);
    else if (layout === 'src1-rows-strided') srcs[1] = stridedRows('f32', ne, ne[0] + 5, 2);
    else if (layout !== 'contiguous') return undefined;
    return { srcs, dst: contiguous('f32', [1]) };
  },
  contiguousRows: [],
  check(c) {
    checkRowsEvenlySpaced('CROSS_ENTROPY_LOSS', 'src0 (logits)', c.srcs[0]);
    checkRowsEvenlySpaced('CROSS_ENTROPY_LOSS', 'src1 (labels)', c.srcs[1]);
  },
  inputs,
  oracle,
  bytes: (c) => ({ readBytes: (nelements(c.srcs[0]) + nelements(c.srcs[1])) * 4, writeBytes: 4 }),
  features: (c) => ({ ne0: c.srcs[0].ne[0], rows: nrows(c.srcs[0]), n: nelements(c.srcs[0]) }),
  native,
  generated: { none: CROSS_ENTROPY_LOSS_NATIVE_ONLY },
});
