// The op kits: an element-wise op is one small declaration — ggml name, params, the element
// formula in f64 (the oracle) and in WGSL (one snippet for both paths), layouts, matrix, bench
// case — and the kit builds the full OpDef: the case, the oracle, the native kernel from the
// family's hand-written template (kernels/unary/unary.wgsl, kernels/binary/binary.wgsl, the op's
// snippet substituted), the generated path through the elementwise family, bytes and features.
//
// A snippet is a WGSL expression of type T (f32 in the native template, f32 or vecN<f32> in the
// generated kernel) over the operand names, the op's params by name and its constants; write a
// scalar that must match T as T(...) (`clamp(x, T(min), T(max))`).
import binaryWgsl from '../../../kernels/binary/binary.wgsl?raw';
import unaryWgsl from '../../../kernels/unary/unary.wgsl?raw';
import { f } from '../codegen/wgsl';
import { uniformSchema, type UniformType } from '../codegen/uniforms';
import { ELEMENTWISE, type ElementwiseSnippet } from '../families/elementwise';
import { generatedPath } from '../families/types';
import { gather } from '../hostdata';
import { grid2d, nativeTemplated, type KernelSpec } from '../kernel';
import { nelements } from '../tensor';
import { BROADCAST_LAYOUTS, broadcastOracle, makeBroadcastCase } from './broadcast';
import { commonRejection } from './contract';
import { makeUnaryCase, spreadInputs, UNARY_LAYOUTS, UNARY_MATRIX } from './elementwise-case';
import { eachElementOnce, rowFeatures, type BenchCase, type LayoutSpec, type MatrixEntry, type OpCase, type OpDef, type ParamSpec, type Rejection } from './types';

type Params = Readonly<Record<string, number>>;

/** One element's f64 value and the magnitude its rounding scales with (the bound's epsFloor). */
export interface ElementRef {
  readonly ref: number;
  readonly epsFloor: number;
}

/** What every kit declaration states. */
interface KitSpec {
  /** ggml's name ('SILU', 'ADD'). */
  readonly name: string;
  readonly summary: string;
  /** ggml's op_params (f32 here); default none. Each is a WGSL name in the snippet. */
  readonly params?: readonly ParamSpec[];
  readonly layouts?: readonly LayoutSpec[];
  readonly matrix: readonly MatrixEntry[];
  /** f32 constants of the snippet (ggml's coefficients), baked into both kernels. */
  readonly constants?: Params;
  /** Module-scope WGSL functions the snippet calls, over T (an erf the language lacks). */
  readonly functions?: string;
  /** The snippet for a case's params (default: the same for every case). */
  readonly expr: string | ((params: Params) => string);
  /** Seeded sources uniform in [-s, s) per source (default: the lab's [-1, 1) for each). */
  readonly inputScale?: number | readonly number[];
  /** The op's input domain: each seeded value r in [-1, 1) becomes domain(r, source) (LOG: x > 0). */
  readonly domain?: (r: number, source: number) => number;
  /** Seeded inputs of another shape (a domain: LOG and SQRT take x > 0). */
  readonly inputs?: (c: OpCase, seed: number) => ArrayBuffer[];
  /** The bench's llama-sized case (default 4096×4096 in the first layout). */
  readonly bench?: BenchCase;
  /** A contract rejection beyond the common ones (sizes, u32 indices). */
  readonly require?: (c: OpCase) => Rejection | null;
}

export interface UnarySpec extends KitSpec {
  /** ggml's formula in f64 with the element's epsFloor (default |ref|: one rounding of the result). */
  readonly element: (x: number, params: Params) => ElementRef | number;
}

export interface BinarySpec extends KitSpec {
  readonly element: (a: number, b: number) => ElementRef | number;
  /** The operands' names in the snippet (default a, b). */
  readonly operands?: readonly [string, string];
}

const NATIVE_WG = 256;

/** The unary matrix with `params` on its second case (odd rows): a param op covers a non-default value. */
export function UNARY_MATRIX_WITH(params: Params): readonly MatrixEntry[] {
  return UNARY_MATRIX.map((e, i) => (i === 1 ? { ...e, params } : e));
}

