// CROSS_ENTROPY_LOSS — ggml_cross_entropy_loss(a = logits, b = labels): a scalar f32
//   dst = −(1/nr) · Σ_rows Σ_i log_softmax(a_row)_i · b_i,   nr = ggml_nrows(a),
// log_softmax computed as ggml's CPU kernel does: (a_i − max) − log Σ_j exp(a_j − max). ggml
// asserts same shape, f32, nb0 == sizeof(float) on both; it does not normalize the labels (they
// are taken as given: a distribution per row in training). The kernel addresses row r at
// r·nb1 for all nrows rows (ggml's "TODO: handle transposed/permuted matrices"), so a view whose
// planes are not nb1 apart (nb2 ≠ ne1·nb1, nb3 ≠ ne2·nb2) gives another answer there: refused.
import nativeWgsl from '../../../kernels/CROSS_ENTROPY_LOSS/cross_entropy_loss.wgsl?raw';
import { uniformSchema } from '../codegen/uniforms';
import { deviceOffsetElements, gather, prng, randomBuffer } from '../hostdata';
import { inputSeed } from '../inputs';
import { type KernelSpec, nativeTemplated } from '../kernel';
import { contiguous, elementStrides, forEachElement, nelements, nrows, rowsContiguous, sameShape, stridedRows, type TensorDesc } from '../tensor';
import { commonRejection } from './contract';
import { copyDims } from './cpy';
import { noGeneratedPath } from './native-only';
import { caseLabel, OpCaseError, parseParams, type OpCase, type OpDef, type ParamSpec } from './types';

/** CROSS_ENTROPY_LOSS has no op_params. */
export const PARAMS: readonly ParamSpec[] = [];

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

function makeCase(dims: readonly number[], layout: string = 'contiguous', params: Readonly<Record<string, number>> = {}): OpCase {
  const ne = copyDims('CROSS_ENTROPY_LOSS', dims);
  parseParams('CROSS_ENTROPY_LOSS', PARAMS, params);
  let logits = contiguous('f32', ne);
  let labels = contiguous('f32', ne);
  switch (layout) {
    case 'contiguous':
      break;
    case 'src0-rows-strided':
      logits = stridedRows('f32', ne, ne[0] + 3, 1);
      break;
    case 'src1-rows-strided':
      labels = stridedRows('f32', ne, ne[0] + 5, 2);
      break;
    default:
      throw new OpCaseError(`CROSS_ENTROPY_LOSS has no layout '${layout}' (layouts: ${LAYOUTS.map((l) => l.name).join(', ')})`);
  }
  if (!sameShape(logits, labels)) throw new OpCaseError(`CROSS_ENTROPY_LOSS: ggml asserts logits and labels have the same shape, got ${logits.ne.join('x')} and ${labels.ne.join('x')}`);
  checkRowsEvenlySpaced('CROSS_ENTROPY_LOSS', 'src0 (logits)', logits);
  checkRowsEvenlySpaced('CROSS_ENTROPY_LOSS', 'src1 (labels)', labels);
  const dst = contiguous('f32', [1]);
  return Object.freeze({ op: 'CROSS_ENTROPY_LOSS', dims: Object.freeze([...dims]), layout, label: caseLabel(dims, layout, 'contiguous'), srcs: Object.freeze([logits, labels]), dst, inplace: false, params: Object.freeze({}) });
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

const NATIVE_WG = 256;

/** Row length, rows, row strides; offsets, in elements. */
const CE_PARAMS = uniformSchema('Params', { nc: 'u32', nr: 'u32', s01: 'u32', s11: 'u32', off0: 'u32', off1: 'u32', offd: 'u32' });

function native(c: OpCase): KernelSpec {
  const [x, y] = c.srcs;
  const values = { nc: x.ne[0], nr: nrows(x), s01: elementStrides(x)[1], s11: elementStrides(y)[1], off0: deviceOffsetElements(x), off1: deviceOffsetElements(y), offd: deviceOffsetElements(c.dst) };
  return nativeTemplated('CROSS_ENTROPY_LOSS/cross_entropy_loss.wgsl', nativeWgsl, ['src0', 'src1', 'dst', 'params'], [1, 1, 1], CE_PARAMS, values, { WG: NATIVE_WG });
}

/** Why no family takes it (the registry's evidence says the same). */
export const CROSS_ENTROPY_LOSS_NATIVE_ONLY =
  "one scalar over every row: the row family reduces within a workgroup (one per row), and one dispatch cannot combine workgroups' partials (WGSL has no float atomics; a dispatch cannot zero its own output or a scratch buffer first)";

const generated = noGeneratedPath('CROSS_ENTROPY_LOSS', 'norm', CROSS_ENTROPY_LOSS_NATIVE_ONLY);

export const CROSS_ENTROPY_LOSS: OpDef = {
  name: 'CROSS_ENTROPY_LOSS',
  bench: { dims: [32000, 512] },
  summary: 'dst = −(1/nr)·Σ log_softmax(logits)·labels over all rows: a scalar (ggml_cross_entropy_loss)',
  shapeSyntax: 'ne0xne1[xne2xne3] of the logits (and labels): ne0 is the vocabulary',
  layouts: LAYOUTS,
  params: PARAMS,
  matrix: [
    // The LM head's loss: a 32000 vocab over 2 tokens; odd vocabularies; a batch of planes.
    { dims: [32000, 2], layout: 'contiguous' },
    { dims: [4093, 7], layout: 'contiguous' },
    { dims: [1000, 11, 3], layout: 'contiguous' },
    { dims: [100, 1], layout: 'contiguous' },
    { dims: [4093, 5], layout: 'src0-rows-strided' },
    { dims: [1001, 9, 2], layout: 'src1-rows-strided' },
  ],
  makeCase,
  inputs,
  oracle,
  flops: () => null,
  bytes: (c) => ({ readBytes: (nelements(c.srcs[0]) + nelements(c.srcs[1])) * 4, writeBytes: 4 }),
  features: (c) => ({ ne0: c.srcs[0].ne[0], rows: nrows(c.srcs[0]), n: nelements(c.srcs[0]) }),
  native,
  noGeneratedPath: generated.noGeneratedPath,
  family: generated.family,
  require: (c, adapter) => commonRejection(c, adapter),
  fits: generated.fits,
  generate: generated.generate,
};
