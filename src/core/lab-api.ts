// The engine's API as plain data types: what the page's worker serves over comlink, what the
// Node CLI calls directly, and what the Engine (src/gpu/engine.ts) implements. It lives in core
// so the GPU layer implements it without importing the worker (src/worker/api.ts re-exports it).
import type { GraphRunRequest, GraphRunResult } from './census/graph-report';
import type { AdapterDescriptor } from './adapter';
import type { CensusReport, CensusRequest } from './census/census-request';
import type { Calibration } from './metrics/roofline';
import type { ProgressFn } from './progress';
import type { FormatsJson } from './report/json';
import type { FormatsRequest } from './report/formats';
import type { Level1Request } from './requests';
import type { LaneRequest, LaneResult, Level1Result, SweepRequest, SweepResult } from './results';

export interface CodegenPreview {
  readonly op: string;
  readonly label: string;
  readonly variant: 'native' | 'generated' | 'user';
  readonly scheduleKey: string | null;
  /** A user kernel of several passes: each pass's WGSL after a comment naming it. */
  readonly wgsl: string;
  readonly dispatch: readonly [number, number, number];
  readonly fallback: { code: string; reason: string } | null;
}

/**
 * Every run takes an optional `runId` (last argument): `cancel(runId)` stops it between GPU
 * batches with a RunCancelled error (comlink cannot carry an AbortSignal, so an id crosses the
 * worker boundary instead). A cancelled run returns nothing, so nothing half-done is stored.
 */
export interface LabApi {
  /** Opens the device if needed and describes its adapter. */
  adapter(): Promise<AdapterDescriptor>;
  /** Codegen only (no GPU work): what a request would run. */
  preview(req: Omit<Level1Request, 'timing' | 'skipTiming' | 'seed'>): Promise<CodegenPreview>;
  /** Level 1: check against the oracle, then time. */
  time(req: Level1Request, onProgress?: ProgressFn, runId?: string): Promise<Level1Result>;
  /** `lab formats`: one op over many weight formats, each checked then timed (Level 1), fastest first, with its quantization error. */
  formats(req: FormatsRequest, onProgress?: ProgressFn, runId?: string): Promise<FormatsJson>;
  /** The promotion lane: native vs generated over each pair's matrix. */
  lane(req: LaneRequest, onProgress?: ProgressFn, runId?: string): Promise<LaneResult>;
  /** Offline schedule search: candidates checked, timed, refused or proposed. Writes nothing. */
  sweep(req: SweepRequest, onProgress?: ProgressFn, runId?: string): Promise<SweepResult>;
  /** The training step's graph run node by node on the GPU (census --run): losses, per-op dispatches and times, step 1's check. */
  graphRun(req: GraphRunRequest, onProgress?: ProgressFn, runId?: string): Promise<GraphRunResult>;
  /** Measures this adapter's peaks (copy, FMA, empty dispatch); later metrics use them. */
  calibrate(onProgress?: ProgressFn, runId?: string): Promise<Calibration>;
  /** Cancels the queued or running job with this id (ignored when none is pending). */
  cancel(runId: string): Promise<void>;
  /**
   * The training step's census (no GPU work): in the page's worker, so reading a GGUF header
   * and building a large model's graph never freezes the tab. Caps refuse an absurd model first.
   */
  census(req: CensusRequest): Promise<CensusReport>;
  /** Hands over a stored calibration (the page keeps them in IndexedDB per adapter). */
  useCalibration(c: Calibration | null): Promise<void>;
}
