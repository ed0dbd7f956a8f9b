// SILU_BACK — ggml_silu_back(a = dy, b = x): the gradient of SILU, as ggml_compute_backward calls
// it (ggml_silu_back(ctx, grad, src0)): src0 = dy, src1 = x, same shape; dst = dx, a new packed
// tensor of src0's shape (ggml has no in-place form). Per element, ggml_silu_backward_f32:
//   s = 1 / (1 + exp(−x)), dx = dy · s · (1 + x · (1 − s)).
// ggml's CPU loop walks rows i1·nb1 over all rows, so each source must be ggml_is_contiguous_1
// (rows contiguous, higher dims packed over them): a row stride wider than the row is allowed.
import type { ElementwiseSnippet } from '../families/elementwise';
import { gather } from '../hostdata';
import { contiguous, stridedRows } from '../tensor';
import { defineElementwiseOp } from './elementwise-op';
import { dimsNe, expWidening, isContiguous1, noLayout, spreadInputs } from './elementwise-case';
import { templateNative } from './kit';
import { caseLabel, OpCaseError, paramsLabel, parseParams, type OpCase, type ParamSpec } from './types';

export const PARAMS: readonly ParamSpec[] = Object.freeze([]);

const LAYOUTS = [
  { name: 'contiguous', doc: 'dy, x and dx packed, same shape' },
  { name: 'src0-rows-strided', doc: 'dy (src0) is a view whose rows sit in a wider packed tensor (odd row stride, one element in)' },
  { name: 'src1-rows-strided', doc: 'x (src1) is a view whose rows sit in a wider packed tensor (odd row stride, one element in)' },
] as const;

function makeCase(dims: readonly number[], layout: string = 'contiguous', params: Readonly<Record<string, number>> = {}): OpCase {
  const ne = dimsNe('SILU_BACK', dims, 'ne0xne1[xne2xne3] of dst');
  const checked = parseParams('SILU_BACK', PARAMS, params);
  if (layout === 'inplace') throw new OpCaseError(`SILU_BACK has no 'inplace' layout: ggml has no in-place silu_back (layouts: ${LAYOUTS.map((l) => l.name).join(', ')})`);
  if (!LAYOUTS.some((l) => l.name === layout)) throw noLayout('SILU_BACK', layout, LAYOUTS);
  const dy = layout === 'src0-rows-strided' ? stridedRows('f32', ne, ne[0] + 3, 1) : contiguous('f32', ne);
  const x = layout === 'src1-rows-strided' ? stridedRows('f32', ne, ne[0] + 3, 1) : contiguous('f32', ne);
  for (const [name, t] of [['src0 (dy)', dy], ['src1 (x)', x]] as const) {
    if (!isContiguous1(t)) throw new OpCaseError(`SILU_BACK: ${name} must be ggml_is_contiguous_1 (rows contiguous, higher dims packed), got nb ${t.nb.join(',')}`);
  }
  return Object.freeze({ op: 'SILU_BACK', dims: Object.freeze([...dims]), layout, label: caseLabel(dims, layout, 'contiguous', paramsLabel(PARAMS, checked)), srcs: Object.freeze([dy, x]), dst: contiguous('f32', ne), inplace: false, params: checked });
}

/**
 * f64 reference. epsFloor is the size of the terms that meet in 1 + x·(1 − s) (it cancels near
 * x ≈ −1.28), times |dy·s|, widened with |x| for exp's error.
 */
function oracle(c: OpCase, srcs: readonly ArrayBuffer[]) {
  const dy = gather(c.srcs[0], srcs[0]);
  const x = gather(c.srcs[1], srcs[1]);
  const ref = new Float64Array(x.length);
  const epsFloor = new Float64Array(x.length);
  for (let i = 0; i < x.length; i++) {
    const s = 1 / (1 + Math.exp(-x[i]));
    ref[i] = dy[i] * s * (1 + x[i] * (1 - s));
    epsFloor[i] = Math.abs(dy[i] * s) * (1 + Math.abs(x[i] * (1 - s))) * expWidening(x[i]);
  }
  return { ref, epsFloor, terms: 1 };
}

/** ggml_silu_backward_f32 per element; the sigmoid is written twice (one common subexpression). */
const EXPR = 'dy * (1.0 / (1.0 + exp(-x))) * (1.0 + x * (1.0 - 1.0 / (1.0 + exp(-x))))';

function snippet(c: OpCase): ElementwiseSnippet {
  return {
    sources: [
      { name: 'dy', tensor: c.srcs[0], binding: 'src0' },
      { name: 'x', tensor: c.srcs[1], binding: 'src1' },
    ],
    outputs: [{ tensor: c.dst, binding: 'dst', expr: EXPR }],
  };
}

export const SILU_BACK = defineElementwiseOp({
  name: 'SILU_BACK',
  bench: { dims: [4096, 4096] },
  summary: 'dx = dy · s · (1 + x · (1 − s)), s = sigmoid(x) (ggml_silu_back(dy, x))',
  shapeSyntax: 'ne0xne1[xne2xne3] of dst',
  layouts: LAYOUTS,
  params: PARAMS,
  matrix: [
    { dims: [4096, 16], layout: 'contiguous' },
    { dims: [4093, 7], layout: 'contiguous' },
    { dims: [1000, 11, 3], layout: 'contiguous' },
    { dims: [4096, 8], layout: 'src0-rows-strided' },
    { dims: [129, 8, 5], layout: 'src1-rows-strided' },
  ],
  makeCase,
  oracle,
  // dy in [-1, 1), x in [-8, 8): the sigmoid's tails are checked too.
  inputs: (c, seed) => spreadInputs(c, seed, [1, 8]),
  snippet,
  // The binary template (no broadcast: src1 has dst's shape).
  native: (c) => templateNative(c, 'binary/binary.wgsl', { src0: c.srcs[0], src1: c.srcs[1], dst: c.dst }, EXPR, { operands: ['dy', 'x'] }),
});
