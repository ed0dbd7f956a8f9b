// A user kernel as requests carry it (plain data through the worker and the CLI): the manifest's
// text and its WGSL files by name, and what resolving it for a case gives.
import { OPS } from '../ops/registry';
import type { ShapeVerdict } from '../stats/verdict';
import type { Metrics } from '../metrics/roofline';
import type { OpCase } from '../ops/types';
import type { Compute } from './format';
import { type LoadedManifest, loadManifest } from './load';
import { resolveManifest, type UserKernelPlan } from './resolve';
import type { ScopeAdapter } from './scope';
import { shortKernelId, userKernelIdentity } from './hash';
import type { UserKernelIdentity } from './hash';

export interface UserKernelSource {
  readonly manifest: string;
  /** WGSL by the file name the manifest uses (the page matches dropped files by name). */
  readonly files: Readonly<Record<string, string>>;
  /**
   * Set when an earlier process's watchdog gave this kernel up (its note): the lane reports it
   * hung on every shape and does not run it (src/cli/watchdog-respawn.ts).
   */
  readonly hungNote?: string;
}

/**
 * Which user kernel a result is of: its name and hashes, and `id` = name@hash12 — followed by its
 * declared numerics when they are not f32 ('lab-add@3f2a9c01d4e5 (f16-staged)'), so every table,
 * chart, markdown line and link that names the kernel says by which precision it was judged.
 */
export interface UserKernelRef extends UserKernelIdentity {
  readonly id: string;
  /** The variant run on this adapter (a manifest of variants). */
  readonly variant?: string;
  /** Declared numerics other than f32, and the bound they set. */
  readonly compute?: Exclude<Compute, 'f32'>;
  readonly numerics?: string;
}

/** The identity with what the resolved plan adds: its variant and declared numerics. */
export function refForPlan(ref: UserKernelRef, plan: Pick<UserKernelPlan, 'variant' | 'compute'>): UserKernelRef {
  const base = shortKernelId(ref);
  const f16 = plan.compute !== 'f32';
  return {
    ...ref,
    id: f16 ? `${base} (${plan.compute})` : base,
    ...(plan.variant ? { variant: plan.variant } : {}),
    ...(f16
      ? { compute: plan.compute, numerics: `declared ${plan.compute}: judged by f16's bound sqrt(k)·8·eps(f16 = 2^-10)·(|ref| + floor), not by f32 semantics` }
      : {}),
  };
}

/** Loads a source; a file the manifest names with a folder may be given by its base name. */
export function loadUserKernel(src: UserKernelSource): LoadedManifest {
  const byBase = new Map(Object.entries(src.files).map(([k, v]) => [k.split(/[\\/]/).pop()!, v]));
  return loadManifest(src.manifest, (file) => src.files[file] ?? byBase.get(file.split(/[\\/]/).pop()!), OPS);
}

/**
 * A source resolved for a case: the passes to run and which kernel it is (hashes included).
 * Throws ManifestError (the manifest is wrong) or ManifestRefusal (not this case, not here).
 */
export async function resolveUserKernel(src: UserKernelSource, c: OpCase, adapter: ScopeAdapter): Promise<{ plan: UserKernelPlan; ref: UserKernelRef }> {
  const loaded = loadUserKernel(src);
  const plan = resolveManifest(loaded, c, adapter);
  const identity = await userKernelIdentity(loaded);
  return { plan, ref: refForPlan({ ...identity, id: shortKernelId(identity) }, plan) };
}

/** A user kernel's column in a lane shape: its own check, its passes against native, its verdict. */
export interface LaneUserColumn {
  readonly kernel: UserKernelRef;
  /** The timing verdicts of the lane; 'declared-fallback' when the case is outside its claims. */
  readonly verdict: ShapeVerdict;
  readonly refusal: { readonly code: string; readonly reason: string; readonly declared: boolean } | null;
  readonly correct: boolean | null;
  readonly maxErrRatio: number | null;
  readonly medianNs: number | null;
  /** native median / user median, one per pass. */
  readonly speedups: readonly number[];
  readonly speedupMedian: number | null;
  readonly speedupMin: number | null;
  readonly speedupMax: number | null;
  readonly metrics: Metrics | null;
  readonly note: string | null;
}
