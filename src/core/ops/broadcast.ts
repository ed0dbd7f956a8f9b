// Binary ops with ggml's broadcast (ggml_can_repeat(b, a): src1 repeats over src0, dst has src0's
// shape; the *_inplace form makes dst a view of src0). ggml's binary-ops.cpp asserts nb0 and nb00
// are the element size (dst and src0 rows contiguous); src1 may have any strides.
import { gather } from '../hostdata';
import { canRepeat, contiguous, permute, rowsContiguous } from '../tensor';
import { dimsNe, layoutSpecs, pickLayout, PLANES_SWAPPED, ROWS_STRIDED, type SourcesLayout } from './elementwise-case';
import { caseLabel, OpCaseError, paramsLabel, parseParams, type LayoutSpec, type OpCase, type ParamSpec } from './types';

/** Each layout's src0 and src1 (from dst's ne; absent: packed), as data plus builders. */
const LAYOUTS: readonly SourcesLayout[] = [
  { name: 'contiguous', doc: 'src0, src1 and dst packed, same shape' },
  { name: 'inplace', doc: 'the *_inplace form: dst is src0 itself' },
  { name: 'broadcast-row', doc: 'src1 is one row [ne0] applied to every row (a bias, a norm weight)', src1: ([ne0]) => contiguous('f32', [ne0]) },
  { name: 'broadcast-col', doc: 'src1 is [1, ne1, ne2, ne3]: one value per row', src1: ([, ne1, ne2, ne3]) => contiguous('f32', [1, ne1, ne2, ne3]) },
  { name: 'src0-rows-strided', doc: 'src0 is a view whose rows sit in a wider packed tensor', src0: ROWS_STRIDED },
  { name: 'src1-permuted', doc: 'src1 is permute(0,2,1,3) of a packed tensor (rows contiguous, planes swapped)', src1: PLANES_SWAPPED },
  { name: 'src1-transposed', doc: 'src1 is the transpose of a packed tensor (rows not contiguous)', src1: ([ne0, ne1, ne2, ne3]) => permute(contiguous('f32', [ne1, ne0, ne2, ne3]), [1, 0, 2, 3]) },
];

export const BROADCAST_LAYOUTS: readonly LayoutSpec[] = Object.freeze(layoutSpecs(LAYOUTS));

export function makeBroadcastCase(op: string, dims: readonly number[], layout: string, specs: readonly ParamSpec[], given: Readonly<Record<string, number>>): OpCase {
  const ne = dimsNe(op, dims, 'ne0xne1[xne2xne3] of dst');
  const params = parseParams(op, specs, given);
  const l = pickLayout(op, LAYOUTS, layout);
  const src0 = l.src0?.(ne) ?? contiguous('f32', ne);
  const src1 = l.src1?.(ne) ?? contiguous('f32', ne);
  if (!canRepeat(src1, src0)) throw new OpCaseError(`${op}: src1 ${src1.ne.join('x')} does not repeat over src0 ${src0.ne.join('x')} (ggml_can_repeat)`);
  if (!rowsContiguous(src0)) throw new OpCaseError(`${op}: src0 rows must be contiguous (ggml asserts nb00 == sizeof(float)), got nb0 = ${src0.nb[0]} B`);
  const inplace = layout === 'inplace';
  const dst = inplace ? { ...src0, layout: 'inplace' } : contiguous('f32', ne);
  return Object.freeze({ op, dims: Object.freeze([...dims]), layout, label: caseLabel(dims, layout, 'contiguous', paramsLabel(specs, params)), srcs: Object.freeze([src0, src1]), dst, inplace, params });
}

/** f64 reference of dst = fn(a, b) with b repeated; `floor` gives each element's epsFloor. */
export function broadcastOracle(c: OpCase, srcs: readonly ArrayBuffer[], fn: (a: number, b: number) => number, floor: (a: number, b: number) => number) {
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
          ref[i] = fn(a[i], bv);
          epsFloor[i] = floor(a[i], bv);
        }
  return { ref, epsFloor, terms: 1 };
}
