// A manifest with its WGSL, checked against its op before any case: the op exists, the claimed
// layouts and params are the op's, roles name sources the op has, every expression reads only
// names that will exist, and each WGSL agrees with its kernel's bindings.
import { DEFAULT_LIMITS } from '../adapter';
import { MAX_WGSL_FILE_BYTES } from '../input/caps';
import type { OpDef } from '../ops/types';
import { ManifestError } from './errors';
import { namesIn } from './expr';
import { type Manifest, type ManifestExpr, parseManifest } from './format';
import { adapterNames, caseScope } from './scope';
import { checkKernelWgsl, inspectWgsl, type WgslInfo } from './wgsl-check';

export interface LoadedManifest {
  readonly manifest: Manifest;
  /** The manifest's text exactly as given (what its hash is of). */
  readonly text: string;
  readonly op: OpDef;
  /** Per kernel, in order: its WGSL text and what inspection found in it (every variant's, in order, for a manifest of variants). */
  readonly wgsl: readonly { readonly file: string; readonly text: string; readonly info: WgslInfo }[];
  /** A manifest of variants: each loaded as a manifest of its own (empty otherwise). */
  readonly variants: readonly { readonly name: string; readonly when: ManifestExpr | null; readonly loaded: LoadedManifest }[];
}

/** Names every kernel adds: its workgroup size first, then (for uniforms and overrides) its dispatch. */
export const WORKGROUP_NAMES = ['wg_x', 'wg_y', 'wg_z'] as const;
export const DISPATCH_NAMES = ['dispatch_x', 'dispatch_y', 'dispatch_z'] as const;

function checkNames(e: ManifestExpr, known: ReadonlySet<string>): void {
  for (const name of namesIn(e.expr)) {
    if (!known.has(name)) {
      throw new ManifestError(e.path, `expression '${e.src}' reads unknown name '${name}' (names here: ${[...known].sort().join(', ')})`);
    }
  }
}

/**
 * Parses and checks a manifest against the ops the lab knows. `readWgsl` gives a kernel's file by the name the manifest uses
 * (relative to the manifest), or undefined when it was not supplied.
 */
export function loadManifest(text: string, readWgsl: (file: string) => string | undefined, ops: readonly OpDef[]): LoadedManifest {
  const manifest = parseManifest(text);
  const op = ops.find((o) => o.name === manifest.op);
  if (!op) throw new ManifestError('op', `unknown op '${manifest.op}' (ops: ${ops.map((o) => o.name).join(', ')})`);
  const layoutNames = op.layouts.map((l) => l.name);
  manifest.claims.layouts?.forEach((l, i) => {
    if (!layoutNames.includes(l)) throw new ManifestError(`claims.layouts[${i}]`, `${op.name} has no layout '${l}' (layouts: ${layoutNames.join(', ')})`);
  });
  // A probe case gives the names every case of this op has (its sources, params, features).
  const probe = op.makeCase(op.matrix[0].dims, op.matrix[0].layout);
  const known = new Set(caseScope(op, probe, { limits: DEFAULT_LIMITS, features: [], subgroupMinSize: 0, subgroupMaxSize: 0 }).keys());
  for (const name of Object.keys(manifest.claims.params)) {
    if (!Object.hasOwn(probe.params, name)) throw new ManifestError(`claims.params.${name}`, `${op.name} has no param '${name}' (params: ${Object.keys(probe.params).join(', ') || 'none'})`);
  }
  for (const role of Object.keys(manifest.claims.types)) {
    if (role.startsWith('src') && Number(role.slice(3)) >= probe.srcs.length) throw new ManifestError(`claims.types.${role}`, `${op.name} has ${probe.srcs.length} source${probe.srcs.length === 1 ? '' : 's'}`);
  }
  // From here on every problem is gathered and reported at once.
  const problems: ManifestError[] = [];
  const check = (fn: () => void) => {
    try {
      fn();
    } catch (e) {
      if (!(e instanceof ManifestError)) throw e;
      problems.push(...e.problems);
    }
  };
  manifest.lets.forEach((l) => {
    check(() => checkNames(l.value, known));
    if (known.has(l.name)) problems.push(new ManifestError(l.value.path, `'${l.name}' is already a name of the case or an earlier let`));
    known.add(l.name);
  });
  manifest.claims.require.forEach((e) => check(() => checkNames(e, known)));
  manifest.buffers.forEach((b) => check(() => checkNames(b.sizeBytes, known)));
  const adapterKnown = new Set(Object.keys(adapterNames({ limits: DEFAULT_LIMITS, features: [], subgroupMinSize: 0, subgroupMaxSize: 0 })));
  const variants = manifest.variants.map((v, j) => {
    if (v.when) check(() => checkNames(v.when!, adapterKnown));
    const wgsl = loadKernels(v.manifest, `variants[${j}].`, known, probe.srcs.length, op, readWgsl, problems, check);
    return { name: v.name, when: v.when, loaded: { manifest: v.manifest, text, op, wgsl, variants: [] } };
  });
  const wgsl = variants.length ? variants.flatMap((v) => v.loaded.wgsl) : loadKernels(manifest, '', known, probe.srcs.length, op, readWgsl, problems, check);
  if (problems.length) throw ManifestError.all(problems);
  return { manifest, text, op, wgsl, variants };
}

