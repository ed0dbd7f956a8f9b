// ADD — ggml_add(a, b): dst = a + b with b repeated over a (ggml_can_repeat(b, a)); dst has
// a's shape; ggml_add_inplace makes dst a view of a. Like ggml's CPU kernel, dst and src0 rows
// must be contiguous; src1 may have any strides.
import nativeWgsl from '../../../kernels/ADD/add.wgsl?raw';
import { ELEMENTWISE, type ElementwiseSnippet } from '../families/elementwise';
import { generatedPath } from '../families/types';
import { deviceOffsetElements, gather } from '../hostdata';
import { uniformSchema } from '../codegen/uniforms';
import { grid2d, type KernelSpec, nativeTemplated } from '../kernel';
import { canRepeat, contiguous, elementStrides, nelements, permute, rowsContiguous, stridedRows } from '../tensor';
import { commonRejection } from './contract';
import { caseLabel, OpCaseError, parseParams, rowFeatures, type OpCase, type OpDef } from './types';

const LAYOUTS = [
  { name: 'contiguous', doc: 'src0, src1 and dst packed, same shape' },
  { name: 'inplace', doc: 'ggml_add_inplace: dst is src0 itself' },
  { name: 'broadcast-row', doc: 'src1 is one row [ne0] added to every row (a bias)' },
  { name: 'broadcast-col', doc: 'src1 is [1, ne1, ne2, ne3]: one value per row' },
  { name: 'src0-rows-strided', doc: 'src0 is a view whose rows sit in a wider packed tensor' },
  { name: 'src1-permuted', doc: 'src1 is permute(0,2,1,3) of a packed tensor (rows contiguous, planes swapped)' },
  { name: 'src1-transposed', doc: 'src1 is the transpose of a packed tensor (rows not contiguous)' },
] as const;

function makeCase(dims: readonly number[], layout: string = 'contiguous', params: Readonly<Record<string, number>> = {}): OpCase {
  if (dims.length < 1 || dims.length > 4) throw new OpCaseError(`ADD takes 1 to 4 dims (ne0xne1[xne2xne3] of dst), got ${dims.length}`);
  parseParams('ADD', [], params);
  const ne = [1, 1, 1, 1].map((one, i) => dims[i] ?? one);
  const [ne0, ne1, ne2, ne3] = ne;
  let src0 = contiguous('f32', ne);
  let src1 = contiguous('f32', ne);
  let inplace = false;
  switch (layout) {
    case 'contiguous':
      break;
    case 'inplace':
      inplace = true;
      break;
    case 'broadcast-row':
      src1 = contiguous('f32', [ne0]);
      break;
    case 'broadcast-col':
      src1 = contiguous('f32', [1, ne1, ne2, ne3]);
      break;
    case 'src0-rows-strided':
      src0 = stridedRows('f32', ne, ne0 + 3, 1);
      break;
    case 'src1-permuted':
      src1 = permute(contiguous('f32', [ne0, ne2, ne1, ne3]), [0, 2, 1, 3]);
      break;
    case 'src1-transposed':
      src1 = permute(contiguous('f32', [ne1, ne0, ne2, ne3]), [1, 0, 2, 3]);
      break;
    default:
      throw new OpCaseError(`ADD has no layout '${layout}' (layouts: ${LAYOUTS.map((l) => l.name).join(', ')})`);
  }
  if (!canRepeat(src1, src0)) throw new OpCaseError(`ADD: src1 ${src1.ne.join('x')} does not repeat over src0 ${src0.ne.join('x')}`);
  const dst = inplace ? { ...src0, layout: 'inplace' } : contiguous('f32', ne);
  return Object.freeze({ op: 'ADD', dims: Object.freeze([...dims]), layout, label: caseLabel(dims, layout, 'contiguous'), srcs: Object.freeze([src0, src1]), dst, inplace, params: Object.freeze({}) });
}

