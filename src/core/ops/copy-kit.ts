// The copy kit (the copy/layout family: ggml_cpy, ggml_cont, ggml_dup): dst element k (ggml order
// of dst's own shape) = src element k (ggml order of src's shape), converted to dst's type. An op
// declares only its layouts — which source view and which dst each builds — and its matrix; the
// kit gives the case, the oracle, the native kernel (kernels/CPY/cpy.wgsl, the family's
// hand-written template, over the shared Tensor uniform), the generated path (the elementwise
// family), bytes, features and the contract. ggml's CPU path (ggml_compute_forward_dup) converts
// through f32, so f32 → f16 is round-to-nearest-even.
import nativeWgsl from '../../../kernels/CPY/cpy.wgsl?raw';
import { uniformSchema } from '../codegen/uniforms';
import { u } from '../codegen/wgsl';
import { ELEMENTWISE, type ElementwiseSnippet } from '../families/elementwise';
import { generatedPath } from '../families/types';
import { deviceOffsetElements, f16BitsToF32, f32ToF16Bits, gather } from '../hostdata';
import { grid2d, nativeTemplated, type KernelSpec } from '../kernel';
import { contiguous, elementStrides, nelements, nrows, sameShape, transpose, typeSizeBytes, type TensorDesc } from '../tensor';
import { commonRejection } from './contract';
import { dimsNe, layoutSpecs, PACKED, pickLayout, PLANES_SWAPPED, ROWS_STRIDED } from './elementwise-case';

export { permutedView } from './elementwise-case';
import { caseLabel, parseParams, OpCaseError, type BenchCase, type LayoutSpec, type MatrixEntry, type OpCase, type OpDef, type Rejection } from './types';

/** What one copy layout builds from the dims' ne: the source view and the destination. */
export interface CopyLayout extends LayoutSpec {
  readonly build: (ne: readonly number[]) => { readonly src: TensorDesc; readonly dst: TensorDesc };
}

export interface CopySpec {
  /** ggml's name ('CPY', 'CONT'). */
  readonly name: string;
  readonly summary: string;
  /** What the dims are ('ne0xne1[xne2xne3] of src'). */
  readonly shapeSyntax: string;
  /** The first is the default. */
  readonly layouts: readonly CopyLayout[];
  readonly matrix: readonly MatrixEntry[];
  readonly bench?: BenchCase;
}

/** The source views copies read, each into a packed f32 dst of the same shape. */
export const SOURCE_VIEWS: Readonly<Record<string, (ne: readonly number[]) => TensorDesc>> = {
  contiguous: PACKED,
  'src-permuted': PLANES_SWAPPED,
  'src-transposed': ([ne0, ne1, ne2, ne3]) => transpose(contiguous('f32', [ne1, ne0, ne2, ne3])),
  'src-rows-strided': ROWS_STRIDED,
};

/** A layout whose source is one of SOURCE_VIEWS (or `src`) and whose dst is packed f32 of its shape. */
export function intoPacked(name: string, doc: string, src: (ne: readonly number[]) => TensorDesc = SOURCE_VIEWS[name]): CopyLayout {
  return { name, doc, build: (ne) => ({ src: src(ne), dst: contiguous('f32', ne) }) };
}

/** Checks the dims of a copy's source: 1 to 4 positive integers, padded with ones. */
export function copyDims(op: string, dims: readonly number[]): number[] {
  return dimsNe(op, dims, 'ne0xne1[xne2xne3] of src');
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

/** The shared descriptors of src and dst; words: the u32 words an f16 dst touches (0 for f32). */
const COPY_PARAMS = uniformSchema('Params', { src0: 'tensor', dst: 'tensor', words: 'u32' });

/** The native copy: one thread per dst element (f32) or per dst u32 word (two f16 halves). */
export function copyNative(c: OpCase): KernelSpec {
  const dst = c.dst;
  const n = nelements(dst);
  const f16 = dst.type === 'f16';
  const offd = deviceOffsetElements(dst);
  const words = f16 ? Math.floor((offd + n - 1) / 2) - Math.floor(offd / 2) + 1 : 0;
  const threads = f16 ? words : n;
  return nativeTemplated('CPY/cpy.wgsl', nativeWgsl, ['src0', 'dst', 'params'], grid2d(Math.ceil(threads / NATIVE_WG)), COPY_PARAMS, { src0: c.srcs[0], dst, words }, { F16: f16, WG: NATIVE_WG });
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

/** An f16 dst is stored as f16 by the generated kernel: without shader-f16 it stays native (declared). */
export function copyRejection(c: OpCase, adapter: Parameters<OpDef['require']>[1]): Rejection | null {
  const common = commonRejection(c, adapter);
  if (common) return common;
  if (c.dst.type === 'f16' && !adapter.features.includes('shader-f16')) {
    return { code: 'no-shader-f16', reason: "dst is f16 and this adapter has no 'shader-f16': the generated kernel stores f16 (the native one packs pairs with pack2x16float)" };
  }
  return null;
}

/** Copies move every element once each way. */
export function copyBytes(c: OpCase) {
  const n = nelements(c.dst);
  return { readBytes: n * typeSizeBytes[c.srcs[0].type], writeBytes: n * typeSizeBytes[c.dst.type] };
}

export function copyFeatures(c: OpCase): Readonly<Record<string, number>> {
  const src = c.srcs[0];
  return { ne0: src.ne[0], rows: nrows(src), n: nelements(src), srcRowsContiguous: src.nb[0] === typeSizeBytes[src.type] ? 1 : 0 };
}

const generated = generatedPath(ELEMENTWISE, copySnippet);

/** A copy op (CPY, CONT): no op_params; dims are src's ne; each layout builds src and dst. */
export function defineCopyOp(spec: CopySpec): OpDef {
  const { name, layouts } = spec;
  const makeCase = (dims: readonly number[], layout: string = layouts[0].name, params: Readonly<Record<string, number>> = {}): OpCase => {
    const ne = copyDims(name, dims);
    parseParams(name, [], params);
    const { src, dst } = pickLayout(name, layouts, layout).build(ne);
    if (nelements(src) !== nelements(dst)) throw new OpCaseError(`${name}: ggml asserts nelements(a) == nelements(b), got ${nelements(src)} and ${nelements(dst)}`);
    return Object.freeze({ op: name, dims: Object.freeze([...dims]), layout, label: caseLabel(dims, layout, layouts[0].name), srcs: Object.freeze([src]), dst, inplace: false, params: Object.freeze({}) });
  };
  return {
    name,
    summary: spec.summary,
    shapeSyntax: spec.shapeSyntax,
    bench: spec.bench ?? { dims: [4096, 4096] },
    layouts: layoutSpecs(layouts),
    params: [],
    matrix: spec.matrix,
    makeCase,
    oracle: copyOracle,
    flops: () => null,
    bytes: copyBytes,
    features: copyFeatures,
    native: copyNative,
    family: generated.family,
    require: copyRejection,
    fits: generated.fits,
    generate: generated.generate,
  };
}
