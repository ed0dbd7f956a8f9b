// The row-op kit: a row-reducing op (RMS_NORM, SUM_ROWS, SOFT_MAX and their backward ops, ARGMAX,
// the cross-entropy losses, COUNT_EQUAL) is one declaration — ggml name, params, layouts as the
// sources each one builds, the f64 oracle, its native snippets for kernels/row/row.wgsl and its
// row-family snippet for the generated path — and defineRowOp builds the full OpDef: the case
// (dims, params and layout checked, in that order, with the same words for every op), the native
// kernel on the shared Tensor uniform, the generated path, bytes, features, contract and bench.
import rowWgsl from '../../../kernels/row/row.wgsl?raw';
import { uniformSchema, type UniformType, type UniformValue } from '../codegen/uniforms';
import { NORM, type NormSnippet } from '../families/norm';
import { generatedPath, scheduleKey } from '../families/types';
import { f32Bits, grid2d, nativeTemplated, type BindingRole, type KernelSpec } from '../kernel';
import type { Schedule } from '../schedule/schedule';
import { contiguous, nrows, rowsContiguous, type TensorDesc } from '../tensor';
import { commonRejection } from './contract';
import { noGeneratedPath } from './native-only';
import { dims4, layoutError } from './rows-common';
import { caseLabel, eachElementOnce, OpCaseError, paramsLabel, parseParams, rowFeatures, type BenchCase, type ByteCounts, type LayoutSpec, type MatrixEntry, type OpCase, type OpDef, type OracleResult, type ParamSpec, type Rejection } from './types';

type Params = Readonly<Record<string, number>>;

/** A source read along the row: its name in the snippets and which source it is. */
export interface RowOperand {
  readonly name: string;
  readonly src: 0 | 1 | 2;
  /** Its row is the row's coordinates modulo its shape (SOFT_MAX's mask over heads and batches). */
  readonly broadcast?: boolean;
}

/**
 * An op's snippets for kernels/row/row.wgsl. WGSL names in scope: the operands (per element),
 * `i` (the element's index in the row), `c` (the row's coordinates), `ne` (the ROWS tensor's
 * shape), `len` and `nrows`, `p` (the uniform: p.src0…, p.dst, params, extras), the params by
 * name, `neg_inf` (−∞, when a snippet names it), `total` (the reduction) and what FINISH defines.
 */
export interface RowKernel {
  readonly operands: readonly RowOperand[];
  /** The source whose rows the workgroups walk (default 0). */
  readonly rows?: 0 | 1 | 2;
  /** The fold of each row: a sum or max of an expression, or an accumulator of any WGSL type. */
  readonly reduce: { readonly sum: string } | { readonly max: string } | { readonly acc: string; readonly ident: string; readonly step: string; readonly combine: string };
  /** Statements once per row after the reduction (default `let t = total;`). */
  readonly finish?: readonly string[];
  /** A second f32 sum over the row after FINISH, then its statements (`total2` is the sum). */
  readonly pass2?: { readonly map: string; readonly finish?: readonly string[] };
  /** The dst element's value per element; absent: thread 0 writes `write` (values of the row's first dst elements). */
  readonly out?: string;
  readonly write?: readonly string[];
  /** Statements once per row before the reduction (the row's own values: ALiBi's slope). */
  readonly rowLets?: readonly string[];
  /** Module-scope WGSL (structs and functions the snippets call). */
  readonly functions?: string;
  /** Uniform fields beyond the params, after them. */
  readonly uniforms?: Readonly<Record<string, readonly ['u32' | 'f32', number]>>;
  /** One workgroup: FLAT walks the whole ROWS tensor as one row by element coordinates; allRows walks the rows, FINISH folding each into `run`. */
  readonly flat?: boolean;
  readonly allRows?: { readonly ident: string };
  /** dst as the kernel addresses it (a view of the case's dst) and its WGSL element type. */
  readonly dst?: TensorDesc;
  readonly dstType?: 'f32' | 'i32' | 'u32';
  /** The variant's name in the label (default INPLACE when in place). */
  readonly flags?: readonly string[];
}

