// A loaded manifest against one case and one adapter: the claims first (an unclaimed case is a
// declared refusal, never a run), then the device's limits and features, then every expression
// evaluated into the passes the GPU layer runs in order.
import type { OpCase } from '../ops/types';
import type { KernelProgram, PassBinding, PassSpec } from '../program';
import { ManifestError, ManifestRefusal } from './errors';
import { evaluate, ExprError, type Scope } from './expr';
import type { Compute, ManifestExpr, ManifestKernel, ManifestRole, TensorType } from './format';
import { DISPATCH_NAMES, type LoadedManifest, WORKGROUP_NAMES } from './load';
import { adapterNames, caseScope, type ScopeAdapter } from './scope';

/** The limit WebGPU gives workgroup_size's z (the lab's DeviceLimits does not carry it). */
const MAX_WORKGROUP_SIZE_Z = 64;

export interface UserPass extends PassSpec {
  /** 'user:lab-add/add': shows in errors and pipeline labels. */
  readonly label: string;
  readonly kernelName: string;
  readonly wgslFile: string;
  readonly wgsl: string;
  readonly entryPoint: string;
  readonly workgroupSize: readonly [number, number, number];
  readonly bindings: readonly PassBinding[];
  readonly dispatch: readonly [number, number, number];
  /** The params uniform's bytes (16-byte multiple), when the kernel binds 'params'. */
  readonly uniforms?: Uint32Array;
  /** Pipeline-overridable constants. */
  readonly constants: Readonly<Record<string, number>>;
}

export interface UserKernelPlan extends KernelProgram {
  readonly name: string;
  readonly op: string;
  readonly caseLabel: string;
  readonly features: readonly string[];
  /** Scratch buffers, zero-filled before every run's first pass. */
  readonly scratch: readonly { readonly name: string; readonly sizeBytes: number }[];
  /** Run in this order, one after another, within one timed run. */
  readonly passes: readonly UserPass[];
  readonly explicitLayout: true;
  /** The numerics the manifest declares: the check's bound follows them. */
  readonly compute: Compute;
  /** The variant chosen on this adapter; null for a manifest without variants. */
  readonly variant: string | null;
  readonly inputRounding?: 'f16';
}

function value(e: ManifestExpr, scope: Scope): number {
  try {
    return evaluate(e.expr, scope);
  } catch (err) {
    if (err instanceof ExprError) throw new ManifestError(e.path, `expression '${e.src}' does not evaluate: ${err.message}`);
    throw err;
  }
}

function integer(e: ManifestExpr, scope: Scope, min: number, what: string): number {
  const v = value(e, scope);
  if (!Number.isSafeInteger(v) || v < min) throw new ManifestError(e.path, `'${e.src}' = ${v} is not ${what} (an integer ≥ ${min}; / divides exactly, so write floor() or ceil())`);
  return v;
}

/**
 * dst writes, params is the uniform; a source or a scratch buffer as its WGSL declares it (a source
 * declared read_write is bound so, and checked after the run for writes: checked.ts).
 */
function access(role: ManifestRole, declared: string | undefined): PassBinding['access'] {
  if (role === 'params') return 'uniform';
  if (role === 'dst') return 'read_write';
  if (role === 'scratch') return declared === 'read' ? 'read' : 'read_write';
  return declared === 'read_write' ? 'read_write' : 'read';
}

