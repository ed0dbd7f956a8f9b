// ACC — ggml_acc(a, b, nb1, nb2, nb3, offset): dst = a, then view(dst, nb1, nb2, nb3, offset) += b,
// where the view has b's ne, nb0 = 4 and the given byte strides and offset (op_params[0..3];
// op_params[4] is ggml_acc_inplace's flag, here the 'inplace' layout: dst is a itself). What
// ggml_compute_backward emits for the gradient of a view. ggml asserts a contiguous, f32 a and b,
// nelements(b) ≤ nelements(a), b's rows contiguous (nb10 == 4), and that the view's last element
// lies inside dst. The lab also refuses a view that overlaps itself (ggml's threads would then race
// on one element) and strides or offsets that are not whole f32 elements.
import nativeWgsl from '../../../kernels/ACC/acc.wgsl?raw';
import { uniformSchema } from '../codegen/uniforms';
import { u } from '../codegen/wgsl';
import type { ElementwiseSnippet } from '../families/elementwise';
import { deviceOffsetElements, gather } from '../hostdata';
import { grid2d, type KernelSpec, nativeTemplated } from '../kernel';
import { contiguous, elementStrides, forEachElement, nelements, permute, rowsContiguous, view, type TensorDesc } from '../tensor';
import { defineElementwiseOp } from './elementwise-op';
import { dimsNe, noLayout } from './elementwise-case';
import { caseLabel, OpCaseError, paramsLabel, parseParams, type OpCase, type ParamSpec } from './types';

const I32_MAX = 2 ** 31 - 1;

export const PARAMS: readonly ParamSpec[] = Object.freeze([
  { name: 'nb1', type: 'u32', default: 0, min: 0, max: I32_MAX, doc: "the view's row stride in bytes (op_params[0]); 0 = a's own nb1" },
  { name: 'nb2', type: 'u32', default: 0, min: 0, max: I32_MAX, doc: "the view's plane stride in bytes (op_params[1]); 0 = a's own nb2" },
  { name: 'nb3', type: 'u32', default: 0, min: 0, max: I32_MAX, doc: "the view's dim-3 stride in bytes (op_params[2]); 0 = a's own nb3" },
  { name: 'offset', type: 'u32', default: 0, min: 0, max: I32_MAX, doc: "where the view starts in dst, in bytes (op_params[3])" },
]);