const NATIVE_WG = 256;
const WGSL_TYPE = { f32: 'f32', f16: 'u32', i32: 'i32' } as const;
const uses = (text: string, name: string) => new RegExp(`\\b${name}\\b`).test(text);

/** The row template with the op's snippets: one workgroup per row (or one in all), the shared Tensor uniform. */
export function rowNative(c: OpCase, k: RowKernel, params: readonly ParamSpec[] = []): KernelSpec {
  const srcs = c.srcs;
  const dst = k.dst ?? c.dst;
  const reduce = k.reduce;
  const [acc, ident, step, combine] =
    'sum' in reduce ? ['f32', '0.0', `acc += ${reduce.sum};`, 'return a + b;']
    : 'max' in reduce ? ['f32', 'neg_inf', `acc = max(acc, ${reduce.max});`, 'return max(a, b);']
    : [reduce.acc, reduce.ident, reduce.step, reduce.combine];
  const out = k.out ?? '';
  const finish = k.finish ?? ['let t = total;'];
  const texts = [ident, step, ...finish, ...(k.pass2 ? [k.pass2.map, ...(k.pass2.finish ?? [])] : []), out, ...(k.write ?? []), ...(k.rowLets ?? [])].join('\n');
  const extras = Object.entries(k.uniforms ?? {});
  const negInf = uses(texts, 'neg_inf');
  const schema = uniformSchema('Params', {
    ...Object.fromEntries(srcs.map((_, i) => [`src${i}`, 'tensor' as UniformType])),
    dst: 'tensor',
    ...Object.fromEntries(params.map((q) => [q.name, 'f32' as UniformType])),
    ...Object.fromEntries(extras.map(([n, [t]]) => [n, t])),
    ...(negInf ? { neg_inf_bits: 'u32' as UniformType } : {}),
  });
  const values: Record<string, UniformValue> = {
    ...Object.fromEntries(srcs.map((t, i) => [`src${i}`, t])),
    dst,
    ...Object.fromEntries(params.map((q) => [q.name, Math.fround(c.params[q.name])])),
    ...Object.fromEntries(extras.map(([n, [, v]]) => [n, v])),
    ...(negInf ? { neg_inf_bits: f32Bits(-Infinity) } : {}),
  };
  const roles: BindingRole[] = [...(c.inplace ? [] : ['src0' as const]), ...(srcs[1] ? ['src1' as const] : []), ...(srcs[2] ? ['src2' as const] : []), 'dst', 'params'];
  const at = (role: BindingRole) => roles.indexOf(role);
  // The operands a snippet names, read at the row's start + i; in FLAT at element i's coordinates
  // e in the ROWS tensor's shape, which every operand shares (found once per element).
  const loads = (snippet: string) => {
    const used = k.operands.filter((o) => uses(snippet, o.name));
    const index = (o: RowOperand) => (k.flat ? `tensor_at(p.src${o.src}, e)` : `row${o.src} + i`);
    return [...(k.flat && used.length ? ['    let e = tensor_coords(ne, i);'] : []), ...used.map((o) => `    let ${o.name} = load_src${o.src}(${index(o)});`)].join('\n');
  };
  const rowLets = [
    ...(k.flat ? [] : k.operands.map((o) => `let row${o.src} = tensor_at(p.src${o.src}, ${o.broadcast ? `c % p.src${o.src}.ne` : 'c'});`)),
    ...(k.rowLets ?? []),
  ];
  const defines = {
    INPLACE: c.inplace,
    SRC1: !!srcs[1],
    SRC1_F16: srcs[1]?.type === 'f16',
    SRC2: !!srcs[2],
    PASS2: !!k.pass2,
    SCALAR: k.out === undefined,
    FLAT: !!k.flat,
    ALL_ROWS: !!k.allRows,
    WG: NATIVE_WG,
    ROWS: `src${k.rows ?? 0}`,
    B_SRC0: at('src0'), B_SRC1: at('src1'), B_SRC2: at('src2'), B_DST: at('dst'), B_PARAMS: at('params'),
    T_SRC0: WGSL_TYPE[srcs[0].type],
    T_SRC1: srcs[1] ? WGSL_TYPE[srcs[1].type] : 'f32',
    V_SRC1: srcs[1]?.type === 'i32' ? 'i32' : 'f32',
    T_SRC2: srcs[2] ? WGSL_TYPE[srcs[2].type] : 'f32',
    T_DST: k.dstType ?? WGSL_TYPE[c.dst.type],
    PARAM_LETS: [...params.map((q) => `  let ${q.name} = p.${q.name};`), ...(negInf ? ['  let neg_inf = bitcast<f32>(p.neg_inf_bits); // -inf from the host: WGSL has no infinite literal'] : [])].join('\n'),
    FUNCTIONS: k.functions ? `\n${k.functions.trim()}` : '',
    ACC: acc,
    IDENT: ident,
    COMBINE: combine,
    STEP: step,
    LOADS: loads(step),
    FINISH: finish.join('\n  '),
    MAP2: k.pass2?.map ?? '0.0',
    LOADS2: loads(k.pass2?.map ?? ''),
    FINISH2: (k.pass2?.finish ?? []).join('\n  '),
    ROW_LETS: rowLets.map((l) => `  ${l}`).join('\n'),
    RUN_IDENT: k.allRows?.ident ?? '0.0',
    OUT: out || '0.0',
    LOADS_OUT: loads(out),
    WRITE: (k.write ?? []).map((v, i) => `dst[${k.allRows ? 'p.dst.off' : 'rowd'}${i ? ` + ${i}u` : ''}] = ${v};`).join('\n    '),
  };
  const dispatch = k.flat || k.allRows ? ([1, 1, 1] as const) : grid2d(nrows(srcs[k.rows ?? 0]));
  const kernel = nativeTemplated('row/row.wgsl', rowWgsl, roles, dispatch, schema, values, defines);
  const flags = k.flags ?? (c.inplace ? ['INPLACE'] : []);
  return { ...kernel, label: `native:${c.op} (row/row.wgsl)${flags.length ? ` [${flags.join(', ')}]` : ''}` };
}

