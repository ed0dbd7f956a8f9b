// ACC — ggml_acc(a, b, nb1, nb2, nb3, offset): dst = a, then view(dst, nb1, nb2, nb3, offset) += b,
// where the view has b's ne, nb0 = 4 and the given byte strides and offset (op_params[0..3];
// op_params[4] is ggml_acc_inplace's flag, here the 'inplace' layout: dst is a itself). What
// ggml_compute_backward emits for the gradient of a view. ggml asserts a contiguous, f32 a and b,
// nelements(b) ≤ nelements(a), b's rows contiguous (nb10 == 4), and that the view's last element
// lies inside dst. The lab also refuses a view that overlaps itself (ggml's threads would then race
// on one element) and strides or offsets that are not whole f32 elements.
import nativeWgsl from '../../../kernels/ACC/acc.wgsl?raw';
import nativeInplaceWgsl from '../../../kernels/ACC/acc_inplace.wgsl?raw';
import { deviceOffsetElements, gather } from '../hostdata';
import { grid2d, type KernelSpec, nativeKernel, packParams } from '../kernel';
import { contiguous, elementStrides, forEachElement, nelements, permute, rowsContiguous, type TensorDesc } from '../tensor';
import { commonRejection } from './contract';
import { checkParams, dimsNe, noGeneratedPath, noLayout, type ParamSpec } from './elementwise-case';
import { caseLabel, OpCaseError, rowFeatures, type OpCase, type OpDef } from './types';

const I32_MAX = 2 ** 31 - 1;

export const PARAMS: readonly ParamSpec[] = Object.freeze([
  { name: 'nb1', type: 'i32', default: 0, min: 0, max: I32_MAX, doc: "the view's row stride in bytes (op_params[0]); 0 = a's own nb1" },
  { name: 'nb2', type: 'i32', default: 0, min: 0, max: I32_MAX, doc: "the view's plane stride in bytes (op_params[1]); 0 = a's own nb2" },
  { name: 'nb3', type: 'i32', default: 0, min: 0, max: I32_MAX, doc: "the view's dim-3 stride in bytes (op_params[2]); 0 = a's own nb3" },
  { name: 'offset', type: 'i32', default: 0, min: 0, max: I32_MAX, doc: "where the view starts in dst, in bytes (op_params[3])" },
]);

const LAYOUTS = [
  { name: 'contiguous', doc: 'a, b and dst packed; b is a block [⌈ne0/2⌉, ⌈ne1/2⌉, ne2, ne3] added into the view' },
  { name: 'inplace', doc: 'ggml_acc_inplace: dst is a itself; b the same block' },
  { name: 'whole', doc: "b has a's shape: with the default view, dst = a + b" },
  { name: 'src1-permuted', doc: 'b (the block) is permute(0,2,1,3) of a packed tensor (rows contiguous, planes swapped)' },
] as const;

/** The view b is added into: b's ne, strides in elements, start in elements. */
interface AccView {
  readonly ne: readonly number[];
  readonly strides: readonly number[];
  readonly offset: number;
}

export function accView(c: OpCase): AccView {
  const nb = [4, c.params.nb1 || c.srcs[0].nb[1], c.params.nb2 || c.srcs[0].nb[2], c.params.nb3 || c.srcs[0].nb[3]];
  return { ne: c.srcs[1].ne, strides: nb.map((b) => b / 4), offset: c.params.offset / 4 };
}

/** The view's dims with more than one element, smallest stride first. */
function spannedDims(v: AccView): { ne: number; stride: number; k: number }[] {
  return [0, 1, 2, 3]
    .filter((k) => v.ne[k] > 1)
    .map((k) => ({ ne: v.ne[k], stride: v.strides[k], k }))
    .sort((x, y) => x.stride - y.stride);
}

