// REPEAT_BACK — ggml_repeat_back(a, b): the gradient of REPEAT; dst has b's shape (a new packed
// tensor), and ggml asserts ggml_can_repeat(dst, a): each of a's dims is a multiple of dst's.
// dst[k] sums the tiles of a that REPEAT copies dst[k] into (ggml-cpu's loop):
//   dst[k0, k1, k2, k3] = Σ a[i0·ne0 + k0, i1·ne1 + k1, i2·ne2 + k2, i3·ne3 + k3],  i_d < a.ne_d / ne_d
// The CPU kernel asserts nb00 == nb0 == sizeof(float): a's rows are contiguous, any other strides.
// (ggml.h's comment on ggml_repeat_back, "sum up values that are adjacent in dims > 0 instead of
// repeated with same stride", does not describe the CPU kernel, which sums tiles: the lab
// follows the kernel.) In llama training it is the gradient of a broadcast weight or bias:
// a [4096, T] gradient summed into [4096].
import nativeWgsl from '../../../kernels/REPEAT_BACK/repeat_back.wgsl?raw';
import { gather } from '../hostdata';
import { uniformSchema } from '../codegen/uniforms';
import { grid2d, type KernelSpec, nativeTemplated } from '../kernel';
import type { ElementwiseSnippet } from '../families/elementwise';
import { canRepeat, contiguous, forEachElement, nelements, rowsContiguous, type TensorDesc } from '../tensor';
import { defineElementwiseOp } from './elementwise-op';
import { layoutSpecs, PACKED, permutedView, pickLayout, PLANES_SWAPPED, ROWS_STRIDED, type ViewLayout } from './elementwise-case';
import { layoutError } from './rows-common';
import { caseLabel, paramsLabel, parseParams, type ParamSpec, OpCaseError, type OpCase, type Rejection } from './types';

const SYNTAX = 'ne0xne1xne2xne3 of dst, then repeats r0[xr1xr2xr3] (src0 is ne·r; missing repeats are 1)';

const LAYOUTS: readonly ViewLayout[] = [
  { name: 'contiguous', doc: 'src0 packed [ne0·r0, ne1·r1, ne2·r2, ne3·r3]; dst packed', view: PACKED },
  { name: 'src0-rows-strided', doc: 'src0 is a view whose rows sit in a wider packed tensor (odd row stride)', view: ROWS_STRIDED },
  { name: 'src0-permuted', doc: 'src0 is permute(0,2,1,3) of a packed tensor (rows contiguous, planes swapped)', view: PLANES_SWAPPED },
  { name: 'src0-permuted-23', doc: "src0 is permute(0,1,3,2) of a packed tensor (dims 2 and 3 swapped): the training graph's K and V gradients summed over the query heads that share them", view: (ne) => permutedView(ne, [0, 1, 3, 2]) },
];

/** ggml_repeat_back has no op_params: the repeats follow from the two shapes. */
export const PARAMS: readonly ParamSpec[] = Object.freeze([]);

function makeCase(dims: readonly number[], layout: string = 'contiguous', params: Readonly<Record<string, number>> = {}): OpCase {
  if (dims.length < 4 || dims.length > 8) throw new OpCaseError(`REPEAT_BACK takes 4 to 8 dims (${SYNTAX}), got ${dims.length}`);
  const checked = parseParams('REPEAT_BACK', PARAMS, params);
  const ne = dims.slice(0, 4);
  const nr = [0, 1, 2, 3].map((d) => dims[4 + d] ?? 1);
  const srcNe = ne.map((n, d) => n * nr[d]);
  if (layout === 'inplace') throw layoutError('REPEAT_BACK', layout, LAYOUTS, 'ggml has no in-place repeat_back');
  const src0 = pickLayout('REPEAT_BACK', LAYOUTS, layout).view(srcNe);
  const dst = contiguous('f32', ne);
  if (!canRepeat(dst, src0)) throw new OpCaseError(`REPEAT_BACK: dst ${ne.join('x')} does not repeat into src0 ${srcNe.join('x')} (ggml asserts ggml_can_repeat)`);
  if (!rowsContiguous(src0)) throw new OpCaseError(`REPEAT_BACK: src0 rows must be contiguous (ggml asserts nb00 == sizeof(float)), got nb0 = ${src0.nb[0]} B`);
  return Object.freeze({ op: 'REPEAT_BACK', dims: Object.freeze([...dims]), layout, label: caseLabel(dims, layout, 'contiguous', paramsLabel(PARAMS, checked)), srcs: Object.freeze([src0]), dst, inplace: false, params: checked });
}

/** Repeats per dimension: src0's extent over dst's. */
export function repeats(c: OpCase): number[] {
  return [0, 1, 2, 3].map((d) => c.srcs[0].ne[d] / c.dst.ne[d]);
}

/**
 * f64 reference. Each src0 element lands in exactly one dst element (its position modulo dst's
 * shape); epsFloor is Σ|x| there, so tiles that cancel are not held to a bound of 0.
 */