const LAYOUTS = [
  { name: 'contiguous', doc: 'a, b and dst packed; b is a block [⌈ne0/2⌉, ⌈ne1/2⌉, ne2, ne3] added into the view' },
  { name: 'inplace', doc: 'ggml_acc_inplace: dst is a itself; b the same block' },
  { name: 'whole', doc: "b has a's shape: with the default view, dst = a + b" },
  { name: 'src1-permuted', doc: 'b (the block) is permute(0,2,1,3) of a packed tensor (rows contiguous, planes swapped)' },
  { name: 'whole-src1-permuted', doc: "b has a's shape and is permute(0,2,1,3) of a packed tensor: the training graph's gradient of a permuted view" },
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
  const checked = parseParams('ACC', PARAMS, params);
  if (!LAYOUTS.some((l) => l.name === layout)) throw noLayout('ACC', layout, LAYOUTS);
  const a = contiguous('f32', ne);
  const block = [Math.ceil(ne[0] / 2), Math.ceil(ne[1] / 2), ne[2], ne[3]];
  const whole = layout.startsWith('whole');
  let b: TensorDesc = contiguous('f32', whole ? ne : block);
  if (layout.endsWith('src1-permuted')) b = permute(contiguous('f32', [b.ne[0], b.ne[2], b.ne[1], b.ne[3]]), [0, 2, 1, 3]);
  for (const name of ['nb1', 'nb2', 'nb3', 'offset'] as const) {
    if (checked[name] % 4) throw new OpCaseError(`ACC: ${name} = ${checked[name]} B is not a whole number of f32 elements (a multiple of 4)`);
  }
  if (nelements(b) > nelements(a)) throw new OpCaseError(`ACC: b has ${nelements(b)} elements, more than a's ${nelements(a)} (ggml asserts nelements(b) <= nelements(a))`);
  if (!rowsContiguous(b)) throw new OpCaseError(`ACC: b rows must be contiguous (ggml asserts nb10 == sizeof(float)), got nb0 = ${b.nb[0]} B`);
  const c: OpCase = Object.freeze({ op: 'ACC', dims: Object.freeze([...dims]), layout, label: caseLabel(dims, layout, 'contiguous', paramsLabel(PARAMS, checked)), srcs: Object.freeze([a, b]), dst: layout === 'inplace' ? { ...a, layout: 'inplace' } : contiguous('f32', ne), inplace: layout === 'inplace', params: checked });
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

const NATIVE_WG = 256;

/**
 * Out of place: src0, dst, and the view and b with their dims largest view stride first (the
 * kernel's division order), padded to four with one-element dims whose view stride passes dst's
 * end (quotient 0) and whose b stride is 0. In place: b and the view in b's own dim order.
 */
const UNIFORM = uniformSchema('Params', { src0: 'tensor', src1: 'tensor', dst: 'tensor', view: 'tensor' });
const UNIFORM_INPLACE = uniformSchema('Params', { src1: 'tensor', view: 'tensor' });

/** The view of dst that b is added into, as a tensor of dst's buffer (strides in view order). */
function viewTensor(c: OpCase, ne: readonly number[], strides: readonly number[]): TensorDesc {
  return { ...c.dst, ne: ne as TensorDesc['ne'], nb: strides.map((s) => s * 4) as unknown as TensorDesc['nb'], offsetBytes: c.dst.offsetBytes + accView(c).offset * 4, layout: 'acc-view' };
}

function native(c: OpCase): KernelSpec {
  const [a, b] = c.srcs;
  const v = accView(c);
  if (c.inplace) {
    const values = { src1: b, view: viewTensor(c, b.ne, v.strides) };
    return nativeTemplated('ACC/acc.wgsl', nativeWgsl, ['dst', 'src1', 'params'], grid2d(Math.ceil(nelements(b) / NATIVE_WG)), UNIFORM_INPLACE, values, { INPLACE: true, WG: NATIVE_WG });
  }
  const dims = spannedDims(v).reverse().map((d) => ({ ne: d.ne, stride: d.stride, bnb: b.nb[d.k] }));
  while (dims.length < 4) dims.unshift({ ne: 1, stride: nelements(c.dst), bnb: 0 });
  const sortedB: TensorDesc = { ...b, ne: dims.map((d) => d.ne) as unknown as TensorDesc['ne'], nb: dims.map((d) => d.bnb) as unknown as TensorDesc['nb'] };
  const values = { src0: a, src1: sortedB, dst: c.dst, view: viewTensor(c, dims.map((d) => d.ne), dims.map((d) => d.stride)) };
  return nativeTemplated('ACC/acc.wgsl', nativeWgsl, ['src0', 'src1', 'dst', 'params'], grid2d(Math.ceil(nelements(a) / NATIVE_WG)), UNIFORM, values, { INPLACE: false, WG: NATIVE_WG });
}

/**
 * In place, the output is the view itself (b's shape, the view's strides, inside dst) and each
 * element is x + b, so only the view is touched. Otherwise every dst element is x plus, when its
 * linear index lies in the view, the b element there: membership and b's index are the native
 * kernel's divisions by the sorted view strides, baked as WGSL (a gather: vectorWidth 1).
 */
function snippet(c: OpCase): ElementwiseSnippet {
  const [a, b] = c.srcs;
  const v = accView(c);
  if (c.inplace) {
    const target = view(c.dst, b.ne, [v.strides[1] * 4, v.strides[2] * 4, v.strides[3] * 4], v.offset * 4, 'acc-view');
    return {
      sources: [
        { name: 'x', tensor: target, binding: 'dst' },
        { name: 'b', tensor: b, binding: 'src1' },
      ],
      outputs: [{ tensor: target, binding: 'dst', expr: 'x + b' }],
    };
  }
  const dne = c.dst.ne;
  const place = [1, dne[0], dne[0] * dne[1], dne[0] * dne[1] * dne[2]];
  const times = (e: string, k: number) => (k === 1 ? e : `${e} * ${u(k)}`);
  const lin = [0, 1, 2, 3].filter((d) => dne[d] > 1).map((d) => times(`i${d}`, place[d])).join(' + ') || '0u';
  let rem = v.offset ? `((${lin}) - ${u(v.offset)})` : `(${lin})`;
  const conds = v.offset ? [`(${lin}) >= ${u(v.offset)}`] : [];
  const bTerms = [u(deviceOffsetElements(b))];
  const bStrides = elementStrides(b);
  for (const d of spannedDims(v).reverse()) {
    const q = d.stride === 1 ? rem : `(${rem} / ${u(d.stride)})`;
    conds.push(`${q} < ${u(d.ne)}`);
    if (bStrides[d.k]) bTerms.push(times(q, bStrides[d.k]));
    rem = d.stride === 1 ? '0u' : `(${rem} % ${u(d.stride)})`;
  }
  if (rem !== '0u') conds.push(`${rem} == 0u`);
  const inside = conds.join(' && ');
  return {
    sources: [
      { name: 'x', tensor: a, binding: 'src0' },
      { name: 'b', tensor: b, binding: 'src1', index: `select(${u(deviceOffsetElements(b))}, ${bTerms.join(' + ')}, ${inside})` },
    ],
    outputs: [{ tensor: c.dst, binding: 'dst', expr: `x + select(0.0, b, ${inside})` }],
  };
}

export const ACC = defineElementwiseOp({
  name: 'ACC',
  bench: { dims: [4096, 4096] },
  summary: 'dst = a; view(dst, nb1, nb2, nb3, offset) += b (ggml_acc, ggml_acc_inplace)',
  shapeSyntax: 'ne0xne1[xne2xne3] of a (and dst); b per layout',
  layouts: LAYOUTS,
  params: PARAMS,
  matrix: [
    { dims: [4096, 16], layout: 'contiguous' },
    // Every other row of a, from column 5: ggml_view_2d(a, 2048, 8, 2·nb1, 20).
    { dims: [4096, 16], layout: 'contiguous', params: { nb1: 32768, offset: 20 } },
    { dims: [1001, 13, 3], layout: 'contiguous' },
    // Planes 516 elements apart (narrower than a's 1032), one element in.
    { dims: [129, 8, 5], layout: 'contiguous', params: { nb2: 2064, offset: 4 } },
    // A 4-d view whose dim-3 stride (800 elements) is not a's (768).
    { dims: [64, 4, 3, 2], layout: 'contiguous', params: { nb3: 3200 } },
    { dims: [4096, 16], layout: 'inplace' },
    { dims: [4093, 7], layout: 'inplace' },
    { dims: [4093, 7], layout: 'inplace', params: { offset: 8 } },
    { dims: [1000, 11, 3], layout: 'whole' },
    { dims: [129, 8, 5], layout: 'src1-permuted' },
    // The tiny preset's attention backward: [8, 8, 128] from a permuted gradient.
    { dims: [8, 8, 128], layout: 'whole-src1-permuted' },
    { dims: [129, 8, 5], layout: 'whole-src1-permuted' },
  ],
  makeCase,
  oracle,
  snippet,
  bytes: (c) => {
    const nb = nelements(c.srcs[1]) * 4;
    return c.inplace ? { readBytes: 2 * nb, writeBytes: nb } : { readBytes: nelements(c.srcs[0]) * 4 + nb, writeBytes: nelements(c.dst) * 4 };
  },
  native,
});
