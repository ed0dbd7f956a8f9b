// The kernel manifest (docs/kernel-manifest.md): its parsed form and the parser. Every field is
// checked here, before any case exists: unknown fields and roles, wrong types and expressions
// that do not parse are ManifestErrors naming the field.
import type { DType } from '../tensor';
import { type Expr, ExprError, parseExprValue } from './expr';
import { ManifestError } from './errors';
import { MANIFEST_CAPS, MAX_WGSL_FILE_BYTES } from '../input/caps';

export const MANIFEST_VERSION = 1;

/** maxUniformBufferBindingSize's guaranteed minimum: a params uniform fits every adapter within it. */
export const MAX_UNIFORM_BYTES = 65536;

export type ManifestRole = 'src0' | 'src1' | 'src2' | 'dst' | 'params' | 'scratch';
export const MANIFEST_ROLES: readonly ManifestRole[] = ['src0', 'src1', 'src2', 'dst', 'params', 'scratch'];

export type UniformType = 'u32' | 'i32' | 'f32';
export const UNIFORM_TYPES: readonly UniformType[] = ['u32', 'i32', 'f32'];

export type TensorType = DType;
export const TENSOR_TYPES: readonly TensorType[] = ['f32', 'f16', 'i32'];

/** Field names per object, in the order the docs list them (the schema test compares these). */
export const FIELDS = {
  manifest: ['$schema', 'manifestVersion', 'name', 'description', 'op', 'claims', 'features', 'compute', 'let', 'buffers', 'kernels', 'variants'],
  variant: ['name', 'when', 'features', 'compute', 'kernels'],
  claims: ['layouts', 'types', 'params', 'require'],
  paramRange: ['min', 'max', 'values'],
  buffer: ['sizeBytes'],
  kernel: ['name', 'wgsl', 'entryPoint', 'workgroupSize', 'bindings', 'uniforms', 'dispatch', 'overrides'],
  wgslText: ['text', 'name'],
  binding: ['binding', 'role', 'buffer'],
  uniform: ['name', 'type', 'value', 'offset'],
  dispatchLinear: ['workgroups'],
} as const;

/** An expression with the text it came from (for messages). */
export interface ManifestExpr {
  readonly src: string;
  readonly expr: Expr;
  /** Where it sits in the manifest: 'kernels[0].dispatch[0]'. */
  readonly path: string;
}

export interface ParamClaim {
  readonly min?: number;
  readonly max?: number;
  readonly values?: readonly number[];
}

export interface Claims {
  /** Layouts taken; null: only the op's default layout. */
  readonly layouts: readonly string[] | null;
  /** Element type per tensor role; roles not listed must be f32. */
  readonly types: Readonly<Partial<Record<'src0' | 'src1' | 'src2' | 'dst', TensorType>>>;
  readonly params: Readonly<Record<string, ParamClaim>>;
  /** Conditions on the case that must all be non-zero. */
  readonly require: readonly ManifestExpr[];
}

export interface WgslSource {
  /** The file name the manifest gives (relative to the manifest), or the inline text's name. */
  readonly file: string;
  /** Inline text, when the manifest carries it; else the loader supplies the file. */
  readonly text?: string;
}

export interface ManifestBinding {
  readonly binding: number;
  readonly role: ManifestRole;
  /** For role 'scratch': which of the manifest's buffers. */
  readonly buffer?: string;
}

export interface ManifestUniform {
  readonly name: string;
  readonly type: UniformType;
  readonly value: ManifestExpr;
  /** Byte offset in the uniform; default: right after the previous field. */
  readonly offset?: number;
}

export type ManifestDispatch =
  | { readonly kind: 'grid'; readonly dims: readonly ManifestExpr[] }
  /** A workgroup count the lab spreads over x and y past maxComputeWorkgroupsPerDimension. */
  | { readonly kind: 'linear'; readonly workgroups: ManifestExpr };

