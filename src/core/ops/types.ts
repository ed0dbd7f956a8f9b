// The op model: what one op file declares. The lane, the sweep and the UI read only this.
import type { AdapterDescriptor, DeviceLimits } from '../adapter';
import type { KernelSpec } from '../kernel';
import type { Family, Schedule } from '../schedule/schedule';
import { nelements, nrows, typeSizeBytes, type TensorDesc } from '../tensor';
import { OpCaseError, type OpCase } from './case';

// The case and its error live in a leaf module (the families import them without the op model).
export { OpCaseError, type OpCase } from './case';
import { TYPE_PARAM_VALUES } from '../quant/weights';


/** The oracle's answer for every dst element, ggml order, accumulated in f64. */
export interface OracleResult {
  readonly ref: Float64Array;
  /**
   * Per element: the magnitude rounding error scales with (the size of the terms that met
   * there), so an element whose terms cancel to ~0 is not held to a bound of 0.
   */
  readonly epsFloor: Float64Array;
  /** k: terms accumulated into each element (1 for elementwise ops). */
  readonly terms: number;
  /**
   * When present, ref and epsFloor hold only these dst elements (ggml order, ascending): the
   * oracle was asked for a sample because the whole output costs too much on a CPU. Every
   * element is still checked for NaN/Inf, and the guard bands in full.
   */
  readonly indices?: Int32Array;
}

/** A contract rejection: a shape the generated path declines, with a stable code. */
export interface Rejection {
  readonly code: string;
  readonly reason: string;
}

export interface ByteCounts {
  /** Bytes the op must read at least once (each source element once). */
  readonly readBytes: number;
  readonly writeBytes: number;
}


export interface LayoutSpec {
  readonly name: string;
  readonly doc: string;
}

/** A case by its dims, layout (default: the op's first) and non-default params: the bench's case. */
export interface BenchCase {
  readonly dims: readonly number[];
  readonly layout?: string;
  readonly params?: Readonly<Record<string, number>>;
}

export interface MatrixEntry {
  readonly dims: readonly number[];
  readonly layout: string;
  /** Non-default params (absent: every param at its default). */
  readonly params?: Readonly<Record<string, number>>;
}

/**
 * One op parameter (ggml's op_params), declared like a layout. Values are numbers: 'bool' is
 * 0 or 1, 'enum' one of `values` (e.g. ROPE's mode). f32 params are kept as given and rounded
 * to f32 where a kernel or oracle uses them.
 */
export interface ParamSpec {
  readonly name: string;
  readonly type: 'f32' | 'i32' | 'u32' | 'bool' | 'enum';
  readonly default: number;
  /** Inclusive range (f32, i32, u32). */
  readonly min?: number;
  readonly max?: number;
  /** 'enum': the allowed values, with a name each for docs and the page. */
  readonly values?: readonly { readonly value: number; readonly name: string; readonly named?: boolean }[];
  readonly doc: string;
}

/** "0 ≤ eps ≤ 1", "mode one of 0 (normal), 2 (neox)": how errors and the page state the range. */
export function paramRange(p: ParamSpec): string {
  if (p.type === 'bool') return `${p.name} is 0 or 1`;
  if (p.type === 'enum') return `${p.name} one of ${(p.values ?? []).map((v) => `${v.value} (${v.name})`).join(', ')}`;
  const kind = p.type === 'f32' ? 'a finite number' : p.type === 'u32' ? 'an integer ≥ 0' : 'an integer';
  const lo = p.min !== undefined ? `${formatParam(p.min)} ≤ ` : '';
  const hi = p.max !== undefined ? ` ≤ ${formatParam(p.max)}` : '';
  return `${p.name} is ${kind}${lo || hi ? `, ${lo}${p.name}${hi}` : ''}`;
}

/** Why `value` is not allowed for `p` (null when it is). */
export function paramProblem(p: ParamSpec, value: unknown): string | null {
  const bad = `${p.name} = ${typeof value === 'number' ? String(value) : JSON.stringify(value)} is out of range (${paramRange(p)})`;
  if (typeof value !== 'number' || !Number.isFinite(value)) return bad;
  switch (p.type) {
    case 'bool':
      return value === 0 || value === 1 ? null : bad;
    case 'enum':
      return (p.values ?? []).some((v) => v.value === value) ? null : bad;
    case 'i32':
    case 'u32':
      if (!Number.isInteger(value) || (p.type === 'u32' ? value < 0 || value > 0xffffffff : value < -(2 ** 31) || value >= 2 ** 31)) return bad;
  }
  if ((p.min !== undefined && value < p.min) || (p.max !== undefined && value > p.max)) return bad;
  return null;
}

