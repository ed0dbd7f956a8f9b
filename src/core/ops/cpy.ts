// CPY — ggml_cpy(a, b): a's elements written into b (the result is a view of b), in ggml
// order on both sides: dst element k of b's own shape = src element k of a's shape; ggml asserts
// only nelements(a) == nelements(b). ggml's CPU path (ggml_compute_forward_dup) converts through
// f32, so f32 → f16 is round-to-nearest-even. Here src is any f32 view (permuted, transposed,
// strided rows, an offset slice); dst is packed f32, a packed f32 view at an offset inside a
// larger buffer (llama's write of K into its cache), or packed f16.
// CONT (cont.ts) is the same copy into a new packed tensor of a's shape: it shares this file's
// oracle and native kernel, as ggml_compute_forward_cont calls ggml_compute_forward_dup.
import nativeWgsl from '../../../kernels/CPY/cpy.wgsl?raw';
import { u } from '../codegen/wgsl';
import { uniformSchema } from '../codegen/uniforms';
import { ELEMENTWISE, type ElementwiseSnippet } from '../families/elementwise';
import { generatedPath } from '../families/types';
import { deviceOffsetElements, f16BitsToF32, f32ToF16Bits, gather } from '../hostdata';
import { grid2d, type KernelSpec, nativeTemplated } from '../kernel';
import { contiguous, elementStrides, nelements, nrows, permute, sameShape, stridedRows, transpose, view, typeSizeBytes, type TensorDesc } from '../tensor';
import { commonRejection } from './contract';
import { caseLabel, OpCaseError, parseParams, type OpCase, type OpDef, type ParamSpec, type Rejection } from './types';

/** CPY has no op_params. */
export const PARAMS: readonly ParamSpec[] = [];

const LAYOUTS = [
  { name: 'contiguous', doc: 'packed f32 src → packed f32 dst, same shape' },
  { name: 'src-permuted', doc: 'src is permute(0,2,1,3) of a packed tensor (the head shuffle before attention)' },
  { name: 'src-transposed', doc: 'src is the transpose of a packed tensor (rows not contiguous)' },
  { name: 'src-rows-strided', doc: 'src rows sit in a wider packed tensor (odd row stride, one element in)' },
  { name: 'dst-view', doc: 'dst is a 1-D view at an offset inside a larger packed buffer (writing K into a KV cache)' },
  { name: 'to-f16', doc: 'packed f32 src → packed f16 dst (round to nearest even)' },
  { name: 'permuted-to-f16', doc: 'src is permute(0,2,1,3) of a packed f32 tensor → packed f16 dst' },
] as const;

/** Checks the dims of a copy's source: 1 to 4 positive integers, padded with ones. */
export function copyDims(op: string, dims: readonly number[]): number[] {
  if (dims.length < 1 || dims.length > 4) throw new OpCaseError(`${op} takes 1 to 4 dims (ne0xne1[xne2xne3] of src), got ${dims.length}`);
  return [1, 1, 1, 1].map((one, i) => dims[i] ?? one);
}

/** The source views copies read; `null` for a layout that is not a source view. */
export function sourceView(ne: readonly number[], layout: string): TensorDesc | null {
  const [ne0, ne1, ne2, ne3] = ne;
  switch (layout) {
    case 'contiguous':
      return contiguous('f32', ne);
    case 'src-permuted':
      return permute(contiguous('f32', [ne0, ne2, ne1, ne3]), [0, 2, 1, 3]);
    case 'src-transposed':
      return transpose(contiguous('f32', [ne1, ne0, ne2, ne3]));
    case 'src-rows-strided':
      return stridedRows('f32', ne, ne0 + 3, 1);
    default:
      return null;
  }
}

