// What the elementwise training ops (MUL, SCALE, SILU, SILU_BACK, GELU, GLU, ACC) share: dims →
// ne, declared params checked by name, type and range, the unary view layouts, the fields the
// native kernels' uniforms carry per tensor, and the bound widening of exp-based formulas.
import { deviceOffsetElements, gather, randomBuffer } from '../hostdata';
import { grid2d, type KernelSpec, nativeKernel, packParams } from '../kernel';
import { contiguous, elementStrides, nelements, permute, rowsContiguous, stridedRows, typeSizeBytes, type TensorDesc } from '../tensor';
import { commonRejection } from './contract';
import { caseLabel, OpCaseError, rowFeatures, type LayoutSpec, type MatrixEntry, type OpCase, type OpDef } from './types';

/** One op parameter as the op declares it (ggml keeps it in op_params). */
export interface ParamSpec {
  readonly name: string;
  /** 'f32': any finite number in range, rounded to f32 as ggml stores it; 'i32': an integer. */
  readonly type: 'f32' | 'i32';
  readonly default: number;
  readonly min?: number;
  readonly max?: number;
  /** An enum stored as ggml's integer: the allowed values and their names. */
  readonly values?: Readonly<Record<number, string>>;
  readonly doc: string;
}

function allowed(p: ParamSpec): string {
  if (p.values) return Object.entries(p.values).map(([v, name]) => `${v} (${name})`).join(', ');
  const lo = p.min === undefined ? '' : `≥ ${p.min}`;
  const hi = p.max === undefined ? '' : `≤ ${p.max}`;
  return [p.type === 'i32' ? 'an integer' : 'a finite number', lo, hi].filter(Boolean).join(' ');
}

/** The params record of a case: every declared param (defaults filled in), checked; unknown names refused. */
export function checkParams(op: string, specs: readonly ParamSpec[], params: Readonly<Record<string, number>>): Readonly<Record<string, number>> {
  const unknown = Object.keys(params).filter((k) => !specs.some((p) => p.name === k));
  if (unknown.length) {
    throw new OpCaseError(specs.length ? `${op} has no param ${unknown.map((k) => `'${k}'`).join(', ')} (params: ${specs.map((p) => p.name).join(', ')})` : `${op} takes no params, got ${unknown.join(', ')}`);
  }
  const out: Record<string, number> = {};
  for (const p of specs) {
    const v = params[p.name] ?? p.default;
    const ok =
      typeof v === 'number' &&
      Number.isFinite(v) &&
      (p.type !== 'i32' || Number.isInteger(v)) &&
      (p.min === undefined || v >= p.min) &&
      (p.max === undefined || v <= p.max) &&
      (!p.values || v in p.values);
    if (!ok) throw new OpCaseError(`${op}: param ${p.name} must be ${allowed(p)}, got ${v}`);
    out[p.name] = p.type === 'f32' ? Math.fround(v) : v;
  }
  return Object.freeze(out);
}

/** 1 to 4 dims → ne[4], naming the op's shape syntax when the count is wrong. */
export function dimsNe(op: string, dims: readonly number[], syntax: string): number[] {
  if (dims.length < 1 || dims.length > 4) throw new OpCaseError(`${op} takes 1 to 4 dims (${syntax}), got ${dims.length}`);
  return [1, 1, 1, 1].map((one, i) => dims[i] ?? one);
}

export function noLayout(op: string, layout: string, layouts: readonly LayoutSpec[]): OpCaseError {
  return new OpCaseError(`${op} has no layout '${layout}' (layouts: ${layouts.map((l) => l.name).join(', ')})`);
}

/** ggml_is_contiguous_1: rows contiguous; dims 2 and 3 packed over the rows, whose stride is free. */
export function isContiguous1(t: TensorDesc): boolean {
  const ts = typeSizeBytes[t.type];
  if (t.ne[0] !== 1 && t.nb[0] !== ts) return false;
  let next = t.ne[1] * t.nb[1];
  for (const d of [2, 3]) {
    if (t.ne[d] !== 1 && t.nb[d] !== next) return false;
    next *= t.ne[d];
  }
  return true;
}

/** The views a ggml unary op (ggml_unary_impl asserts ggml_is_contiguous_rows(a)) is built on. */
export const UNARY_LAYOUTS: readonly LayoutSpec[] = Object.freeze([
  { name: 'contiguous', doc: 'src0 and dst packed, same shape' },
  { name: 'inplace', doc: 'the *_inplace form: dst is a view of src0 itself' },
  { name: 'src0-rows-strided', doc: 'src0 is a view whose rows sit in a wider packed tensor (odd row stride, one element in)' },
  { name: 'src0-permuted', doc: 'src0 is permute(0,2,1,3) of a packed tensor (rows contiguous, planes swapped)' },
]);

/** A one-source case whose dst has src0's shape: a packed new tensor, or src0 itself in place. */
export function makeUnaryCase(op: string, dims: readonly number[], layout: string, params: Readonly<Record<string, number>>, layouts: readonly LayoutSpec[] = UNARY_LAYOUTS): OpCase {
  const ne = dimsNe(op, dims, 'ne0xne1[xne2xne3] of dst');
  const [ne0, ne1, ne2, ne3] = ne;
  if (!layouts.some((l) => l.name === layout)) throw noLayout(op, layout, layouts);
  let src0 = contiguous('f32', ne);
  if (layout === 'src0-rows-strided') src0 = stridedRows('f32', ne, ne0 + 3, 1);
  if (layout === 'src0-permuted') src0 = permute(contiguous('f32', [ne0, ne2, ne1, ne3]), [0, 2, 1, 3]);
  if (!rowsContiguous(src0)) throw new OpCaseError(`${op}: src0 rows must be contiguous (ggml asserts ggml_is_contiguous_rows), got nb0 = ${src0.nb[0]} B`);
  const inplace = layout === 'inplace';
  const dst = inplace ? { ...src0, layout: 'inplace' } : contiguous('f32', ne);
  return Object.freeze({ op, dims: Object.freeze([...dims]), layout, label: caseLabel(dims, layout, layouts[0].name), srcs: Object.freeze([src0]), dst, inplace, params });
}