/**
 * The case's full params: declared defaults overlaid with `given`, each checked. An unknown
 * name or a value out of range is an OpCaseError naming the param and its range.
 */
export function parseParams(op: string, specs: readonly ParamSpec[], given: Readonly<Record<string, number>> = {}): Readonly<Record<string, number>> {
  for (const name of Object.keys(given)) {
    if (!specs.some((p) => p.name === name)) {
      throw new OpCaseError(specs.length ? `${op} has no param '${name}' (params: ${specs.map((p) => p.name).join(', ')})` : `${op} takes no params, got ${Object.keys(given).join(', ')}`);
    }
  }
  const out: Record<string, number> = {};
  for (const p of specs) {
    const v = given[p.name] ?? p.default;
    const why = paramProblem(p, v);
    if (why) throw new OpCaseError(`${op}: ${why}`);
    out[p.name] = v;
  }
  return Object.freeze(out);
}

/** A param value as labels and `--param` write it: 1e-5, 0.5, 10000. */
export function formatParam(v: number): string {
  return v !== 0 && Math.abs(v) < 1e-3 ? v.toExponential() : String(v);
}

/** "eps=1e-5 mode=2": the params that differ from their defaults, in declaration order. */
export function paramsLabel(specs: readonly ParamSpec[], values: Readonly<Record<string, number>>): string {
  return specs
    .filter((p) => values[p.name] !== undefined && values[p.name] !== p.default)
    .map((p) => `${p.name}=${paramValueText(p, values[p.name])}`)
    .join(' ');
}

/** A value as labels write it: an enum value marked `named` by its name (type0=q4_0), else the number. */
export function paramValueText(p: ParamSpec, v: number): string {
  const named = p.type === 'enum' ? p.values?.find((x) => x.value === v && x.named) : undefined;
  return named ? named.name : formatParam(v);
}

/** "eps=1e-5,mode=2" → { eps: 1e-5, mode: 2 }; names are checked later, against the op. */
export function parseParamAssignments(text: string): Record<string, number> {
  // A Map, then own properties: `'__proto__' in {}` is true (it once read as "given twice") and
  // assigning it would set the object's prototype; as an own key the op refuses it by name.
  const out = new Map<string, number>();
  for (const part of text.split(',').map((t) => t.trim()).filter(Boolean)) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.+)$/.exec(part);
    if (!m) throw new OpCaseError(`param '${part}' is not name=value (e.g. eps=1e-5)`);
    const text = m[2].trim();
    // A name (type0=q4_0) stands for its id; the op's enum then checks the id like any number.
    const byName = /^[A-Za-z]/.test(text) ? TYPE_PARAM_VALUES.find((x) => x.name === text.toLowerCase()) : undefined;
    if (/^[A-Za-z]/.test(text) && !byName) throw new OpCaseError(`param ${m[1]}: '${text}' is neither a number nor a known type name (known: ${TYPE_PARAM_VALUES.map((x) => x.name).join(', ')})`);
    const v = byName ? byName.value : Number(text);
    if (text === '' || !Number.isFinite(v)) throw new OpCaseError(`param ${m[1]}: '${m[2]}' is not a finite number`);
    if (out.has(m[1])) throw new OpCaseError(`param ${m[1]} is given twice`);
    out.set(m[1], v);
  }
  return Object.fromEntries(out);
}