/** One list of kernels (the manifest's, or a variant's) against its WGSL: every problem gathered. */
function loadKernels(manifest: Manifest, prefix: string, known: ReadonlySet<string>, sources: number, op: OpDef, readWgsl: (file: string) => string | undefined, problems: ManifestError[], check: (fn: () => void) => void): LoadedManifest['wgsl'] {
  return manifest.kernels.map((k, i) => {
    const path = `${prefix}kernels[${i}]`;
    const probe = { srcs: { length: sources } };
    k.bindings.forEach((b, j) => {
      if (b.role.startsWith('src') && Number(b.role.slice(3)) >= probe.srcs.length) {
        problems.push(new ManifestError(`${path}.bindings[${j}].role`, `${op.name} has ${probe.srcs.length} source${probe.srcs.length === 1 ? '' : 's'} (src0${probe.srcs.length > 1 ? `..src${probe.srcs.length - 1}` : ''}): role '${b.role}' names none`));
      }
    });
    const kernelKnown = new Set(known);
    k.workgroupSize.forEach((e) => check(() => checkNames(e, kernelKnown)));
    WORKGROUP_NAMES.forEach((n) => kernelKnown.add(n));
    (k.dispatch.kind === 'grid' ? k.dispatch.dims : [k.dispatch.workgroups]).forEach((e) => check(() => checkNames(e, kernelKnown)));
    DISPATCH_NAMES.forEach((n) => kernelKnown.add(n));
    k.overrides.forEach((o) => check(() => checkNames(o.value, kernelKnown)));
    k.uniforms.forEach((u) => check(() => checkNames(u.value, kernelKnown)));
    const source = k.wgsl.text ?? readWgsl(k.wgsl.file);
    const bad = (detail: string) => {
      problems.push(new ManifestError(`${path}.wgsl`, detail));
      return { file: k.wgsl.file, text: '', info: inspectWgsl('') };
    };
    if (source === undefined) return bad(`the WGSL file '${k.wgsl.file}' was not supplied`);
    if (source.length > MAX_WGSL_FILE_BYTES) return bad(`the WGSL file '${k.wgsl.file}' is ${source.length} characters, over the cap of ${MAX_WGSL_FILE_BYTES}`);
    if (!source.trim()) return bad(`the WGSL file '${k.wgsl.file}' is empty`);
    const info = inspectWgsl(source);
    problems.push(...checkKernelWgsl(k, path, info, manifest.features));
    return { file: k.wgsl.file, text: source, info };
  });
}