export interface ManifestKernel {
  readonly name: string;
  readonly wgsl: WgslSource;
  readonly entryPoint: string;
  readonly workgroupSize: readonly ManifestExpr[];
  readonly bindings: readonly ManifestBinding[];
  readonly uniforms: readonly ManifestUniform[];
  readonly dispatch: ManifestDispatch;
  readonly overrides: readonly { readonly name: string; readonly value: ManifestExpr }[];
}

/**
 * The numerics a kernel declares: 'f32' (the default: f32 semantics), 'f16-staged' (operands
 * rounded to f16 on the way, f32 arithmetic) or 'f16-accumulate' (f16 arithmetic). The output is
 * judged by that precision's bound and the kernel's column says which.
 */
export type Compute = 'f32' | 'f16-staged' | 'f16-accumulate';
export const COMPUTES: readonly Compute[] = ['f32', 'f16-staged', 'f16-accumulate'];

/** One of a manifest's variants: its kernels, taken when `when` holds on the adapter. */
export interface ManifestVariant {
  readonly name: string;
  /** An expression of the adapter's names (has_f16, max_invocations_per_workgroup…); null: always. */
  readonly when: ManifestExpr | null;
  /** The manifest with this variant's kernels, features (the manifest's and its own) and compute in place. */
  readonly manifest: Manifest;
}