function makeCase(dims: readonly number[], layout: string = 'contiguous', params: Readonly<Record<string, number>> = {}): OpCase {
  const ne = dimsNe('ACC', dims, 'ne0xne1[xne2xne3] of a (and dst)');
  const checked = checkParams('ACC', PARAMS, params);
  if (!LAYOUTS.some((l) => l.name === layout)) throw noLayout('ACC', layout, LAYOUTS);
  const a = contiguous('f32', ne);
  const block = [Math.ceil(ne[0] / 2), Math.ceil(ne[1] / 2), ne[2], ne[3]];
  let b: TensorDesc = contiguous('f32', layout === 'whole' ? ne : block);
  if (layout === 'src1-permuted') b = permute(contiguous('f32', [block[0], block[2], block[1], block[3]]), [0, 2, 1, 3]);
  for (const name of ['nb1', 'nb2', 'nb3', 'offset'] as const) {
    if (checked[name] % 4) throw new OpCaseError(`ACC: ${name} = ${checked[name]} B is not a whole number of f32 elements (a multiple of 4)`);
  }
  if (nelements(b) > nelements(a)) throw new OpCaseError(`ACC: b has ${nelements(b)} elements, more than a's ${nelements(a)} (ggml asserts nelements(b) <= nelements(a))`);
  if (!rowsContiguous(b)) throw new OpCaseError(`ACC: b rows must be contiguous (ggml asserts nb10 == sizeof(float)), got nb0 = ${b.nb[0]} B`);
  const c: OpCase = Object.freeze({ op: 'ACC', dims: Object.freeze([...dims]), layout, label: caseLabel(dims, layout, 'contiguous'), srcs: Object.freeze([a, b]), dst: layout === 'inplace' ? { ...a, layout: 'inplace' } : contiguous('f32', ne), inplace: layout === 'inplace', params: checked });
  const v = accView(c);
  const lastByte = 4 * (v.offset + v.ne.reduce((sum, n, k) => sum + (n - 1) * v.strides[k], 0));
  if (lastByte >= a.bufferSizeBytes) {
    throw new OpCaseError(`ACC: the view of b ${b.ne.join('x')} with nb ${[4, ...v.strides.slice(1).map((s) => s * 4)].join(',')} at offset ${checked.offset} B puts its last element at byte ${lastByte}, past dst's ${a.bufferSizeBytes} B (ggml asserts it lies inside)`);
  }
  let extent = 1;
  for (const d of spannedDims(v)) {
    if (d.stride < extent) throw new OpCaseError(`ACC: the view overlaps itself (dim ${d.k}'s stride ${d.stride * 4} B is shorter than the ${extent * 4} B the lower dims span): ggml's threads would race on one element`);
    extent = d.stride * (d.ne - 1) + extent;
  }
  return c;
}

/** f64 reference: a copied, b added at its view positions. epsFloor |a| + |b| there, 0 elsewhere (an exact copy). */
function oracle(c: OpCase, srcs: readonly ArrayBuffer[]) {
  const ref = gather(c.srcs[0], srcs[0]);
  const epsFloor = new Float64Array(ref.length);
  const b = gather(c.srcs[1], srcs[1]);
  const v = accView(c);
  const bPacked = contiguous('f32', c.srcs[1].ne);
  forEachElement(bPacked, (j, _off, j0, j1, j2, j3) => {
    const pos = v.offset + j0 * v.strides[0] + j1 * v.strides[1] + j2 * v.strides[2] + j3 * v.strides[3];
    epsFloor[pos] = Math.abs(ref[pos]) + Math.abs(b[j]);
    ref[pos] += b[j];
  });
  return { ref, epsFloor, terms: 1 };
}

function native(c: OpCase): KernelSpec {
  const [a, b] = c.srcs;
  const v = accView(c);
  const bStrides = elementStrides(b);
  if (c.inplace) {
    const uniforms = packParams([nelements(b), v.offset, deviceOffsetElements(b), deviceOffsetElements(c.dst), ...b.ne, ...v.strides, ...bStrides]);
    return nativeKernel('ACC/acc_inplace.wgsl', nativeInplaceWgsl, ['dst', 'src1', 'params'], grid2d(Math.ceil(nelements(b) / 256)), uniforms);
  }
  // Largest stride first; dims of one element get a stride past dst's end, so their quotient is 0.
  const dimsDesc = spannedDims(v).reverse();
  while (dimsDesc.length < 4) dimsDesc.unshift({ ne: 1, stride: nelements(a), k: -1 });
  const uniforms = packParams([
    nelements(a),
    v.offset,
    deviceOffsetElements(a),
    deviceOffsetElements(b),
    deviceOffsetElements(c.dst),
    0,
    0,
    0,
    ...dimsDesc.map((d) => d.ne),
    ...dimsDesc.map((d) => d.stride),
    ...dimsDesc.map((d) => (d.k < 0 ? 0 : bStrides[d.k])),
  ]);
  return nativeKernel('ACC/acc.wgsl', nativeWgsl, ['src0', 'src1', 'dst', 'params'], grid2d(Math.ceil(nelements(a) / 256)), uniforms);
}

export const ACC: OpDef = {
  name: 'ACC',
  summary: 'dst = a; view(dst, nb1, nb2, nb3, offset) += b (ggml_acc, ggml_acc_inplace)',
  shapeSyntax: 'ne0xne1[xne2xne3] of a (and dst); b per layout',
  layouts: LAYOUTS,
  matrix: [
    { dims: [4096, 16], layout: 'contiguous' },
    { dims: [1001, 13, 3], layout: 'contiguous' },
    { dims: [4093, 7], layout: 'inplace' },
    { dims: [1000, 11, 3], layout: 'whole' },
    { dims: [129, 8, 5], layout: 'src1-permuted' },
  ],
  makeCase,
  oracle,
  flops: () => null,
  bytes: (c) => {
    const nb = nelements(c.srcs[1]) * 4;
    return c.inplace ? { readBytes: 2 * nb, writeBytes: nb } : { readBytes: nelements(c.srcs[0]) * 4 + nb, writeBytes: nelements(c.dst) * 4 };
  },
  features: rowFeatures,
  native,
  family: 'elementwise',
  require: (c, adapter) => commonRejection(c, adapter),
  ...noGeneratedPath('ACC'),
};
