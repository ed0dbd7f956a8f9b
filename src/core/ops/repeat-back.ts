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
import { deviceOffsetElements, gather } from '../hostdata';
import { grid2d, type KernelSpec, nativeKernel, packParams } from '../kernel';
import { scheduleKey, type Schedule } from '../schedule/schedule';
import { canRepeat, contiguous, elementStrides, forEachElement, nelements, permute, rowsContiguous, stridedRows } from '../tensor';
import { commonRejection } from './contract';
import { checkParams, layoutError, type ParamSpec } from './rows-common';
import { caseLabel, OpCaseError, type OpCase, type OpDef } from './types';

const SYNTAX = 'ne0xne1xne2xne3 of dst, then repeats r0[xr1xr2xr3] (src0 is ne·r; missing repeats are 1)';

const LAYOUTS = [
  { name: 'contiguous', doc: 'src0 packed [ne0·r0, ne1·r1, ne2·r2, ne3·r3]; dst packed' },
  { name: 'src0-rows-strided', doc: 'src0 is a view whose rows sit in a wider packed tensor (odd row stride)' },
  { name: 'src0-permuted', doc: 'src0 is permute(0,2,1,3) of a packed tensor (rows contiguous, planes swapped)' },
] as const;

/** ggml_repeat_back has no op_params: the repeats follow from the two shapes. */
export const PARAMS: readonly ParamSpec[] = Object.freeze([]);

function makeCase(dims: readonly number[], layout: string = 'contiguous', params: Readonly<Record<string, number>> = {}): OpCase {
  if (dims.length < 4 || dims.length > 8) throw new OpCaseError(`REPEAT_BACK takes 4 to 8 dims (${SYNTAX}), got ${dims.length}`);
  const checked = checkParams('REPEAT_BACK', PARAMS, params);
  const ne = dims.slice(0, 4);
  const nr = [0, 1, 2, 3].map((d) => dims[4 + d] ?? 1);
  const srcNe = ne.map((n, d) => n * nr[d]);
  const [s0, s1, s2, s3] = srcNe;
  let src0 = contiguous('f32', srcNe);
  switch (layout) {
    case 'contiguous':
      break;
    case 'src0-rows-strided':
      src0 = stridedRows('f32', srcNe, s0 + 3, 1);
      break;
    case 'src0-permuted':
      src0 = permute(contiguous('f32', [s0, s2, s1, s3]), [0, 2, 1, 3]);
      break;
    case 'inplace':
      throw layoutError('REPEAT_BACK', layout, LAYOUTS, 'ggml has no in-place repeat_back');
    default:
      throw layoutError('REPEAT_BACK', layout, LAYOUTS);
  }
  const dst = contiguous('f32', ne);
  if (!canRepeat(dst, src0)) throw new OpCaseError(`REPEAT_BACK: dst ${ne.join('x')} does not repeat into src0 ${srcNe.join('x')} (ggml asserts ggml_can_repeat)`);
  if (!rowsContiguous(src0)) throw new OpCaseError(`REPEAT_BACK: src0 rows must be contiguous (ggml asserts nb00 == sizeof(float)), got nb0 = ${src0.nb[0]} B`);
  return Object.freeze({ op: 'REPEAT_BACK', dims: Object.freeze([...dims]), layout, label: caseLabel(dims, layout, 'contiguous'), srcs: Object.freeze([src0]), dst, inplace: false, params: checked });
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

function nativeParams(c: OpCase): Uint32Array {
  const [src0] = c.srcs;
  const [ne0, ne1, ne2] = c.dst.ne;
  const [, s01, s02, s03] = elementStrides(src0);
  return packParams([ne0, ne1, ne2, nelements(c.dst), ...repeats(c), s01, s02, s03, deviceOffsetElements(src0), deviceOffsetElements(c.dst)]);
}

function native(c: OpCase): KernelSpec {
  return nativeKernel('REPEAT_BACK/repeat_back.wgsl', nativeWgsl, ['src0', 'dst', 'params'], grid2d(Math.ceil(nelements(c.dst) / 256)), nativeParams(c));
}

const NO_GENERATED = 'REPEAT_BACK has no generated kernel yet (it comes with issue 9 Part 1’s families)';

export const REPEAT_BACK: OpDef = {
  name: 'REPEAT_BACK',
  summary: 'dst[k] = Σ over the tiles src0 repeats dst in (ggml_repeat_back, the gradient of REPEAT)',
  shapeSyntax: SYNTAX,
  layouts: LAYOUTS,
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
  ],
  makeCase,
  oracle,
  flops: () => null,
  bytes: (c) => ({ readBytes: nelements(c.srcs[0]) * 4, writeBytes: nelements(c.dst) * 4 }),
  features: (c) => ({ ne0: c.dst.ne[0], rows: c.dst.ne[1] * c.dst.ne[2] * c.dst.ne[3], n: nelements(c.dst), repeats: nelements(c.srcs[0]) / nelements(c.dst) }),
  native,
  family: 'elementwise',
  require: (c, adapter) => commonRejection(c, adapter),
  fits: () => [NO_GENERATED],
  generate: (s: Schedule, c: OpCase) => {
    throw new OpCaseError(`schedule ${scheduleKey(s)} cannot take REPEAT_BACK ${c.label}: ${NO_GENERATED}`);
  },
};