/** The claims: op, layout, tensor types, params, require — each miss a declared refusal. */
function checkClaims(loaded: LoadedManifest, c: OpCase): void {
  const { manifest, op } = loaded;
  if (c.op !== manifest.op) throw new ManifestRefusal('unclaimed-op', `${manifest.name} implements ${manifest.op}, not ${c.op}`);
  const layouts = manifest.claims.layouts ?? [op.layouts[0].name];
  if (!layouts.includes(c.layout)) throw new ManifestRefusal('unclaimed-layout', `${manifest.name} claims layouts ${layouts.join(', ')}, not '${c.layout}'`);
  const tensors: [string, TensorType][] = [...c.srcs.map((t, i) => [`src${i}`, t.type] as [string, TensorType]), ['dst', c.dst.type]];
  for (const [role, type] of tensors) {
    const claimed = manifest.claims.types[role as 'dst'] ?? 'f32';
    if (claimed !== type) throw new ManifestRefusal('unclaimed-type', `${manifest.name} claims ${role} ${claimed}, but this case's ${role} is ${type}`);
  }
  for (const [name, claim] of Object.entries(manifest.claims.params)) {
    const v = c.params[name];
    const inRange = (claim.min === undefined || v >= claim.min) && (claim.max === undefined || v <= claim.max) && (claim.values === undefined || claim.values.includes(v));
    if (!inRange) {
      const said = [claim.min !== undefined ? `≥ ${claim.min}` : '', claim.max !== undefined ? `≤ ${claim.max}` : '', claim.values ? `one of ${claim.values.join(', ')}` : ''].filter(Boolean).join(' and ');
      throw new ManifestRefusal('unclaimed-param', `${manifest.name} claims ${name} ${said}, got ${v}`);
    }
  }
}

const readsYZ = (loaded: LoadedManifest, index: number, entryPoint: string) => loaded.wgsl[index].info.entryPoints.find((e) => e.name === entryPoint)?.readsWorkgroupYZ ?? true;

/** What to do about a dispatch over the per-dimension limit: a 2-D split only helps a kernel that reads y. */
function splitHint(loaded: LoadedManifest, index: number, entryPoint: string): string {
  return readsYZ(loaded, index, entryPoint)
    ? 'use { "workgroups": … } for a 2-D split: the kernel linearizes with wid.y * num_workgroups.x + wid.x'
    : 'the kernel reads only the x of its workgroup and invocation ids, so a 2-D split would repeat work: give each workgroup more elements, or index with wid.y * num_workgroups.x + wid.x first';
}

