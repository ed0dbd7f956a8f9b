// The one typed API between the page (or a headless driver) and the engine in the worker.
// Everything crossing it is structured-cloneable plain data; progress comes back through a
// callback (comlink proxies it across the worker boundary).
import type { AdapterDescriptor } from '../core/adapter';
import type { Level1Request, Level1Result } from '../gpu/level1';

export interface Progress {
  /** What is running, for a progress bar: 'ADD 4096x512 pass 2/5 generated'. */
  readonly label: string;
  /** 0..1 */
  readonly fraction: number;
  /** Estimated time left, ms (null until it can be estimated). */
  readonly etaMs: number | null;
}

export type ProgressFn = (p: Progress) => void;

export interface CodegenPreview {
  readonly op: string;
  readonly label: string;
  readonly variant: 'native' | 'generated';
  readonly scheduleKey: string | null;
  readonly wgsl: string;
  readonly dispatch: readonly [number, number, number];
  readonly fallback: { code: string; reason: string } | null;
}

export interface LabApi {
  /** Opens the device if needed and describes its adapter. */
  adapter(): Promise<AdapterDescriptor>;
  /** Codegen only (no GPU work): what a request would run. */
  preview(req: Omit<Level1Request, 'timing' | 'skipTiming' | 'seed'>): Promise<CodegenPreview>;
  /** Level 1: check against the oracle, then time. */
  time(req: Level1Request, onProgress?: ProgressFn): Promise<Level1Result>;
}
