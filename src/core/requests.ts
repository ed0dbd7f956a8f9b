// What a caller asks the engine for, as plain data: Level 1's request and the variant it names,
// and the timing options. They live in core so the worker API, the page and the CLI describe
// requests without importing the GPU layer (the lane's and the sweep's are in results.ts).

import type { UserKernelSource } from './manifest/source';

/** Which kernel to run: the native one, a given schedule, or the registry's pick ('auto'). */
export type VariantRequest =
  /** `wgsl` replaces the native kernel's text (same bindings and dispatch): for editing a kernel in place. */
  | { kind: 'native'; wgsl?: string }
  | { kind: 'schedule'; schedule: unknown }
  | { kind: 'auto' }
  /** A user kernel: a manifest and its WGSL files (docs/kernel-manifest.md). */
  | ({ kind: 'user' } & UserKernelSource);

export interface MeasureOptions {
  /** Runs in the first batch (default 16). */
  minRuns?: number;
  /** Never more runs than this in one measurement (default 16384). */
  maxRuns?: number;
  /** Keep one batch under this wall time (default 2000 ms): the watchdog's bound. */
  wallBoundMs?: number;
  /** A prior estimate of one run, to size the first batch. */
  perRunEstimateNs?: number;
  /** The timed batch lasts at least this long (default 5 ms on hardware, 0 on software). */
  minBatchNs?: number;
  /**
   * Warm-up before the timed batch, ms of GPU work at least. Default: adaptive (see
   * warmupFor in src/gpu/measure.ts); 0 on a software adapter.
   */
  warmupMs?: number;
}

export interface Level1Request {
  op: string;
  dims: number[];
  layout?: string;
  params?: Record<string, number>;
  variant: VariantRequest;
  /** The watchdog's wall bound on one GPU wait, ms (src/gpu/watchdog.ts; default 30 000). */
  watchdogMs?: number;
  /** Input seed (default 1): the same seed gives the same inputs in every runtime. */
  seed?: number;
  timing?: MeasureOptions;
  /** Check only, do not time. */
  skipTiming?: boolean;
  /**
   * Diagnosis only (`lab time --time-incorrect`): time the kernel even when its check fails, to
   * learn what a part of a kernel costs by timing it with that part cut out (an ablation). The
   * result still says incorrect; it is never a verdict, a share link or a stored row.
   */
  timeIncorrect?: boolean;
}