function makeCase(dims: readonly number[], layout: string = 'contiguous', params: Readonly<Record<string, number>> = {}): OpCase {
  const ne = copyDims('CPY', dims);
  parseParams('CPY', PARAMS, params);
  const n = nelements(contiguous('f32', ne));
  let src = sourceView(ne, layout);
  let dst: TensorDesc;
  switch (layout) {
    case 'contiguous':
    case 'src-permuted':
    case 'src-transposed':
    case 'src-rows-strided':
      dst = contiguous('f32', ne);
      break;
    case 'dst-view': {
      // A cache of n + 2·ne0 + 5 elements; the copy lands one row plus five elements in.
      src = contiguous('f32', ne);
      const cache = contiguous('f32', [n + 2 * ne[0] + 5]);
      dst = view(cache, [n], [n * 4, n * 4, n * 4], (ne[0] + 5) * 4, 'view-1d');
      break;
    }
    case 'to-f16':
      src = contiguous('f32', ne);
      dst = contiguous('f16', ne);
      break;
    case 'permuted-to-f16':
      src = sourceView(ne, 'src-permuted');
      dst = contiguous('f16', ne);
      break;
    default:
      throw new OpCaseError(`CPY has no layout '${layout}' (layouts: ${LAYOUTS.map((l) => l.name).join(', ')})`);
  }
  if (!src) throw new Error(`CPY layout '${layout}' built no source`);
  if (nelements(src) !== nelements(dst)) throw new OpCaseError(`CPY: ggml asserts nelements(a) == nelements(b), got ${nelements(src)} and ${nelements(dst)}`);
  return Object.freeze({ op: 'CPY', dims: Object.freeze([...dims]), layout, label: caseLabel(dims, layout, 'contiguous'), srcs: Object.freeze([src]), dst, inplace: false, params: Object.freeze({}) });
}

/**
 * What ggml_compute_forward_dup stores: the source value, converted to dst's type (f16: round to
 * nearest even). A copy accumulates nothing (k = 1) and its floor is 0: f32 → f32 must be exact
 * bit for bit, f32 → f16 within the f16 bound of the rounded value.
 */
export function copyOracle(c: OpCase, srcs: readonly ArrayBuffer[]) {
  const x = gather(c.srcs[0], srcs[0]);
  const ref = c.dst.type === 'f16' ? x.map((v) => f16BitsToF32(f32ToF16Bits(v))) : x;
  return { ref, epsFloor: new Float64Array(x.length), terms: 1 };
}

const NATIVE_WG = 256;

/** src shape (ne03 follows from n), strides and offset; dst shape, strides and offset (f32) or its words (f16). */
const COPY_PARAMS = uniformSchema('Params', Object.fromEntries(
  ['ne00', 'ne01', 'ne02', 'n', 's00', 's01', 's02', 's03', 'off0', 'ne0', 'ne1', 'ne2', 's0', 's1', 's2', 's3', 'offd', 'words'].map((k) => [k, 'u32' as const]),
));

/** The native copy: one thread per dst element (f32) or per dst u32 word (two f16 halves). */
export function copyNative(c: OpCase): KernelSpec {
  const [src] = c.srcs;
  const dst = c.dst;
  const n = nelements(dst);
  const [s00, s01, s02, s03] = elementStrides(src);
  const [s0, s1, s2, s3] = dst.type === 'f16' ? [0, 0, 0, 0] : elementStrides(dst);
  const offd = deviceOffsetElements(dst);
  const f16 = dst.type === 'f16';
  const words = f16 ? Math.floor((offd + n - 1) / 2) - Math.floor(offd / 2) + 1 : 0;
  const [ne00, ne01, ne02] = src.ne;
  const [ne0, ne1, ne2] = dst.ne;
  const values = { ne00, ne01, ne02, n, s00, s01, s02, s03, off0: deviceOffsetElements(src), ne0, ne1, ne2, s0, s1, s2, s3, offd, words };
  const threads = f16 ? words : n;
  return nativeTemplated('CPY/cpy.wgsl', nativeWgsl, ['src0', 'dst', 'params'], grid2d(Math.ceil(threads / NATIVE_WG)), COPY_PARAMS, values, { F16: f16, WG: NATIVE_WG });
}

