// GET_ROWS — ggml_get_rows(a, b): a is the table [ne00, ne01, ne02, ne03] (f32 here), b the i32
// row indices [ne10, ne11, ne12, 1]; ggml asserts a->ne[2] == b->ne[1], a->ne[3] == b->ne[2],
// b->ne[3] == 1 (no broadcast: plane i11, i12 of b picks rows of plane i11, i12 of a) and
// returns a new packed f32 [ne00, ne10, ne11, ne12]:
//   dst[i0, i10, i11, i12] = a[i0, b[i10, i11, i12], i11, i12].
// The CPU kernel asserts nb00 == sizeof(float) and 0 <= index < ne01 (GGML_ASSERT), and reads b
// through its strides. Out-of-range indices abort in ggml, so inputs() never draws one.
import nativeWgsl from '../../../kernels/GET_ROWS/get_rows.wgsl?raw';
import { u } from '../codegen/wgsl';
import { uniformSchema } from '../codegen/uniforms';
import type { ElementwiseSnippet } from '../families/elementwise';
import { deviceOffsetElements, gather, randomBuffer, randomIntBuffer } from '../hostdata';
import { grid2d, type KernelSpec, nativeTemplated } from '../kernel';
import { contiguous, elementStrides, nelements, nrows, rowsContiguous, transpose, type TensorDesc } from '../tensor';
import { layoutSpecs, pickLayout, PLANES_SWAPPED, ROWS_STRIDED, type SourcesLayout } from './elementwise-case';
import { defineElementwiseOp } from './elementwise-op';
import { inputSeed } from '../inputs';
import { caseLabel, OpCaseError, paramsLabel, parseParams, type OpCase, type ParamSpec } from './types';
import { TYPE_PARAM_VALUES, weightFormat } from '../quant/weights';
import { isQuantGetRows, quantGetRowsBytes, quantGetRowsCase, quantGetRowsInputs, quantGetRowsNative, quantGetRowsOracle, quantGetRowsSnippet } from './get-rows-quant';

/** ggml's op_params are none; type0 is the table's type: f32 or a weight format (get-rows-quant.ts). */
export const PARAMS: readonly ParamSpec[] = [
  { name: 'type0', type: 'enum', default: 0, values: TYPE_PARAM_VALUES.filter((v) => v.value !== 1), doc: "the table's type: f32 or a weight format by name (q4_0, q6_k, nvfp4…) or ggml type id" },
];

/** Each layout's table (from its ne) and i32 indices (from theirs). */
const LAYOUTS: readonly SourcesLayout[] = [
  { name: 'contiguous', doc: 'table and indices packed' },
  { name: 'src0-rows-strided', doc: 'the table is a view whose rows sit in a wider packed tensor', src0: ROWS_STRIDED },
  { name: 'src0-permuted', doc: 'the table is permute(0,2,1,3) of a packed tensor (rows contiguous, ne1 and ne2 swapped)', src0: PLANES_SWAPPED },
  { name: 'src1-transposed', doc: 'the indices are the transpose of a packed [ne11, ne10, ne12] i32 tensor (read through nb10)', src1: ([ne10, ne11, ne12]) => transpose(contiguous('i32', [ne11, ne10, ne12])) },
];

/** dims = [ne00, ne01, ne10, ne02?, ne03?]: row length, table rows, indices per plane, planes. */
function parseGetRowsDims(dims: readonly number[]): { ne0: number[]; ne1: number[] } {
  if (dims.length < 3 || dims.length > 5) {
    throw new OpCaseError(`GET_ROWS takes 3 to 5 dims (ne0 x tableRows x nIdx[x ne2 x ne3]: table [ne0, tableRows, ne2, ne3], indices [nIdx, ne2, ne3]), got ${dims.length}`);
  }
  const [ne00, ne01, ne10, ne02 = 1, ne03 = 1] = dims;
  return { ne0: [ne00, ne01, ne02, ne03], ne1: [ne10, ne02, ne03, 1] };
}