function oracle(c: OpCase, srcs: readonly ArrayBuffer[]) {
  const x = gather(c.srcs[0], srcs[0]);
  const [ne0, ne1, ne2, ne3] = c.dst.ne;
  const ref = new Float64Array(nelements(c.dst));
  const epsFloor = new Float64Array(ref.length);
  forEachElement(c.srcs[0], (i, _off, i0, i1, i2, i3) => {
    const k = (i0 % ne0) + ne0 * ((i1 % ne1) + ne1 * ((i2 % ne2) + ne2 * (i3 % ne3)));
    ref[k] += x[i];
    epsFloor[k] += Math.abs(x[i]);
  });
  return { ref, epsFloor, terms: repeats(c).reduce((a, b) => a * b, 1) };
}

const NATIVE_WG = 256;

/** src0 and dst as the shared Tensor descriptors (the repeats are src0.ne / dst.ne). */
const PARAMS_SCHEMA = uniformSchema('Params', { src0: 'tensor', dst: 'tensor' });

function native(c: OpCase): KernelSpec {
  return nativeTemplated('REPEAT_BACK/repeat_back.wgsl', nativeWgsl, ['src0', 'dst', 'params'], grid2d(Math.ceil(nelements(c.dst) / NATIVE_WG)), PARAMS_SCHEMA, { src0: c.srcs[0], dst: c.dst }, { WG: NATIVE_WG });
}

/** The generated kernel unrolls one load per tile: past this many tiles it runs native. */
export const MAX_GENERATED_TILES = 64;

/**
 * The tiles of src0 that REPEAT copied dst into, in ggml's summation order (i3 outermost, i0
 * innermost): each a view of src0 with dst's shape, src0's strides and the tile's offset.
 */
export function tiles(c: OpCase): TensorDesc[] {
  const [src0] = c.srcs;
  const [nr0, nr1, nr2, nr3] = repeats(c);
  const out: TensorDesc[] = [];
  for (let a3 = 0; a3 < nr3; a3++)
    for (let a2 = 0; a2 < nr2; a2++)
      for (let a1 = 0; a1 < nr1; a1++)
        for (let a0 = 0; a0 < nr0; a0++) {
          const a = [a0, a1, a2, a3];
          const offsetBytes = src0.offsetBytes + a.reduce((sum, ad, d) => sum + ad * c.dst.ne[d] * src0.nb[d], 0);
          out.push(Object.freeze({ ...src0, ne: c.dst.ne, offsetBytes, layout: `tile(${a.join(',')})` }));
        }
  return out;
}

/** REPEAT_BACK for the elementwise family: dst = t0 + t1 + …, one strided source per tile of src0. */
function snippet(c: OpCase): ElementwiseSnippet {
  const ts = tiles(c);
  return {
    sources: ts.map((tensor, k) => ({ name: `t${k}`, tensor, binding: 'src0' as const })),
    outputs: [{ tensor: c.dst, binding: 'dst', expr: ts.map((_, k) => `t${k}`).join(' + ') }],
  };
}

function require(c: OpCase): Rejection | null {
  const n = nelements(c.srcs[0]) / nelements(c.dst);
  return n > MAX_GENERATED_TILES ? { code: 'repeats-over-64', reason: `${n} tiles: the generated kernel unrolls one load per tile, up to ${MAX_GENERATED_TILES}; more run native` } : null;
}

export const REPEAT_BACK = defineElementwiseOp({
  name: 'REPEAT_BACK',
  bench: { dims: [4096, 1, 1, 1, 1, 512] },
  summary: 'dst[k] = Σ over the tiles src0 repeats dst in (ggml_repeat_back, the gradient of REPEAT)',
  shapeSyntax: SYNTAX,
  layouts: layoutSpecs(LAYOUTS),
  params: PARAMS,
  matrix: [
    // A norm weight's or bias's gradient: [ne0, T] summed over its T rows.
    { dims: [4096, 1, 1, 1, 1, 15], layout: 'contiguous' },
    { dims: [1000, 1, 1, 1, 1, 37], layout: 'contiguous' },
    // Tiles along every dimension, odd sizes.
    { dims: [7, 5, 3, 2, 3, 2, 5, 2], layout: 'contiguous' },
    { dims: [33, 9, 1, 1, 4], layout: 'contiguous' },
    { dims: [128, 4, 1, 1, 1, 1, 8, 2], layout: 'contiguous' },
    { dims: [4093, 1, 1, 1, 1, 7], layout: 'src0-rows-strided' },
    { dims: [31, 3, 1, 1, 2, 5, 3], layout: 'src0-rows-strided' },
    { dims: [128, 8, 1, 1, 1, 2, 4], layout: 'src0-permuted' },
    // The grouped-query attention's K/V gradient (the tiny preset's): two query heads per KV head.
    { dims: [128, 8, 4, 1, 1, 1, 1, 2], layout: 'src0-permuted-23' },
    { dims: [33, 5, 3, 2, 1, 2, 1, 3], layout: 'src0-permuted-23' },
    // More tiles than the generated kernel unrolls: a declared fallback to native.
    { dims: [256, 1, 1, 1, 1, 100], layout: 'contiguous' },
  ],
  makeCase,
  oracle,
  snippet,
  require,
  features: (c) => ({ ne0: c.dst.ne[0], rows: c.dst.ne[1] * c.dst.ne[2] * c.dst.ne[3], n: nelements(c.dst), repeats: nelements(c.srcs[0]) / nelements(c.dst) }),
  native,
});
