// The one typed API between the page (or a headless driver) and the engine in the worker.
// Everything crossing it is structured-cloneable plain data; progress comes back through a
// callback (comlink proxies it across the worker boundary).
import type { AdapterDescriptor } from '../core/adapter';
import type { Calibration } from '../core/metrics/roofline';
import type { ProgressFn } from '../core/progress';
import type { Level1Request } from '../core/requests';
import type { LaneRequest, LaneResult, Level1Result, SweepRequest, SweepResult } from '../core/results';

export type { Progress, ProgressFn } from '../core/progress';

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
  /** The promotion lane: native vs generated over each pair's matrix. */
  lane(req: LaneRequest, onProgress?: ProgressFn): Promise<LaneResult>;
  /** Offline schedule search: candidates checked, timed, refused or proposed. Writes nothing. */
  sweep(req: SweepRequest, onProgress?: ProgressFn): Promise<SweepResult>;
  /** Measures this adapter's peaks (copy, FMA, empty dispatch); later metrics use them. */
  calibrate(onProgress?: ProgressFn): Promise<Calibration>;
  /** Hands over a stored calibration (the page keeps them in IndexedDB per adapter). */
  useCalibration(c: Calibration | null): Promise<void>;
}