function makeCase(dims: readonly number[], layout: string = 'contiguous', params: Readonly<Record<string, number>> = {}): OpCase {
  const p = parseParams('GET_ROWS', PARAMS, params);
  if (p.type0 > 1) return quantGetRowsCase(dims, layout, p, caseLabel(dims, layout, 'contiguous', paramsLabel(PARAMS, p)));
  const { ne0, ne1 } = parseGetRowsDims(dims);
  const l = pickLayout('GET_ROWS', LAYOUTS, layout);
  if (l.src1 && ne1[1] === 1) throw new OpCaseError(`GET_ROWS src1-transposed needs ne2 > 1 (a transposed [nIdx, 1] index tensor is packed), got dims ${dims.join('x')}`);
  const src0 = l.src0?.(ne0) ?? contiguous('f32', ne0);
  const src1 = l.src1?.(ne1) ?? contiguous('i32', ne1);
  checkGetRows(src0, src1);
  const dst = contiguous('f32', [ne0[0], ...ne1.slice(0, 3)]);
  return Object.freeze({ op: 'GET_ROWS', dims: Object.freeze([...dims]), layout, label: caseLabel(dims, layout, 'contiguous'), srcs: Object.freeze([src0, src1]), dst, inplace: false, params: Object.freeze({}) });
}

/** ggml_get_rows' asserts and its CPU kernel's, naming what is wrong. */
export function checkGetRows(a: TensorDesc, b: TensorDesc): void {
  if (b.type !== 'i32') throw new OpCaseError(`GET_ROWS: the indices must be i32 (ggml asserts b->type == GGML_TYPE_I32), got ${b.type}`);
  if (a.type !== 'f32') throw new OpCaseError(`GET_ROWS: this lab's table is f32, got ${a.type}`);
  if (a.ne[2] !== b.ne[1]) throw new OpCaseError(`GET_ROWS: ggml asserts a->ne[2] == b->ne[1], got ${a.ne[2]} and ${b.ne[1]}`);
  if (a.ne[3] !== b.ne[2]) throw new OpCaseError(`GET_ROWS: ggml asserts a->ne[3] == b->ne[2], got ${a.ne[3]} and ${b.ne[2]}`);
  if (b.ne[3] !== 1) throw new OpCaseError(`GET_ROWS: ggml asserts b->ne[3] == 1, got ${b.ne[3]}`);
  if (!rowsContiguous(a)) throw new OpCaseError(`GET_ROWS: table rows must be contiguous (ggml asserts nb00 == sizeof(float)), got nb0 = ${a.nb[0]} B`);
}

/** The table at random in [-1, 1); every index (gaps of a view included) a valid row. */
function inputs(c: OpCase, seed: number): ArrayBuffer[] {
  if (isQuantGetRows(c)) return quantGetRowsInputs(c, seed);
  const [table, rows] = c.srcs;
  return [randomBuffer(table, inputSeed(seed, 0)), randomIntBuffer(rows, inputSeed(seed, 1), 0, table.ne[1])];
}

/** A gather copies: ref is the table's value itself, exact (k = 1, floor 0). */
function oracle(c: OpCase, srcs: readonly ArrayBuffer[]) {
  if (isQuantGetRows(c)) return quantGetRowsOracle(c, srcs);
  const [a, b] = c.srcs;
  const table = gather(a, srcs[0]);
  const rows = gather(b, srcs[1]);
  const [ne00, ne01, ne02] = a.ne;
  const [ne10, ne11, ne12] = b.ne;
  const ref = new Float64Array(nelements(c.dst));
  let k = 0;
  for (let i12 = 0; i12 < ne12; i12++)
    for (let i11 = 0; i11 < ne11; i11++)
      for (let i10 = 0; i10 < ne10; i10++) {
        const r = rows[i10 + ne10 * (i11 + ne11 * i12)];
        if (!(r >= 0 && r < ne01)) throw new OpCaseError(`GET_ROWS: index ${r} at [${i10},${i11},${i12}] is outside the table's ${ne01} rows (ggml asserts 0 <= i01 < ne01)`);
        const base = ne00 * (r + ne01 * (i11 + ne02 * i12));
        for (let i0 = 0; i0 < ne00; i0++) ref[k++] = table[base + i0];
      }
  return { ref, epsFloor: new Float64Array(ref.length), terms: 1 };
}