function resolvePass(loaded: LoadedManifest, index: number, k: ManifestKernel, caseNames: Scope, adapter: ScopeAdapter, inplace: boolean): UserPass {
  const { manifest } = loaded;
  const { features } = manifest;
  const { limits } = adapter;
  const path = `kernels[${index}]`;
  const label = `user:${manifest.name}/${k.name}`;
  const scope = new Map(caseNames);

  const size = [0, 1, 2].map((d) => (k.workgroupSize[d] ? integer(k.workgroupSize[d], scope, 1, 'a workgroup size') : 1)) as [number, number, number];
  const sizeLimits = [limits.maxComputeWorkgroupSizeX, limits.maxComputeWorkgroupSizeY, MAX_WORKGROUP_SIZE_Z];
  size.forEach((s, d) => {
    if (s > sizeLimits[d]) throw new ManifestRefusal('workgroup-over-limits', `${label}: workgroupSize[${d}] = ${s} exceeds this adapter's ${sizeLimits[d]}`);
  });
  const invocations = size[0] * size[1] * size[2];
  if (invocations > limits.maxComputeInvocationsPerWorkgroup) {
    throw new ManifestRefusal('workgroup-over-limits', `${label}: ${size.join('×')} = ${invocations} invocations exceed maxComputeInvocationsPerWorkgroup ${limits.maxComputeInvocationsPerWorkgroup}`);
  }
  const declared = loaded.wgsl[index].info.entryPoints.find((e) => e.name === k.entryPoint)?.workgroupSize;
  if (declared && declared.every((d) => d !== null) && declared.some((d, i) => d !== size[i])) {
    throw new ManifestError(`${path}.workgroupSize`, `is [${size.join(', ')}] but ${k.wgsl.file} declares @workgroup_size(${declared.join(', ')}) on ${k.entryPoint}`);
  }
  WORKGROUP_NAMES.forEach((n, d) => scope.set(n, size[d]));

  const maxPerDim = limits.maxComputeWorkgroupsPerDimension;
  let dispatch: [number, number, number];
  if (k.dispatch.kind === 'linear') {
    const total = integer(k.dispatch.workgroups, scope, 1, 'a workgroup count');
    const y = Math.ceil(total / maxPerDim);
    if (y > maxPerDim) throw new ManifestRefusal('dispatch-over-limits', `${label}: ${total} workgroups ('${k.dispatch.workgroups.src}') do not fit a ${maxPerDim}×${maxPerDim} grid`);
    if (y > 1 && !readsYZ(loaded, index, k.entryPoint)) {
      throw new ManifestRefusal('dispatch-over-limits', `${label}: ${total} workgroups ('${k.dispatch.workgroups.src}') exceed maxComputeWorkgroupsPerDimension ${maxPerDim}, and a 2-D split would run each x workgroup ${y} times: ${k.wgsl.file} reads only the x of its workgroup id (${splitHint(loaded, index, k.entryPoint)})`);
    }
    dispatch = total <= maxPerDim ? [total, 1, 1] : [Math.ceil(total / y), y, 1];
  } else {
    const dims = k.dispatch.dims;
    // A zero count dispatches nothing (Dawn warns and skips it): the output would be the sentinel.
    dispatch = [0, 1, 2].map((d) => (dims[d] ? integer(dims[d], scope, 1, 'a workgroup count') : 1)) as [number, number, number];
    dispatch.forEach((n, d) => {
      if (n > maxPerDim) throw new ManifestRefusal('dispatch-over-limits', `${label}: dispatch[${d}] '${dims[d].src}' = ${n} exceeds maxComputeWorkgroupsPerDimension ${maxPerDim} (${splitHint(loaded, index, k.entryPoint)})`);
    });
  }
  DISPATCH_NAMES.forEach((n, d) => scope.set(n, dispatch[d]));

  const constants: Record<string, number> = {};
  for (const o of k.overrides) constants[o.name] = value(o.value, scope);

  const decls = loaded.wgsl[index].info.bindings;
  const bindings = k.bindings.map((b) => ({ binding: b.binding, role: b.role, ...(b.buffer ? { buffer: b.buffer } : {}), access: access(b.role, decls.find((d) => d.binding === b.binding)?.access) }));
  if (inplace && k.bindings.some((b) => b.role === 'src0') && k.bindings.some((b) => b.role === 'dst')) {
    throw new ManifestError(`${path}.bindings`, `binds src0 and dst, which are one buffer in an inplace case (WebGPU forbids a writable binding aliasing another): read src0 through dst there`);
  }
  const storage = bindings.filter((b) => b.access !== 'uniform').length;
  if (storage > limits.maxStorageBuffersPerShaderStage) {
    throw new ManifestRefusal('bindings-over-limits', `${label}: ${storage} storage buffers exceed maxStorageBuffersPerShaderStage ${limits.maxStorageBuffersPerShaderStage}`);
  }

  return {
    label,
    kernelName: k.name,
    wgslFile: k.wgsl.file,
    wgsl: loaded.wgsl[index].text,
    entryPoint: k.entryPoint,
    workgroupSize: size,
    bindings,
    dispatch,
    ...(k.uniforms.length ? { uniforms: uniformBytes(k, path, scope) } : {}),
    constants,
    ...(features.length ? { features } : {}),
  };
}

const U32_MAX = 0xffffffff;

/** The uniform's bytes: each field at its offset (default: after the previous), padded to 16 B. */
function uniformBytes(k: ManifestKernel, path: string, scope: Scope): Uint32Array {
  const placed: { offset: number; write: (v: DataView) => void }[] = [];
  const used = new Map<number, string>();
  let next = 0;
  k.uniforms.forEach((u, i) => {
    const offset = u.offset ?? next;
    const prev = used.get(offset);
    if (prev !== undefined) throw new ManifestError(`${path}.uniforms[${i}].offset`, `byte ${offset} is already '${prev}'`);
    used.set(offset, u.name);
    next = offset + 4;
    const v = value(u.value, scope);
    const where = `'${u.value.src}'`;
    if (u.type === 'f32') {
      if (!Number.isFinite(Math.fround(v))) throw new ManifestError(u.value.path, `${where} = ${v} overflows an f32`);
      placed.push({ offset, write: (d) => d.setFloat32(offset, v, true) });
    } else {
      const [lo, hi] = u.type === 'u32' ? [0, U32_MAX] : [-(2 ** 31), 2 ** 31 - 1];
      if (!Number.isInteger(v) || v < lo || v > hi) throw new ManifestError(u.value.path, `${where} = ${v} is not a ${u.type} (an integer ${lo}..${hi}; / divides exactly, so write floor() or ceil())`);
      placed.push({ offset, write: (d) => (u.type === 'u32' ? d.setUint32(offset, v, true) : d.setInt32(offset, v, true)) });
    }
  });
  const end = Math.max(...placed.map((p) => p.offset + 4));
  const bytes = new ArrayBuffer(Math.max(16, Math.ceil(end / 16) * 16));
  const view = new DataView(bytes);
  placed.forEach((p) => p.write(view));
  return new Uint32Array(bytes);
}