/** A tensor's fields in a native kernel's uniform: element strides s0..s3, then its device offset. */
export function tensorFields(t: TensorDesc): number[] {
  return [...elementStrides(t), deviceOffsetElements(t)];
}

/**
 * How far an exp-based formula's bound widens: WGSL's f32 exp (and tanh, built on it) is
 * accurate to 3 + 2·|x| ULP, so 8 ULP of the element bound become 8 + 2·|arg| ULP.
 */
export function expWidening(arg: number): number {
  return 1 + Math.abs(arg) / 4;
}

/**
 * The generated path of an op that has none yet (registry state native-only until the
 * elementwise family takes op snippets): every schedule is refused with the reason.
 */
export function noGeneratedPath(op: string): { fits: () => string[]; generate: () => never } {
  const reason = `${op} has no generated kernel yet (native-only until the elementwise family takes its snippet)`;
  return {
    fits: () => [reason],
    generate: () => {
      throw new OpCaseError(reason);
    },
  };
}

/**
 * A unary op's native kernel: one element per thread over dst, uniform = dst ne, src0's and dst's
 * strides and offsets, the element count, then the op's own words (`extra`, e.g. f32 bits).
 */
export function unaryNative(c: OpCase, files: { plain: [string, string]; inplace: [string, string] }, extra: readonly number[] = []): KernelSpec {
  const uniforms = packParams([...c.dst.ne, ...tensorFields(c.srcs[0]), ...tensorFields(c.dst), nelements(c.dst), ...extra]);
  const dispatch = grid2d(Math.ceil(nelements(c.dst) / 256));
  const [file, wgsl] = c.inplace ? files.inplace : files.plain;
  return nativeKernel(file, wgsl, c.inplace ? ['dst', 'params'] : ['src0', 'dst', 'params'], dispatch, uniforms);
}

/**
 * Seeded sources uniform in [-scale, scale) (every byte of each buffer, as randomBuffer): the
 * activations take arguments past [-1, 1) so their tails and saturation are checked too.
 */
export function spreadInputs(c: OpCase, seed: number, scales: readonly number[]): ArrayBuffer[] {
  return c.srcs.map((t, i) => {
    const buf = randomBuffer(t, seed * 7919 + i * 104729);
    const f = new Float32Array(buf);
    for (let k = 0; k < f.length; k++) f[k] *= scales[i];
    return buf;
  });
}

/** What a unary op (one source, dst of its shape) states; defineUnaryOp builds the rest of its OpDef. */
export interface UnaryOpSpec {
  readonly name: string;
  readonly summary: string;
  readonly params: readonly ParamSpec[];
  readonly layouts?: readonly LayoutSpec[];
  readonly matrix: readonly MatrixEntry[];
  /** The f64 value of one element and the magnitude its rounding scales with (epsFloor). */
  readonly element: (x: number, params: Readonly<Record<string, number>>) => { ref: number; epsFloor: number };
  /** Native WGSL [file, text], plain and in place. */
  readonly wgsl: { plain: [string, string]; inplace: [string, string] };
  /** Extra uniform words after the shared fields (f32 bits of params). */
  readonly uniformExtra?: (c: OpCase) => number[];
  /** Inputs uniform in [-inputScale, inputScale) (default 1). */
  readonly inputScale?: number;
}

export function defineUnaryOp(spec: UnaryOpSpec): OpDef {
  const layouts = spec.layouts ?? UNARY_LAYOUTS;
  return {
    name: spec.name,
    summary: spec.summary,
    shapeSyntax: 'ne0xne1[xne2xne3] of dst',
    layouts,
    matrix: spec.matrix,
    makeCase: (dims, layout = layouts[0].name, params = {}) => makeUnaryCase(spec.name, dims, layout, checkParams(spec.name, spec.params, params), layouts),
    oracle: (c, srcs) => {
      const x = gather(c.srcs[0], srcs[0]);
      const ref = new Float64Array(x.length);
      const epsFloor = new Float64Array(x.length);
      for (let i = 0; i < x.length; i++) {
        const e = spec.element(x[i], c.params);
        ref[i] = e.ref;
        epsFloor[i] = e.epsFloor;
      }
      return { ref, epsFloor, terms: 1 };
    },
    ...(spec.inputScale ? { inputs: (c: OpCase, seed: number) => spreadInputs(c, seed, [spec.inputScale!]) } : {}),
    flops: () => null,
    bytes: (c) => ({ readBytes: nelements(c.srcs[0]) * 4, writeBytes: nelements(c.dst) * 4 }),
    features: rowFeatures,
    native: (c) => unaryNative(c, spec.wgsl, spec.uniformExtra?.(c)),
    family: 'elementwise',
    require: (c, adapter) => commonRejection(c, adapter),
    ...noGeneratedPath(spec.name),
  };
}