/** The same operands for the row family's snippet: each at its source's binding (src0 in place: dst's). */
export function familyOperands(c: OpCase, operands: readonly RowOperand[]): NormSnippet['operands'] {
  return operands.map((o) => ({ name: o.name, binding: o.src === 0 && c.inplace ? 'dst' : (`src${o.src}` as const), tensor: c.srcs[o.src] }));
}

/** dst [n] (ARGMAX's) seen as one element per row [1, n]: row i1 writes element i1. */
export function oneElementPerRow(dst: TensorDesc): TensorDesc {
  return { ...dst, ne: [1, dst.ne[0], 1, 1], nb: [dst.nb[0], dst.nb[0], dst.nb[1], dst.nb[1]] };
}

/** What a layout builds: the sources, and dst where it is not src0's shape packed in f32 (in place: src0 itself). */
export interface RowCaseParts {
  readonly srcs: readonly TensorDesc[];
  readonly dst?: TensorDesc;
  readonly inplace?: boolean;
}

export interface RowOpSpec {
  /** ggml's name. */
  readonly name: string;
  readonly summary: string;
  /** Default 'ne0xne1[xne2xne3] of dst'. */
  readonly shapeSyntax?: string;
  readonly layouts: readonly LayoutSpec[];
  readonly params?: readonly ParamSpec[];
  readonly matrix: readonly MatrixEntry[];
  /** Default 4096×4096 in the first layout. */
  readonly bench?: BenchCase;
  /** dims → ne[4] (default: 1 to 4 dims padded with ones). */
  readonly dims?: (dims: readonly number[]) => readonly number[];
  /** The layout's tensors; undefined for a layout the op does not have (the kit names the ones it has). */
  readonly sources: (ne: readonly number[], layout: string, params: Params) => RowCaseParts | undefined;
  /** Sources whose rows ggml asserts contiguous (nb00 == sizeof(float)), by index and name (default: src0). */
  readonly contiguousRows?: readonly (readonly [number, string])[];
  /** ggml's asserts over the built case beyond those; throw OpCaseError. */
  readonly check?: (c: OpCase) => void;
  readonly oracle: (c: OpCase, srcs: readonly ArrayBuffer[]) => OracleResult;
  readonly inputs?: (c: OpCase, seed: number) => ArrayBuffer[];
  readonly bytes?: (c: OpCase) => ByteCounts;
  readonly features?: (c: OpCase) => Readonly<Record<string, number>>;
  readonly censusBytes?: OpDef['censusBytes'];
  /** The native kernel's snippets (per case where they differ). */
  readonly native: RowKernel | ((c: OpCase) => RowKernel);
  /** The row family's snippet, or why no family takes the op. */
  readonly generated: ((c: OpCase) => NormSnippet) | { readonly none: string };
  /** A declared rejection beyond the shared limits (the generated path's own contract). */
  readonly require?: (c: OpCase) => Rejection | null;
  /** Further reasons a schedule cannot take a case. */
  readonly fits?: (s: Schedule, c: OpCase) => string[];
}