/**
 * Resolves a manifest for a case on an adapter. Throws ManifestRefusal (claims, features,
 * limits) or ManifestError (an expression that does not evaluate, a value of the wrong type).
 */
export function resolveManifest(loaded: LoadedManifest, c: OpCase, adapter: ScopeAdapter): UserKernelPlan {
  if (loaded.variants.length) {
    const chosen = chooseVariant(loaded, adapter);
    return { ...resolveManifest(chosen.loaded, c, adapter), variant: chosen.name };
  }
  const { manifest, op } = loaded;
  checkClaims(loaded, c);
  const scope = caseScope(op, c, adapter);
  for (const l of manifest.lets) scope.set(l.name, value(l.value, scope));
  for (const r of manifest.claims.require) {
    if (value(r, scope) === 0) throw new ManifestRefusal('unclaimed-shape', `${manifest.name} requires '${r.src}', which ${c.op} ${c.label} does not meet`);
  }
  for (const f of manifest.features) {
    if (!adapter.features.includes(f)) throw new ManifestRefusal('missing-feature', `${manifest.name} needs the '${f}' feature, which this adapter lacks (it has: ${adapter.features.join(', ') || 'none'})`);
  }
  const scratch = manifest.buffers.map((b) => {
    const sizeBytes = integer(b.sizeBytes, scope, 4, 'a buffer size');
    if (sizeBytes % 4) throw new ManifestError(b.sizeBytes.path, `'${b.sizeBytes.src}' = ${sizeBytes} B is not a multiple of 4`);
    if (sizeBytes > adapter.limits.maxStorageBufferBindingSize) {
      throw new ManifestRefusal('buffer-over-limits', `${manifest.name}: buffer ${b.name} of ${sizeBytes} B exceeds maxStorageBufferBindingSize ${adapter.limits.maxStorageBufferBindingSize}`);
    }
    return { name: b.name, sizeBytes };
  });
  const passes = manifest.kernels.map((k, i) => resolvePass(loaded, i, k, scope, adapter, c.inplace));
  return {
    label: `user:${manifest.name}`,
    name: manifest.name,
    op: manifest.op,
    caseLabel: c.label,
    features: manifest.features,
    scratch,
    passes,
    explicitLayout: true,
    compute: manifest.compute,
    variant: null,
    // Declared f16 numerics: the check uses f16's eps (checkOutput's inputRounding), as for the lab's own f16-staged kernels.
    ...(manifest.compute !== 'f32' ? { inputRounding: 'f16' as const } : {}),
  };
}

/**
 * The variant a manifest runs on this adapter: the first whose `when` holds (an expression of the
 * adapter's names) and whose features the adapter has. None: a refusal naming each variant's reason.
 */
export function chooseVariant(loaded: LoadedManifest, adapter: ScopeAdapter): LoadedManifest['variants'][number] {
  const names = new Map(Object.entries(adapterNames(adapter)));
  const why: string[] = [];
  for (const v of loaded.variants) {
    if (v.when && value(v.when, names) === 0) {
      why.push(`${v.name}: '${v.when.src}' is 0 here`);
      continue;
    }
    const missing = v.loaded.manifest.features.filter((f) => !adapter.features.includes(f));
    if (missing.length) {
      why.push(`${v.name}: needs ${missing.join(', ')}`);
      continue;
    }
    return v;
  }
  throw new ManifestRefusal('missing-feature', `${loaded.manifest.name}: no variant runs on this adapter (${why.join('; ')})`);
}