function oracle(c: OpCase, srcs: readonly ArrayBuffer[]) {
  const [s0, s1] = c.srcs;
  const a = gather(s0, srcs[0]);
  const b = gather(s1, srcs[1]);
  const [ne0, ne1, ne2, ne3] = c.dst.ne;
  const [ne10, ne11, ne12, ne13] = s1.ne;
  const ref = new Float64Array(a.length);
  const epsFloor = new Float64Array(a.length);
  let i = 0;
  for (let i3 = 0; i3 < ne3; i3++)
    for (let i2 = 0; i2 < ne2; i2++)
      for (let i1 = 0; i1 < ne1; i1++)
        for (let i0 = 0; i0 < ne0; i0++, i++) {
          const bv = b[(i0 % ne10) + ne10 * ((i1 % ne11) + ne11 * ((i2 % ne12) + ne12 * (i3 % ne13)))];
          ref[i] = a[i] + bv;
          epsFloor[i] = Math.abs(a[i]) + Math.abs(bv);
        }
  return { ref, epsFloor, terms: 1 };
}

const NATIVE_WG = 256;

/** The native kernel's uniform: shapes, element strides and offsets of the three tensors. */
const PARAMS = uniformSchema('Params', Object.fromEntries(
  ['ne0', 'ne1', 'ne2', 'ne3', 's00', 's01', 's02', 's03', 'ne10', 'ne11', 'ne12', 'ne13', 's10', 's11', 's12', 's13', 's0', 's1', 's2', 's3', 'off0', 'off1', 'offd', 'n'].map((k) => [k, 'u32' as const]),
));

function native(c: OpCase): KernelSpec {
  const [src0, src1] = c.srcs;
  const dst = c.dst;
  const [s00, s01, s02, s03] = elementStrides(src0);
  const [s10, s11, s12, s13] = elementStrides(src1);
  const [s0, s1, s2, s3] = elementStrides(dst);
  const [ne0, ne1, ne2, ne3] = dst.ne;
  const [ne10, ne11, ne12, ne13] = src1.ne;
  const values = { ne0, ne1, ne2, ne3, s00, s01, s02, s03, ne10, ne11, ne12, ne13, s10, s11, s12, s13, s0, s1, s2, s3, off0: deviceOffsetElements(src0), off1: deviceOffsetElements(src1), offd: deviceOffsetElements(dst), n: nelements(dst) };
  const dispatch = grid2d(Math.ceil(nelements(dst) / NATIVE_WG));
  const roles = c.inplace ? (['dst', 'src1', 'params'] as const) : (['src0', 'src1', 'dst', 'params'] as const);
  return nativeTemplated('ADD/add.wgsl', nativeWgsl, roles, dispatch, PARAMS, values, { INPLACE: c.inplace, WG: NATIVE_WG });
}

/** ADD for the elementwise family: src1 broadcast over src0 by modulo; in place, src0 is dst's buffer. */
function snippet(c: OpCase): ElementwiseSnippet {
  const [src0, src1] = c.srcs;
  return {
    sources: [
      { name: 'src0', tensor: src0, binding: c.inplace ? 'dst' : 'src0' },
      { name: 'src1', tensor: src1, binding: 'src1' },
    ],
    outputs: [{ tensor: c.dst, binding: 'dst', expr: 'src0 + src1' }],
  };
}

const generated = generatedPath(ELEMENTWISE, snippet);

export const ADD: OpDef = {
  name: 'ADD',
  summary: 'dst = src0 + src1, src1 broadcast over src0 (ggml_add, ggml_add_inplace)',
  shapeSyntax: 'ne0xne1[xne2xne3] of dst',
  layouts: LAYOUTS,
  params: [],
  matrix: [
    { dims: [4096, 128], layout: 'contiguous' },
    { dims: [4093, 37], layout: 'contiguous' },
    { dims: [2048, 128], layout: 'inplace' },
    { dims: [4096, 64], layout: 'broadcast-row' },
    { dims: [1000, 33, 3], layout: 'broadcast-col' },
    { dims: [4096, 64], layout: 'src0-rows-strided' },
    { dims: [512, 64, 8], layout: 'src1-permuted' },
    { dims: [256, 256], layout: 'src1-transposed' },
  ],
  makeCase,
  oracle,
  flops: () => null,
  bytes: (c) => ({ readBytes: (nelements(c.srcs[0]) + nelements(c.srcs[1])) * 4, writeBytes: nelements(c.dst) * 4 }),
  features: rowFeatures,
  native,
  family: generated.family,
  require: (c, adapter) =>
    commonRejection(c, adapter) ??
    (rowsContiguous(c.srcs[1]) ? null : { code: 'src1-rows-not-contiguous', reason: `src1 rows are not contiguous (nb0 = ${c.srcs[1].nb[0]} B): the generated kernel loads rows as vectors` }),
  fits: generated.fits,
  generate: generated.generate,
};