/** A binary op's matrix: every broadcast layout once, odd and even rows (MUL's). */
export const BINARY_MATRIX: readonly MatrixEntry[] = Object.freeze([
  { dims: [4096, 16], layout: 'contiguous' },
  { dims: [4093, 7], layout: 'contiguous' },
  { dims: [2048, 16], layout: 'inplace' },
  { dims: [4096, 16], layout: 'broadcast-row' },
  { dims: [1000, 11, 3], layout: 'broadcast-col' },
  { dims: [4096, 8], layout: 'src0-rows-strided' },
  { dims: [129, 8, 5], layout: 'src1-permuted' },
  { dims: [256, 64], layout: 'src1-transposed' },
]);
const DEFAULT_BENCH: BenchCase = Object.freeze({ dims: [4096, 4096] });

const exprOf = (spec: KitSpec, p: Params) => (typeof spec.expr === 'string' ? spec.expr : spec.expr(p));
const asRef = (e: ElementRef | number): ElementRef => (typeof e === 'number' ? { ref: e, epsFloor: Math.abs(e) } : e);

/** The snippet's f32 values: its constants and the case's params, each baked as `const name: f32`. */
function bakedConstants(spec: KitSpec, p: Params): Params {
  return { ...(spec.constants ?? {}), ...Object.fromEntries((spec.params ?? []).map((q) => [q.name, p[q.name]])) };
}

/**
 * The native kernel from a family template: the shared Tensor descriptors of `tensors`, then the
 * op's f32 params in the uniform; the op's snippet, constants and operand names substituted.
 * Labelled 'native:<OP> (<template>)' so results name the op and the file that ran.
 */
export function templateNative(
  c: OpCase,
  template: 'unary/unary.wgsl' | 'binary/binary.wgsl',
  tensors: Readonly<Record<string, OpCase['dst']>>,
  expr: string,
  opts: { params?: readonly ParamSpec[]; module?: string; operands?: readonly [string, string]; sameShape?: boolean } = {},
): KernelSpec {
  const params = opts.params ?? [];
  const schema = uniformSchema('Params', {
    ...Object.fromEntries(Object.keys(tensors).map((k) => [k, 'tensor' as UniformType])),
    ...Object.fromEntries(params.map((q) => [q.name, 'f32' as UniformType])),
  });
  const values = { ...tensors, ...Object.fromEntries(params.map((q) => [q.name, Math.fround(c.params[q.name])])) };
  const roles = template === 'unary/unary.wgsl' ? (c.inplace ? (['dst', 'params'] as const) : (['src0', 'dst', 'params'] as const)) : c.inplace ? (['dst', 'src1', 'params'] as const) : (['src0', 'src1', 'dst', 'params'] as const);
  const [A, B] = opts.operands ?? ['a', 'b'];
  const defines = {
    INPLACE: c.inplace,
    SAME_SHAPE: opts.sameShape === true,
    WG: NATIVE_WG,
    OP: expr,
    A,
    B,
    CONSTS: opts.module ?? '',
    PARAM_LETS: params.map((q) => `  let ${q.name} = p.${q.name};`).join('\n'),
  };
  const k = nativeTemplated(template, template === 'unary/unary.wgsl' ? unaryWgsl : binaryWgsl, roles, grid2d(Math.ceil(nelements(c.dst) / NATIVE_WG)), schema, values, defines);
  return { ...k, label: k.label.replace(`native:${template}`, `native:${c.op} (${template})`) };
}

/** Seeded sources in [-1, 1) (spreadInputs at scale 1) with every value mapped into the op's domain. */
export function mapInputs(c: OpCase, seed: number, domain: (r: number, source: number) => number): ArrayBuffer[] {
  return spreadInputs(c, seed, c.srcs.map(() => 1)).map((buf, i) => {
    const f = new Float32Array(buf);
    for (let k = 0; k < f.length; k++) f[k] = domain(f[k], i);
    return buf;
  });
}

/** The snippet's module-scope WGSL: its constants, then its functions. */
const moduleText = (spec: KitSpec, constants: Params) => [...Object.entries(constants).map(([k, v]) => `const ${k}: f32 = ${f(v)};`), ...(spec.functions ? [spec.functions.trim()] : [])].join('\n');