/**
 * The copy for the elementwise family: dst's coordinates walk dst; the source is read by its
 * strides when it has dst's shape, else through its own coordinates of dst's linear index.
 */
export function copySnippet(c: OpCase): ElementwiseSnippet {
  const [src] = c.srcs;
  const dst = c.dst;
  return {
    sources: [{ name: 'x', tensor: src, binding: 'src0', ...(sameShape(src, dst) ? {} : { index: reshapedIndex(src, dst) }) }],
    outputs: [{ tensor: dst, binding: 'dst', expr: 'x' }],
  };
}

/** src's element index (device buffer) of dst's linear index k: ggml_dup's element correspondence. */
function reshapedIndex(src: TensorDesc, dst: TensorDesc): string {
  // k = i0 + ne0·(i1 + ne1·(i2 + ne2·i3)) over dst's shape; then src's coordinates of k.
  let below = 1;
  const kTerms: string[] = [];
  for (let d = 0; d < 4; d++) {
    if (dst.ne[d] > 1) kTerms.push(below === 1 ? `i${d}` : `i${d} * ${u(below)}`);
    below *= dst.ne[d];
  }
  const k = kTerms.join(' + ') || '0u';
  const st = elementStrides(src);
  const parts = [u(deviceOffsetElements(src))];
  below = 1;
  for (let d = 0; d < 4; d++) {
    const q = below === 1 ? `(${k})` : `((${k}) / ${u(below)})`;
    if (src.ne[d] > 1) parts.push(`${d === 3 ? q : `(${q} % ${u(src.ne[d])})`} * ${u(st[d])}`);
    below *= src.ne[d];
  }
  return parts.join(' + ');
}

/** An f16 dst is stored as f16 by the generated kernel: without shader-f16 it stays native (declared). */
export function copyRejection(c: OpCase, adapter: Parameters<OpDef['require']>[1]): Rejection | null {
  const common = commonRejection(c, adapter);
  if (common) return common;
  if (c.dst.type === 'f16' && !adapter.features.includes('shader-f16')) {
    return { code: 'no-shader-f16', reason: "dst is f16 and this adapter has no 'shader-f16': the generated kernel stores f16 (the native one packs pairs with pack2x16float)" };
  }
  return null;
}

export const copyGenerated = generatedPath(ELEMENTWISE, copySnippet);

/** Copies move every element once each way. */
export function copyBytes(c: OpCase) {
  const n = nelements(c.dst);
  return { readBytes: n * typeSizeBytes[c.srcs[0].type], writeBytes: n * typeSizeBytes[c.dst.type] };
}

export function copyFeatures(c: OpCase): Readonly<Record<string, number>> {
  const src = c.srcs[0];
  return { ne0: src.ne[0], rows: nrows(src), n: nelements(src), srcRowsContiguous: src.nb[0] === typeSizeBytes[src.type] ? 1 : 0 };
}

export const CPY: OpDef = {
  name: 'CPY',
  bench: { dims: [4096, 4096] },
  summary: "dst = src's elements in ggml order, any f32 view into a packed f32 or f16 tensor (ggml_cpy)",
  shapeSyntax: 'ne0xne1[xne2xne3] of src',
  layouts: LAYOUTS,
  params: PARAMS,
  matrix: [
    { dims: [4096, 9], layout: 'contiguous' },
    { dims: [4093, 7], layout: 'contiguous' },
    { dims: [128, 33, 8], layout: 'src-permuted' },
    { dims: [250, 129], layout: 'src-transposed' },
    { dims: [1000, 33], layout: 'src-rows-strided' },
    { dims: [128, 37, 4], layout: 'dst-view' },
    { dims: [4093, 9], layout: 'to-f16' },
    { dims: [64, 17, 8], layout: 'permuted-to-f16' },
  ],
  makeCase,
  oracle: copyOracle,
  flops: () => null,
  bytes: copyBytes,
  features: copyFeatures,
  native: copyNative,
  family: copyGenerated.family,
  require: copyRejection,
  fits: copyGenerated.fits,
  generate: copyGenerated.generate,
};