export interface Manifest {
  readonly name: string;
  readonly description: string;
  readonly op: string;
  readonly claims: Claims;
  readonly features: readonly string[];
  readonly compute: Compute;
  /** Alternatives, the first that holds on the adapter is run; empty when the manifest lists `kernels` itself. */
  readonly variants: readonly ManifestVariant[];
  readonly lets: readonly { readonly name: string; readonly value: ManifestExpr }[];
  readonly buffers: readonly { readonly name: string; readonly sizeBytes: ManifestExpr }[];
  readonly kernels: readonly ManifestKernel[];
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

type Json = Record<string, unknown>;

function typeName(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

function object(path: string, v: unknown, fields: readonly string[], required: readonly string[] = []): Json {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ManifestError(path, `must be an object, got ${typeName(v)}`);
  const o = v as Json;
  for (const k of Object.keys(o)) {
    if (!fields.includes(k)) throw new ManifestError(path, `unknown field '${k}' (fields: ${fields.join(', ')})`);
  }
  for (const k of required) if (o[k] === undefined) throw new ManifestError(join(path, k), 'is required');
  return o;
}

/** An object whose keys are the user's names (lets, buffers, params): any key, checked by the caller. */
function record(path: string, v: unknown): Json {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ManifestError(path, `must be an object, got ${typeName(v)}`);
  return v as Json;
}

function join(path: string, key: string | number): string {
  return typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key;
}

function string(path: string, v: unknown): string {
  if (typeof v !== 'string') throw new ManifestError(path, `must be a string, got ${typeName(v)}`);
  return v;
}

function ident(path: string, v: unknown): string {
  const s = string(path, v);
  if (!IDENT.test(s)) throw new ManifestError(path, `'${s}' is not a name (letters, digits, _; not starting with a digit)`);
  return s;
}

function array(path: string, v: unknown, cap?: number): unknown[] {
  if (!Array.isArray(v)) throw new ManifestError(path, `must be an array, got ${typeName(v)}`);
  if (cap !== undefined && v.length > cap) throw new ManifestError(path, `lists ${v.length} entries, over the cap of ${cap}`);
  return v;
}

/** Names that every object inherits: as a user's key they would read Object.prototype's members. */
const INHERITED = new Set(Object.getOwnPropertyNames(Object.prototype));

/** A key the user names (a let, a buffer, a param claim): a name, never an inherited member. */
function ownKey(path: string, k: string): string {
  if (INHERITED.has(k)) throw new ManifestError(path, `'${k}' is a member every JavaScript object inherits (Object.prototype.${k}), not a name: choose another`);
  return k;
}

function capped(path: string, o: Json, cap: number): Json {
  const n = Object.keys(o).length;
  if (n > cap) throw new ManifestError(path, `names ${n} entries, over the cap of ${cap}`);
  return o;
}

function finiteNumber(path: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new ManifestError(path, `must be a finite number, got ${typeName(v)}`);
  return v;
}

function nonNegativeInt(path: string, v: unknown): number {
  const n = finiteNumber(path, v);
  if (!Number.isInteger(n) || n < 0) throw new ManifestError(path, `must be an integer ≥ 0, got ${n}`);
  return n;
}

/** An expression as a message quotes it: a hostile one is cut to its first 80 characters. */
function shown(v: unknown): string {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 82 ? `${text.slice(0, 80)}…" (${text.length - 2} characters)` : text;
}

export function manifestExpr(path: string, v: unknown): ManifestExpr {
  try {
    return { src: typeof v === 'number' ? String(v) : (v as string), expr: parseExprValue(v), path };
  } catch (e) {
    if (e instanceof ExprError) throw new ManifestError(path, `expression ${shown(v)} does not parse: ${e.message}`);
    throw e;
  }
}

/** A map of name → expression, in the order written. */
function namedExprs(path: string, v: unknown, cap: number): { name: string; value: ManifestExpr }[] {
  if (v === undefined) return [];
  const o = capped(path, record(path, v), cap);
  return Object.entries(o).map(([k, val]) => ({ name: ident(join(path, k), ownKey(join(path, k), k)), value: manifestExpr(join(path, k), val) }));
}

/** Positions in a JSON text as line:column, from the offsets engines put in their messages. */
function jsonErrorMessage(text: string, e: Error): string {
  const pos = /position (\d+)/.exec(e.message);
  if (!pos || /line \d+ column \d+/.test(e.message)) return e.message;
  const before = text.slice(0, Number(pos[1]));
  const line = before.split('\n').length;
  const col = Number(pos[1]) - before.lastIndexOf('\n');
  return `${e.message} (line ${line} column ${col})`;
}

function parseClaims(path: string, v: unknown): Claims {
  if (v === undefined) return { layouts: null, types: {}, params: {}, require: [] };
  const o = object(path, v, FIELDS.claims);
  const layouts = o.layouts === undefined ? null : array(join(path, 'layouts'), o.layouts, MANIFEST_CAPS.paramValues).map((l, i) => string(join(join(path, 'layouts'), i), l));
  if (layouts && layouts.length === 0) throw new ManifestError(join(path, 'layouts'), 'must list at least one layout');
  const types: Partial<Record<'src0' | 'src1' | 'src2' | 'dst', TensorType>> = {};
  if (o.types !== undefined) {
    const tp = join(path, 'types');
    const t = object(tp, o.types, ['src0', 'src1', 'src2', 'dst']);
    for (const [role, ty] of Object.entries(t)) {
      const s = string(join(tp, role), ty);
      if (!TENSOR_TYPES.includes(s as TensorType)) throw new ManifestError(join(tp, role), `unknown type '${s}' (types: ${TENSOR_TYPES.join(', ')})`);
      types[role as keyof typeof types] = s as TensorType;
    }
  }
  const params: Record<string, ParamClaim> = {};
  if (o.params !== undefined) {
    const pp = join(path, 'params');
    for (const [name, range] of Object.entries(capped(pp, record(pp, o.params), MANIFEST_CAPS.lets))) {
      const rp = join(pp, name);
      ownKey(rp, name);
      const r = object(rp, range, FIELDS.paramRange);
      const claim: ParamClaim = {
        ...(r.min !== undefined ? { min: finiteNumber(join(rp, 'min'), r.min) } : {}),
        ...(r.max !== undefined ? { max: finiteNumber(join(rp, 'max'), r.max) } : {}),
        ...(r.values !== undefined ? { values: array(join(rp, 'values'), r.values, MANIFEST_CAPS.paramValues).map((x, i) => finiteNumber(join(join(rp, 'values'), i), x)) } : {}),
      };
      if (claim.min !== undefined && claim.max !== undefined && claim.min > claim.max) throw new ManifestError(rp, `min ${claim.min} is above max ${claim.max}`);
      params[ident(rp, name)] = claim;
    }
  }
  const require = o.require === undefined ? [] : array(join(path, 'require'), o.require, MANIFEST_CAPS.require).map((x, i) => manifestExpr(join(join(path, 'require'), i), x));
  return { layouts, types, params, require };
}

function parseWgsl(path: string, v: unknown): WgslSource {
  if (typeof v === 'string') {
    if (!v.trim()) throw new ManifestError(path, 'names no file');
    if (/\.wgsl$/i.test(v) === false) throw new ManifestError(path, `'${v}' is not a .wgsl file name (inline WGSL goes in { "text": … })`);
    return { file: v };
  }
  const o = object(path, v, FIELDS.wgslText, ['text']);
  const text = string(join(path, 'text'), o.text);
  if (text.length > MAX_WGSL_FILE_BYTES) throw new ManifestError(join(path, 'text'), `is ${text.length} characters of WGSL, over the cap of ${MAX_WGSL_FILE_BYTES}`);
  if (!text.trim()) throw new ManifestError(join(path, 'text'), 'is empty');
  return { file: o.name === undefined ? `${path}.wgsl` : string(join(path, 'name'), o.name), text };
}

function parseBinding(path: string, v: unknown): ManifestBinding {
  const o = object(path, v, FIELDS.binding, ['binding', 'role']);
  const binding = nonNegativeInt(join(path, 'binding'), o.binding);
  const role = string(join(path, 'role'), o.role);
  if (!MANIFEST_ROLES.includes(role as ManifestRole)) throw new ManifestError(join(path, 'role'), `unknown role '${role}' (roles: ${MANIFEST_ROLES.join(', ')})`);
  if (role === 'scratch') {
    if (o.buffer === undefined) throw new ManifestError(join(path, 'buffer'), "is required for role 'scratch' (a name from the manifest's buffers)");
    return { binding, role, buffer: ident(join(path, 'buffer'), o.buffer) };
  }
  if (o.buffer !== undefined) throw new ManifestError(join(path, 'buffer'), `only role 'scratch' names a buffer, not '${role}'`);
  return { binding, role: role as ManifestRole };
}

function parseUniform(path: string, v: unknown): ManifestUniform {
  const o = object(path, v, FIELDS.uniform, ['name', 'type', 'value']);
  const type = string(join(path, 'type'), o.type);
  if (!UNIFORM_TYPES.includes(type as UniformType)) throw new ManifestError(join(path, 'type'), `unknown type '${type}' (uniform types: ${UNIFORM_TYPES.join(', ')}; write one field per vector component)`);
  const offset = o.offset === undefined ? undefined : nonNegativeInt(join(path, 'offset'), o.offset);
  if (offset !== undefined && offset % 4) throw new ManifestError(join(path, 'offset'), `${offset} is not a multiple of 4`);
  if (offset !== undefined && offset + 4 > MAX_UNIFORM_BYTES) throw new ManifestError(join(path, 'offset'), `${offset} puts the field past ${MAX_UNIFORM_BYTES} bytes, the uniform binding size every WebGPU adapter allows (maxUniformBufferBindingSize's guaranteed minimum)`);
  return { name: ident(join(path, 'name'), o.name), type: type as UniformType, value: manifestExpr(join(path, 'value'), o.value), ...(offset !== undefined ? { offset } : {}) };
}

function parseDispatch(path: string, v: unknown): ManifestDispatch {
  if (Array.isArray(v)) {
    if (v.length < 1 || v.length > 3) throw new ManifestError(path, `takes 1 to 3 workgroup counts [x, y, z], got ${v.length}`);
    return { kind: 'grid', dims: v.map((x, i) => manifestExpr(join(path, i), x)) };
  }
  const o = object(path, v, FIELDS.dispatchLinear, ['workgroups']);
  return { kind: 'linear', workgroups: manifestExpr(join(path, 'workgroups'), o.workgroups) };
}

function parseKernel(path: string, v: unknown, index: number): ManifestKernel {
  const o = object(path, v, FIELDS.kernel, ['wgsl', 'workgroupSize', 'bindings', 'dispatch']);
  const wgs = array(join(path, 'workgroupSize'), o.workgroupSize);
  if (wgs.length < 1 || wgs.length > 3) throw new ManifestError(join(path, 'workgroupSize'), `takes 1 to 3 sizes [x, y, z], got ${wgs.length}`);
  const bindings = array(join(path, 'bindings'), o.bindings, MANIFEST_CAPS.bindings).map((b, i) => parseBinding(join(join(path, 'bindings'), i), b));
  if (!bindings.length) throw new ManifestError(join(path, 'bindings'), 'binds nothing');
  const seen = new Map<number, number>();
  bindings.forEach((b, i) => {
    const prev = seen.get(b.binding);
    if (prev !== undefined) throw new ManifestError(join(join(path, 'bindings'), i), `binding ${b.binding} is already bound by bindings[${prev}]`);
    seen.set(b.binding, i);
    const same = bindings.findIndex((c) => c.role === b.role && c.buffer === b.buffer);
    if (same !== i) throw new ManifestError(join(join(path, 'bindings'), i), `role '${b.role}${b.buffer ? ` ${b.buffer}` : ''}' is already bound by bindings[${same}]`);
  });
  const uniforms = o.uniforms === undefined ? [] : array(join(path, 'uniforms'), o.uniforms, MANIFEST_CAPS.uniforms).map((u, i) => parseUniform(join(join(path, 'uniforms'), i), u));
  const names = new Set<string>();
  uniforms.forEach((u, i) => {
    if (names.has(u.name)) throw new ManifestError(join(join(path, 'uniforms'), i), `field '${u.name}' is declared twice`);
    names.add(u.name);
  });
  const hasParams = bindings.some((b) => b.role === 'params');
  if (uniforms.length && !hasParams) throw new ManifestError(join(path, 'bindings'), "declares uniforms but binds no 'params' role to carry them");
  if (hasParams && !uniforms.length) throw new ManifestError(join(path, 'uniforms'), "binds 'params' but declares no uniform fields");
  const entryPoint = o.entryPoint === undefined ? 'main' : ident(join(path, 'entryPoint'), o.entryPoint);
  return {
    name: o.name === undefined ? `kernel${index}` : ident(join(path, 'name'), o.name),
    wgsl: parseWgsl(join(path, 'wgsl'), o.wgsl),
    entryPoint,
    workgroupSize: wgs.map((x, i) => manifestExpr(join(join(path, 'workgroupSize'), i), x)),
    bindings,
    uniforms,
    dispatch: parseDispatch(join(path, 'dispatch'), o.dispatch),
    overrides: namedExprs(join(path, 'overrides'), o.overrides, MANIFEST_CAPS.overrides),
  };
}

/** Parses a manifest's JSON text; throws ManifestError naming the field that is wrong. */
export function parseManifest(text: string): Manifest {
  if (typeof text !== 'string') throw new ManifestError('', `must be JSON text, got ${typeName(text)}`);
  if (text.length > MANIFEST_CAPS.chars) throw new ManifestError('', `is ${text.length} characters long, over the cap of ${MANIFEST_CAPS.chars} (inline WGSL included): refused before parsing`);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new ManifestError('', `is not valid JSON: ${jsonErrorMessage(text, e as Error)}`);
  }
  const o = object('', doc, FIELDS.manifest, ['manifestVersion', 'name', 'op']);
  if (o.manifestVersion !== MANIFEST_VERSION) throw new ManifestError('manifestVersion', `must be ${MANIFEST_VERSION}, got ${JSON.stringify(o.manifestVersion)}`);
  const name = string('name', o.name);
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(name)) throw new ManifestError('name', `'${name}' must be 1–64 letters, digits, '_', '.', '-' (it names the kernel in results)`);
  const features = o.features === undefined ? [] : array('features', o.features, MANIFEST_CAPS.features).map((f, i) => featureName(`features[${i}]`, f));
  const buffers = o.buffers === undefined ? [] : Object.entries(capped('buffers', record('buffers', o.buffers), MANIFEST_CAPS.buffers)).map(([k, b]) => {
    ownKey(join('buffers', k), k);
    const bo = object(join('buffers', k), b, FIELDS.buffer, ['sizeBytes']);
    return { name: ident(join('buffers', k), k), sizeBytes: manifestExpr(join(join('buffers', k), 'sizeBytes'), bo.sizeBytes) };
  });
  const kernelList = (path: string, v: unknown): ManifestKernel[] => {
    const kernels = array(path, v, MANIFEST_CAPS.kernels).map((k, i) => parseKernel(`${path}[${i}]`, k, i));
    if (!kernels.length) throw new ManifestError(path, 'lists no kernel');
    const kernelNames = new Set<string>();
    kernels.forEach((k, i) => {
      if (kernelNames.has(k.name)) throw new ManifestError(`${path}[${i}].name`, `'${k.name}' names two kernels`);
      kernelNames.add(k.name);
      for (const [j, b] of k.bindings.entries()) {
        if (b.role === 'scratch' && !buffers.some((x) => x.name === b.buffer)) {
          throw new ManifestError(`${path}[${i}].bindings[${j}].buffer`, `'${b.buffer}' is not one of the manifest's buffers (${buffers.map((x) => x.name).join(', ') || 'none declared'})`);
        }
      }
    });
    if (!kernels.some((k) => k.bindings.some((b) => b.role === 'dst'))) throw new ManifestError(path, "no kernel binds 'dst': nothing would write the result");
    return kernels;
  };
  const base: Manifest = {
    name,
    description: o.description === undefined ? '' : string('description', o.description),
    op: string('op', o.op),
    claims: parseClaims('claims', o.claims),
    features,
    compute: parseCompute('compute', o.compute) ?? 'f32',
    variants: [],
    lets: namedExprs('let', o.let, MANIFEST_CAPS.lets),
    buffers,
    kernels: [],
  };
  if ((o.kernels === undefined) === (o.variants === undefined)) throw new ManifestError(o.kernels === undefined ? 'kernels' : 'variants', 'give either kernels or variants (each with its kernels), not both and not neither');
  if (o.kernels !== undefined) return { ...base, kernels: kernelList('kernels', o.kernels) };
  const names = new Set<string>();
  const variants = array('variants', o.variants, MANIFEST_CAPS.variants).map((v, i): ManifestVariant => {
    const path = `variants[${i}]`;
    const vo = object(path, v, FIELDS.variant, ['name', 'kernels']);
    const vname = ident(join(path, 'name'), vo.name);
    if (names.has(vname)) throw new ManifestError(join(path, 'name'), `'${vname}' names two variants`);
    names.add(vname);
    const vfeatures = vo.features === undefined ? [] : array(join(path, 'features'), vo.features, MANIFEST_CAPS.features).map((f, j) => featureName(join(join(path, 'features'), j), f));
    return {
      name: vname,
      when: vo.when === undefined ? null : manifestExpr(join(path, 'when'), vo.when),
      manifest: { ...base, features: [...new Set([...features, ...vfeatures])], compute: parseCompute(join(path, 'compute'), vo.compute) ?? base.compute, kernels: kernelList(join(path, 'kernels'), vo.kernels) },
    };
  });
  if (!variants.length) throw new ManifestError('variants', 'lists no variant');
  return { ...base, variants };
}

function parseCompute(path: string, v: unknown): Compute | null {
  if (v === undefined) return null;
  const s = string(path, v);
  if (!COMPUTES.includes(s as Compute)) throw new ManifestError(path, `unknown numerics '${s}' (compute: ${COMPUTES.join(', ')})`);
  return s as Compute;
}

function featureName(path: string, f: unknown): string {
  const s = string(path, f);
  if (!/^[a-z0-9][a-z0-9-]*$/.test(s)) throw new ManifestError(path, `'${s}' is not a WebGPU feature name (e.g. shader-f16, subgroups)`);
  return s;
}