export interface OpDef {
  /** ggml's name: 'ADD', 'RMS_NORM', 'RMS_NORM_BACK', 'MUL_MAT'. */
  readonly name: string;
  readonly summary: string;
  /** How --shape is written for this op, e.g. 'ne0xne1[xne2xne3] of dst' or 'MxNxK'. */
  readonly shapeSyntax: string;
  /** Layout variants (views, aliasing, broadcasts); the first is the default. */
  readonly layouts: readonly LayoutSpec[];
  /** Op parameters (ggml's op_params), name, type, default, range; [] when it has none. */
  readonly params: readonly ParamSpec[];
  /** The default shape matrix: what the page offers and the lane runs. */
  readonly matrix: readonly MatrixEntry[];
  /**
   * Which matrix shapes a sweep without --shapes times, where the whole matrix would put its table
   * (candidates × shapes) over the stored result's cap (SWEEP_CAPS.cells); default: all of them.
   */
  sweeps?(e: MatrixEntry): boolean;
  /** The case `bench --only ops` times on a GPU: the llama-7B-sized one the op meets in a training step. */
  readonly bench: BenchCase;
  /**
   * The census's byte rule for one graph node of this op, from the bytes of its sources and its
   * destination as ggml types them (absent: each source read once, the destination written once).
   */
  censusBytes?(srcBytes: readonly number[], dstBytes: number): ByteCounts;
  /** Checks dims and builds the case; throws OpCaseError naming what is wrong. */
  makeCase(dims: readonly number[], layout?: string, params?: Readonly<Record<string, number>>): OpCase;
  /**
   * The reference result. `srcs` are the packed source buffers (no guards). With `sample`
   * (ascending dst element indices) an op may compute only those elements and say so in
   * `indices`; an op that ignores it returns every element.
   */
  oracle(c: OpCase, srcs: readonly ArrayBuffer[], sample?: Int32Array): OracleResult;
  /**
   * Seeded host inputs, one packed buffer per source, when random values in [-1, 1) would be
   * wrong for the op (row indices in range, positions, probability labels). Default: randomBuffer.
   */
  inputs?(c: OpCase, seed: number): ArrayBuffer[];
  /** Floating-point operations; null for memory-only ops (no GFLOP/s column). */
  flops(c: OpCase): number | null;
  bytes(c: OpCase): ByteCounts;
  /** Named numbers the shape rules and the sweep reason about (ne0, rows, M, N, K…). */
  features(c: OpCase): Readonly<Record<string, number>>;
  /** The hand-written kernel, which takes every case makeCase accepts. */
  native(c: OpCase): KernelSpec;
  /**
   * Declared: this op has no generated path, and why (no family expresses it yet). Level 1
   * refuses `--schedule` with the reason, auto and the lane run or skip native saying it, the page
   * shows it; its registry entry has no shape rules. `family` then names the family it would need.
   */
  readonly noGeneratedPath?: string;
  /** The generated path's primary family (the sweep's default space). */
  readonly family: Family;
  /** Further families whose schedules the generated path takes (MUL_MAT: gemv, sgmatrix). */
  readonly moreFamilies?: readonly Family[];
  /** The generated path's contract: null when it takes the case, else a declared rejection. */
  require(c: OpCase, adapter: Pick<AdapterDescriptor, 'limits' | 'features'>): Rejection | null;
  /** Why a valid schedule cannot take this case (e.g. vectorWidth 4 with ne0 % 4 ≠ 0); `limits` where an adapter is at hand (case-sized workgroup memory). */
  fits(s: Schedule, c: OpCase, limits?: DeviceLimits): string[];
  /** Pure codegen: schedule + case → WGSL and its dispatch. */
  generate(s: Schedule, c: OpCase): KernelSpec;
}

/**
 * The bytes an op must move at least when it reads each source element once and writes each dst
 * element once, at each tensor's own element size (f16, i32 included): most ops' `bytes`.
 */
export function eachElementOnce(c: OpCase): ByteCounts {
  const size = (t: TensorDesc) => nelements(t) * typeSizeBytes[t.type];
  return { readBytes: c.srcs.reduce((n, t) => n + size(t), 0), writeBytes: size(c.dst) };
}

/** Features of row-wise ops (ADD, the norms): row length, row count, elements. */
export function rowFeatures(c: OpCase): Readonly<Record<string, number>> {
  return { ne0: c.dst.ne[0], rows: nrows(c.dst), n: nelements(c.dst) };
}

/** "4096x512" → [4096, 512]; throws naming the bad part. */
export function parseDims(text: string): number[] {
  const trimmed = text.trim();
  if (!/^\d+(x\d+)*$/i.test(trimmed)) throw new OpCaseError(`shape '${text}' is not of the form AxBxC (positive integers joined by 'x')`);
  const dims = trimmed.toLowerCase().split('x').map(Number);
  dims.forEach((d, i) => {
    if (!Number.isSafeInteger(d) || d < 1) throw new OpCaseError(`shape '${text}': dimension ${i} must be a positive integer, got ${d}`);
  });
  return dims;
}

export function dimsLabel(dims: readonly number[]): string {
  return dims.join('x');
}

/**
 * How results name a case: the dims, then the layout unless it is the default, then each
 * non-default param as name=value in declaration order ("4096x512 inplace eps=1e-5"). A case
 * with every param at its default keeps the label it had before params existed.
 */
export function caseLabel(dims: readonly number[], layout: string, defaultLayout: string, params = ''): string {
  return [dimsLabel(dims), layout === defaultLayout ? '' : layout, params].filter(Boolean).join(' ');
}

/** Every family an op's generated path takes, the primary first. */
export function opFamilies(op: Pick<OpDef, 'family' | 'moreFamilies'>): readonly Family[] {
  return [op.family, ...(op.moreFamilies ?? [])];
}

/** The shapes a sweep without --shapes times: the op's matrix, less what its `sweeps` leaves out. */
export function defaultSweepShapes(op: OpDef): readonly MatrixEntry[] {
  return op.sweeps ? op.matrix.filter((e) => op.sweeps!(e)) : op.matrix;
}
