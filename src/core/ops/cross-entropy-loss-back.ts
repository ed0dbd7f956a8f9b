// CROSS_ENTROPY_LOSS_BACK — ggml_cross_entropy_loss_back(a = grad, b = logits, c = labels): the
// gradient of CROSS_ENTROPY_LOSS with respect to its logits,
//   dst_i = (softmax(b_row)_i − c_i) · a / nr,   nr = ggml_nrows(b),
// a packed tensor of b's shape. Source order is ggml.c's at d99724f2 (src0 = the scalar
// gradient, src1 = logits, src2 = labels, as ggml_compute_backward calls it and the CPU kernel
// reads it); include/ggml.h's comment there still lists (logits, labels, gradient) — stale.
// ggml asserts is_scalar(a), same shape of b and c, and every tensor contiguous.
import { f } from '../codegen/wgsl';
import type { NormSnippet } from '../families/norm';
import { gather, randomBuffer } from '../hostdata';
import { inputSeed } from '../inputs';
import { contiguous, nelements, nrows } from '../tensor';
import { labelsBuffer, logitsBuffer, ONLINE_SOFTMAX, ONLINE_SOFTMAX_WGSL, rowLogSumExp } from './cross-entropy-loss';
import { cases } from './rows-common';
import { defineRowOp, familyOperands, type RowKernel } from './row-kit';
import { OpCaseError, type OpCase } from './types';

const LAYOUTS = [{ name: 'contiguous', doc: 'gradient, logits, labels and dst packed (ggml asserts every one contiguous)' }] as const;

function inputs(c: OpCase, seed: number): ArrayBuffer[] {
  const [grad, logits, labels] = c.srcs;
  return [randomBuffer(grad, inputSeed(seed, 0)), logitsBuffer(logits, inputSeed(seed, 1)), labelsBuffer(labels, inputSeed(seed, 2))];
}

/**
 * f64, ggml's formula. k = nc (the exp-sum every element is divided by). The floor is
 * (softmax_i + |y_i|)·|a/nr|: where softmax and the label cancel, the bound stays that of the terms.
 */
function oracle(c: OpCase, srcs: readonly ArrayBuffer[]) {
  const g = gather(c.srcs[0], srcs[0])[0];
  const x = gather(c.srcs[1], srcs[1]);
  const y = gather(c.srcs[2], srcs[2]);
  const nc = c.dst.ne[0];
  const nr = nrows(c.dst);
  const dByNr = g / nr;
  const ref = new Float64Array(x.length);
  const epsFloor = new Float64Array(x.length);
  for (let base = 0; base < x.length; base += nc) {
    const { max, lse } = rowLogSumExp(x, base, nc);
    for (let i = 0; i < nc; i++) {
      const sm = Math.exp(x[base + i] - max - lse);
      ref[base + i] = (sm - y[base + i]) * dByNr;
      epsFloor[base + i] = (sm + Math.abs(y[base + i])) * Math.abs(dByNr);
    }
  }
  return { ref, epsFloor, terms: nc };
}

/**
 * The row template over the logits' rows: a running max and exp-sum per thread (ONLINE_SOFTMAX),
 * then each element (exp(x − max)/Σ − y)·grad/nr, grad read once per row from its 1-element src0.
 */
const native: RowKernel = {
  rows: 1,
  operands: [
    { name: 'x', src: 1 },
    { name: 'y', src: 2 },
  ],
  functions: ONLINE_SOFTMAX_WGSL,
  reduce: ONLINE_SOFTMAX,
  finish: ['let row_max = total.x;', 'let inv_sum = 1.0 / total.y;', 'let d_by_nr = load_src0(p.src0.off) / f32(nrows);'],
  out: '(exp(x - row_max) * inv_sum - y) * d_by_nr',
};

/**
 * For the row family: the row's max, then Σexp(x − max); each element
 * (exp(x − max)/Σ − y)·grad/nr, grad read once per row from its 1-element tensor.
 */
function snippet(c: OpCase): NormSnippet {
  return {
    operands: familyOperands(c, native.operands),
    scalars: [{ name: 'grad', binding: 'src0', tensor: c.srcs[0] }],
    reductions: [
      { name: 'mx', map: 'x', combine: 'max' },
      { name: 'se', map: 'exp(x - mx)', combine: 'sum' },
    ],
    finish: ['let inv_se = 1.0 / se;', `let d_by_nr = grad / ${f(nrows(c.dst))};`],
    output: { kind: 'row', tensor: c.dst, expr: '(exp(x - mx) * inv_se - y) * d_by_nr' },
  };
}

export const CROSS_ENTROPY_LOSS_BACK = defineRowOp({
  name: 'CROSS_ENTROPY_LOSS_BACK',
  bench: { dims: [32000, 512] },
  summary: 'dst = (softmax(logits) − labels)·grad/nr per row (ggml_cross_entropy_loss_back(grad, logits, labels))',
  shapeSyntax: 'ne0xne1[xne2xne3] of the logits (and labels, dst): ne0 is the vocabulary',
  layouts: LAYOUTS,
  matrix: [
    // The LM head's gradient at a 32000 vocab; odd sizes; planes. Few rows: a row is a workgroup,
    // and SwiftShader (CI's adapter) pays per workgroup.
    ...cases('contiguous', [32000, 2], [4093, 7], [1000, 5, 3], [100, 1], [7, 3, 2, 2]),
  ],
  sources(ne, layout) {
    if (layout !== 'contiguous') throw new OpCaseError(`CROSS_ENTROPY_LOSS_BACK has no layout '${layout}': ggml asserts the gradient, logits, labels and dst contiguous (layouts: contiguous)`);
    return { srcs: [contiguous('f32', [1]), contiguous('f32', ne), contiguous('f32', ne)] };
  },
  contiguousRows: [],
  oracle,
  inputs,
  bytes: (c) => ({ readBytes: 4 + (nelements(c.srcs[1]) + nelements(c.srcs[2])) * 4, writeBytes: nelements(c.dst) * 4 }),
  features: (c) => ({ ne0: c.dst.ne[0], rows: nrows(c.dst), n: nelements(c.dst) }),
  native,
  generated: snippet,
});
