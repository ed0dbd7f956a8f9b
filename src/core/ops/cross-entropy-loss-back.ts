// CROSS_ENTROPY_LOSS_BACK — ggml_cross_entropy_loss_back(a = grad, b = logits, c = labels): the
// gradient of CROSS_ENTROPY_LOSS with respect to its logits,
//   dst_i = (softmax(b_row)_i − c_i) · a / nr,   nr = ggml_nrows(b),
// a packed tensor of b's shape. Source order is ggml.c's at d99724f2 (src0 = the scalar
// gradient, src1 = logits, src2 = labels, as ggml_compute_backward calls it and the CPU kernel
// reads it); include/ggml.h's comment there still lists (logits, labels, gradient) — stale.
// ggml asserts is_scalar(a), same shape of b and c, and every tensor contiguous.
import nativeWgsl from '../../../kernels/CROSS_ENTROPY_LOSS_BACK/cross_entropy_loss_back.wgsl?raw';
import { uniformSchema } from '../codegen/uniforms';
import { f } from '../codegen/wgsl';
import { NORM, type NormSnippet } from '../families/norm';
import { generatedPath } from '../families/types';
import { deviceOffsetElements, gather, randomBuffer } from '../hostdata';
import { inputSeed } from '../inputs';
import { grid2d, type KernelSpec, nativeTemplated } from '../kernel';
import { contiguous, nelements, nrows } from '../tensor';
import { commonRejection } from './contract';
import { copyDims } from './cpy';
import { labelsBuffer, logitsBuffer, rowLogSumExp } from './cross-entropy-loss';
import { caseLabel, OpCaseError, parseParams, type OpCase, type OpDef, type ParamSpec } from './types';

/** CROSS_ENTROPY_LOSS_BACK has no op_params. */
export const PARAMS: readonly ParamSpec[] = [];

const LAYOUTS = [{ name: 'contiguous', doc: 'gradient, logits, labels and dst packed (ggml asserts every one contiguous)' }] as const;

function makeCase(dims: readonly number[], layout: string = 'contiguous', params: Readonly<Record<string, number>> = {}): OpCase {
  const ne = copyDims('CROSS_ENTROPY_LOSS_BACK', dims);
  parseParams('CROSS_ENTROPY_LOSS_BACK', PARAMS, params);
  if (layout !== 'contiguous') throw new OpCaseError(`CROSS_ENTROPY_LOSS_BACK has no layout '${layout}': ggml asserts the gradient, logits, labels and dst contiguous (layouts: contiguous)`);
  const grad = contiguous('f32', [1]);
  const logits = contiguous('f32', ne);
  const labels = contiguous('f32', ne);
  const dst = contiguous('f32', ne);
  return Object.freeze({ op: 'CROSS_ENTROPY_LOSS_BACK', dims: Object.freeze([...dims]), layout, label: caseLabel(dims, layout, 'contiguous'), srcs: Object.freeze([grad, logits, labels]), dst, inplace: false, params: Object.freeze({}) });
}

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

const NATIVE_WG = 256;

/** Row length, rows; offsets in elements. */
const CE_BACK_PARAMS = uniformSchema('Params', { nc: 'u32', nr: 'u32', offg: 'u32', off1: 'u32', off2: 'u32', offd: 'u32' });

function native(c: OpCase): KernelSpec {
  const [grad, logits, labels] = c.srcs;
  const values = { nc: c.dst.ne[0], nr: nrows(c.dst), offg: deviceOffsetElements(grad), off1: deviceOffsetElements(logits), off2: deviceOffsetElements(labels), offd: deviceOffsetElements(c.dst) };
  return nativeTemplated('CROSS_ENTROPY_LOSS_BACK/cross_entropy_loss_back.wgsl', nativeWgsl, ['src0', 'src1', 'src2', 'dst', 'params'], grid2d(nrows(c.dst)), CE_BACK_PARAMS, values, { WG: NATIVE_WG });
}

/**
 * For the row family: the row's max, then Σexp(x − max); each element
 * (exp(x − max)/Σ − y)·grad/nr, grad read once per row from its 1-element tensor.
 */
function snippet(c: OpCase): NormSnippet {
  const [grad, logits, labels] = c.srcs;
  return {
    operands: [
      { name: 'x', binding: 'src1', tensor: logits },
      { name: 'y', binding: 'src2', tensor: labels },
    ],
    scalars: [{ name: 'grad', binding: 'src0', tensor: grad }],
    reductions: [
      { name: 'mx', map: 'x', combine: 'max' },
      { name: 'se', map: 'exp(x - mx)', combine: 'sum' },
    ],
    finish: ['let inv_se = 1.0 / se;', `let d_by_nr = grad / ${f(nrows(c.dst))};`],
    output: { kind: 'row', tensor: c.dst, expr: '(exp(x - mx) * inv_se - y) * d_by_nr' },
  };
}

const generated = generatedPath(NORM, snippet);

export const CROSS_ENTROPY_LOSS_BACK: OpDef = {
  name: 'CROSS_ENTROPY_LOSS_BACK',
  bench: { dims: [32000, 512] },
  summary: 'dst = (softmax(logits) − labels)·grad/nr per row (ggml_cross_entropy_loss_back(grad, logits, labels))',
  shapeSyntax: 'ne0xne1[xne2xne3] of the logits (and labels, dst): ne0 is the vocabulary',
  layouts: LAYOUTS,
  params: PARAMS,
  matrix: [
    // The LM head's gradient at a 32000 vocab; odd sizes; planes. Few rows: a row is a workgroup,
    // and SwiftShader (CI's adapter) pays per workgroup.
    { dims: [32000, 2], layout: 'contiguous' },
    { dims: [4093, 7], layout: 'contiguous' },
    { dims: [1000, 5, 3], layout: 'contiguous' },
    { dims: [100, 1], layout: 'contiguous' },
    { dims: [7, 3, 2, 2], layout: 'contiguous' },
  ],
  makeCase,
  inputs,
  oracle,
  flops: () => null,
  bytes: (c) => ({ readBytes: 4 + (nelements(c.srcs[1]) + nelements(c.srcs[2])) * 4, writeBytes: nelements(c.dst) * 4 }),
  features: (c) => ({ ne0: c.dst.ne[0], rows: nrows(c.dst), n: nelements(c.dst) }),
  native,
  family: generated.family,
  require: (c, adapter) => commonRejection(c, adapter),
  fits: generated.fits,
  generate: generated.generate,
};