/** The parts of an OpDef every element-wise kit op shares: flops, bytes, features, contract, bench. */
function common(spec: KitSpec, snippet: (c: OpCase) => ElementwiseSnippet) {
  const generated = generatedPath(ELEMENTWISE, snippet);
  const scales = spec.inputScale;
  const spread = scales === undefined ? undefined : (c: OpCase, seed: number) => spreadInputs(c, seed, typeof scales === 'number' ? c.srcs.map(() => scales) : scales);
  const domain = spec.domain;
  const inputs = spec.inputs ?? spread ?? (domain ? (c: OpCase, seed: number) => mapInputs(c, seed, domain) : undefined);
  return {
    name: spec.name,
    summary: spec.summary,
    shapeSyntax: 'ne0xne1[xne2xne3] of dst',
    params: spec.params ?? [],
    matrix: spec.matrix,
    ...(inputs ? { inputs } : {}),
    flops: () => null,
    bytes: eachElementOnce,
    features: rowFeatures,
    bench: spec.bench ?? DEFAULT_BENCH,
    family: generated.family,
    require: (c: OpCase, adapter: Parameters<OpDef['require']>[1]) => commonRejection(c, adapter) ?? spec.require?.(c) ?? null,
    fits: generated.fits,
    generate: generated.generate,
  };
}

/** A unary op (GGML_OP_UNARY and its kin): dst = f(x), dst of src0's shape, the unary views. */
export function defineUnary(spec: UnarySpec): OpDef {
  const layouts = spec.layouts ?? UNARY_LAYOUTS;
  const params = spec.params ?? [];
  const snippet = (c: OpCase): ElementwiseSnippet => ({
    sources: [{ name: 'x', tensor: c.srcs[0], binding: c.inplace ? 'dst' : 'src0' }],
    outputs: [{ tensor: c.dst, binding: 'dst', expr: exprOf(spec, c.params) }],
    constants: bakedConstants(spec, c.params),
    ...(spec.functions ? { functions: spec.functions } : {}),
  });
  return {
    ...common(spec, snippet),
    layouts,
    makeCase: (dims, layout = layouts[0].name, given = {}) => makeUnaryCase(spec.name, dims, layout, params, given, layouts),
    oracle: (c, srcs) => {
      const x = gather(c.srcs[0], srcs[0]);
      const ref = new Float64Array(x.length);
      const epsFloor = new Float64Array(x.length);
      for (let i = 0; i < x.length; i++) {
        const e = asRef(spec.element(x[i], c.params));
        ref[i] = e.ref;
        epsFloor[i] = e.epsFloor;
      }
      return { ref, epsFloor, terms: 1 };
    },
    native: (c) => templateNative(c, 'unary/unary.wgsl', { src0: c.srcs[0], dst: c.dst }, exprOf(spec, c.params), { params, module: moduleText(spec, spec.constants ?? {}) }),
  };
}

/** The name this kit had before the binary and row kits: ops written against it keep working. */
export const defineUnaryOp = defineUnary;
export type UnaryOpSpec = UnarySpec;

/** A binary op with ggml's broadcast (ggml_can_repeat(b, a)): dst = f(a, b), dst of src0's shape. */
export function defineBinary(spec: BinarySpec): OpDef {
  const [A, B] = spec.operands ?? ['a', 'b'];
  const params = spec.params ?? [];
  const snippet = (c: OpCase): ElementwiseSnippet => ({
    sources: [
      { name: A, tensor: c.srcs[0], binding: c.inplace ? 'dst' : 'src0' },
      { name: B, tensor: c.srcs[1], binding: 'src1' },
    ],
    outputs: [{ tensor: c.dst, binding: 'dst', expr: exprOf(spec, c.params) }],
    constants: bakedConstants(spec, c.params),
    ...(spec.functions ? { functions: spec.functions } : {}),
  });
  return {
    ...common(spec, snippet),
    layouts: BROADCAST_LAYOUTS,
    makeCase: (dims, layout = 'contiguous', given = {}) => makeBroadcastCase(spec.name, dims, layout, params, given),
    oracle: (c, srcs) => broadcastOracle(c, srcs, (a, b) => asRef(spec.element(a, b)).ref, (a, b) => asRef(spec.element(a, b)).epsFloor),
    native: (c) => templateNative(c, 'binary/binary.wgsl', { src0: c.srcs[0], src1: c.srcs[1], dst: c.dst }, exprOf(spec, c.params), { module: moduleText(spec, spec.constants ?? {}), operands: [A, B] }),
  };
}