/** A row op's full OpDef from its declaration. */
export function defineRowOp(spec: RowOpSpec): OpDef {
  const { name, layouts } = spec;
  const params = spec.params ?? [];
  const shapeSyntax = spec.shapeSyntax ?? 'ne0xne1[xne2xne3] of dst';
  const base = 'none' in spec.generated ? noGeneratedPath(name, 'norm', spec.generated.none) : generatedPath(NORM, spec.generated);
  const more = spec.fits;
  const fits = more ? (s: Schedule, c: OpCase) => [...base.fits(s, c), ...more(s, c)] : base.fits;
  const native = spec.native;
  return {
    name,
    summary: spec.summary,
    shapeSyntax,
    layouts,
    params,
    matrix: spec.matrix,
    bench: spec.bench ?? { dims: [4096, 4096] },
    ...(spec.censusBytes ? { censusBytes: spec.censusBytes } : {}),
    makeCase(dims, layout = layouts[0].name, given = {}) {
      const ne = spec.dims ? spec.dims(dims) : dims4(name, dims, shapeSyntax);
      const values = parseParams(name, params, given);
      const parts = spec.sources(ne, layout, values);
      if (!parts) throw layoutError(name, layout, layouts);
      for (const [i, what] of spec.contiguousRows ?? [[0, 'src0']]) {
        const t = parts.srcs[i];
        if (!rowsContiguous(t)) throw new OpCaseError(`${name}: ${what} rows must be contiguous (ggml asserts nb00 == sizeof(float)), got nb0 = ${t.nb[0]} B`);
      }
      const inplace = !!parts.inplace;
      const dst = parts.dst ?? (inplace ? { ...parts.srcs[0], layout: 'inplace' } : contiguous('f32', ne));
      const c: OpCase = Object.freeze({ op: name, dims: Object.freeze([...dims]), layout, label: caseLabel(dims, layout, layouts[0].name, paramsLabel(params, values)), srcs: Object.freeze([...parts.srcs]), dst, inplace, params: values });
      spec.check?.(c);
      return c;
    },
    oracle: spec.oracle,
    ...(spec.inputs ? { inputs: spec.inputs } : {}),
    flops: () => null,
    bytes: spec.bytes ?? eachElementOnce,
    features: spec.features ?? rowFeatures,
    native: (c) => rowNative(c, typeof native === 'function' ? native(c) : native, params),
    ...('noGeneratedPath' in base ? { noGeneratedPath: base.noGeneratedPath } : {}),
    family: base.family,
    require: (c, adapter) => spec.require?.(c) ?? commonRejection(c, adapter),
    fits,
    generate: (s, c) => {
      const why = fits(s, c);
      if (more && why.length) throw new OpCaseError(`schedule ${scheduleKey(s)} cannot take ${name} ${c.label}: ${why.join('; ')}`);
      return base.generate(s, c);
    },
  };
}