const NATIVE_WG = 256;

/** The table, the indices and dst as the shared Tensor descriptors. */
const GET_ROWS_PARAMS = uniformSchema('Params', { src0: 'tensor', src1: 'tensor', dst: 'tensor' });

function native(c: OpCase): KernelSpec {
  if (isQuantGetRows(c)) return quantGetRowsNative(c);
  const [src0, src1] = c.srcs;
  return nativeTemplated('GET_ROWS/get_rows.wgsl', nativeWgsl, ['src0', 'src1', 'dst', 'params'], grid2d(Math.ceil(nelements(c.dst) / NATIVE_WG)), GET_ROWS_PARAMS, { src0, src1, dst: c.dst }, { WG: NATIVE_WG }, { src1: 'i32' });
}

/** `offset + i1·s1 + …` over the dims of size > 1: dst coordinate names per tensor dim. */
function indexOf(t: TensorDesc, coords: readonly (string | null)[]): string {
  const st = elementStrides(t);
  const parts = [u(deviceOffsetElements(t))];
  coords.forEach((i, d) => {
    if (i && t.ne[d] > 1) parts.push(st[d] === 1 ? i : `${i} * ${u(st[d])}`);
  });
  return parts.join(' + ');
}

/**
 * GET_ROWS for the elementwise family: two gathers. dst (i0, i1, i2, i3) reads the index at
 * b[i1, i2, i3], then the table at a[i0, row, i2, i3].
 */
function snippet(c: OpCase): ElementwiseSnippet {
  if (isQuantGetRows(c)) return quantGetRowsSnippet(c);
  const [a, b] = c.srcs;
  const st = elementStrides(a);
  const rowTerm = a.ne[1] > 1 ? [`u32(row) * ${u(st[1])}`] : [];
  return {
    sources: [
      { name: 'row', tensor: b, binding: 'src1', index: indexOf(b, ['i1', 'i2', 'i3', null]) },
      { name: 'x', tensor: a, binding: 'src0', index: [indexOf(a, ['i0', null, 'i2', 'i3']), ...rowTerm].join(' + ') },
    ],
    outputs: [{ tensor: c.dst, binding: 'dst', expr: 'x' }],
  };
}

export const GET_ROWS = defineElementwiseOp({
  name: 'GET_ROWS',
  bench: { dims: [4096, 32000, 512] },
  summary: 'dst rows = table rows picked by i32 indices, per plane (ggml_get_rows; the token embedding lookup)',
  shapeSyntax: 'ne0 x tableRows x nIdx[x ne2 x ne3]: table [ne0, tableRows, ne2, ne3], i32 indices [nIdx, ne2, ne3]',
  layouts: layoutSpecs(LAYOUTS),
  params: PARAMS,
  matrix: [
    // An embedding lookup: 4096-wide rows of a 37-row table (a vocab slice), 9 tokens.
    { dims: [4096, 37, 9], layout: 'contiguous' },
    { dims: [1000, 61, 63], layout: 'contiguous' },
    { dims: [129, 17, 33, 3, 2], layout: 'contiguous' },
    { dims: [4093, 11, 7], layout: 'src0-rows-strided' },
    { dims: [128, 19, 13, 5], layout: 'src0-permuted' },
    { dims: [64, 29, 31, 4], layout: 'src1-transposed' },
    // A quantized embedding table (get-rows-quant.ts).
    { dims: [256, 13, 7], layout: 'contiguous', params: { type0: weightFormat('q4_k').id } },
    { dims: [70, 9, 5], layout: 'contiguous', params: { type0: weightFormat('int6_f16').id } },
  ],
  makeCase,
  inputs,
  oracle,
  snippet,
  bytes: (c) => isQuantGetRows(c) ? quantGetRowsBytes(c) : ({ readBytes: nelements(c.dst) * 4 + nelements(c.srcs[1]) * 4, writeBytes: nelements(c.dst) * 4 }),
  features: (c) => ({ ne0: c.dst.ne[0], rows: nrows(c.dst), n: nelements(c.dst), tableRows: isQuantGetRows(c) ? c.dims[1] : c.srcs[0].ne[1] }),
  native,
});
