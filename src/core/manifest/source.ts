// A user kernel as requests carry it (plain data through the worker and the CLI): the manifest's
// text and its WGSL files by name, and what resolving it for a case gives.
import { OPS } from '../ops/registry';
import type { ShapeVerdict } from '../stats/verdict';
import type { Metrics } from '../metrics/roofline';
import { type LoadedManifest, loadManifest } from './load';
import type { UserKernelIdentity } from './hash';

export interface UserKernelSource {
  readonly manifest: string;
  /** WGSL by the file name the manifest uses (the page matches dropped files by name). */
  readonly files: Readonly<Record<string, string>>;
}

/** Which user kernel a result is of: its name and hashes, and `id` = name@hash12. */
export interface UserKernelRef extends UserKernelIdentity {
  readonly id: string;
}

/** Loads a source; a file the manifest names with a folder may be given by its base name. */
export function loadUserKernel(src: UserKernelSource): LoadedManifest {
  const byBase = new Map(Object.entries(src.files).map(([k, v]) => [k.split(/[\\/]/).pop()!, v]));
  return loadManifest(src.manifest, (file) => src.files[file] ?? byBase.get(file.split(/[\\/]/).pop()!), OPS);
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
