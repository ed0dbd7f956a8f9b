// The engine behind LabApi: owns the device (reopened after a loss) and runs requests one at a
// time, so timings never overlap. The page's worker and the Node CLI both use this class.
import { censusOf, type CensusReport, type CensusRequest } from '../core/census/census-request';
import type { GraphRunRequest } from '../core/census/graph-report';
import { runGraph } from './graph-run';
import { adapterFingerprint, DEFAULT_LIMITS, type Runtime } from '../core/adapter';
import type { Calibration } from '../core/metrics/roofline';
import { drainPool } from './buffer-pool';
import { runCalibration } from './calibrate';
import type { ProgressFn } from '../core/progress';
import type { Level1Request } from '../core/requests';
import { CaseDataCache } from '../core/plan/case-data';
import { planCase } from '../core/plan/plan';
import { resolveKernel } from '../core/resolve-kernel';
import { resolveManifest } from '../core/manifest/resolve';
import { loadUserKernel } from '../core/manifest/source';
import type { LaneRequest, SweepRequest } from '../core/results';
import type { CodegenPreview, LabApi } from '../core/lab-api';
import { assertAlive, deviceAdapter, openDevice, type GpuContext } from './device';
import { runLane } from './lane';
import { runLevel1 } from './level1';
import { runFormats } from './formats';
import type { FormatsRequest } from '../core/report/formats';
import { runSweep } from './sweep';
import { isGivenUp, stuckAdapter, WATCHDOG_MS_RANGE } from './watchdog';
import { DeviceLostError, UsageError } from '../core/errors';

export interface EngineOptions {
  runtime: Runtime;
  /** Fail unless the adapter matches (the lane's --device). */
  deviceMatch?: string;
  /** false: time with the wall clock even where timestamp-query exists (--timer wallclock). */
  timestamps?: boolean;
  /** Where calibrations persist (the Node CLI keeps them in a cache file per adapter). */
  loadCalibration?: (fingerprint: string) => Promise<Calibration | null> | Calibration | null;
  onCalibration?: (c: Calibration) => Promise<void> | void;
  /** Stream-copy size for calibration, MiB (default: 1024 on hardware). */
  calibrationCopyMiB?: number;
  /** Dawn toggles the runtime enabled (Node): named in the adapter's description. */
  dawnToggles?: readonly string[];
  /** Host bytes of inputs and oracles kept for later runs (default CASE_DATA_CACHE_BYTES; a page's worker keeps less). */
  caseDataBytes?: number;
}

export class Engine implements LabApi {
  private ctx: Promise<GpuContext> | null = null;
  private calibration: Calibration | null = null;
  /** Inputs and oracles of the cases run, reused by later runs of this engine (replays). */
  private readonly host: CaseDataCache;
  private queue: Promise<unknown> = Promise.resolve();
  /** Run ids queued or running, and those of them cancel() named. */
  private readonly pending = new Set<string>();
  private readonly cancelled = new Set<string>();

  constructor(
    private readonly getGpu: () => GPU | undefined,
    private readonly opts: EngineOptions,
  ) {
    this.host = new CaseDataCache(opts.caseDataBytes);
  }

  /** The live device, reopened when the last one was lost. */
  async context(): Promise<GpuContext> {
    if (this.ctx) {
      const ctx = await this.ctx.catch(() => null);
      if (ctx && ctx.lostReason === null) return ctx;
    }
    this.ctx = openDevice(this.getGpu(), this.opts).then(async (ctx) => {
      // A calibration applies only to the adapter it was measured on.
      const stored = this.calibration ?? (await this.opts.loadCalibration?.(adapterFingerprint(ctx.adapter))) ?? null;
      ctx.calibration = stored && stored.adapterFingerprint === adapterFingerprint(ctx.adapter) ? stored : null;
      ctx.host = this.host;
      return ctx;
    });
    this.ctx.catch(() => (this.ctx = null));
    return this.ctx;
  }

  /**
   * Runs jobs strictly one after another: two timings must never share the GPU. A job with a
   * `runId` can be cancelled: its device context carries the token, checked before every
   * allocation and GPU batch (assertAlive), so it stops between batches with RunCancelled.
   */
  protected exclusive<T>(job: (ctx: GpuContext) => Promise<T>, runId?: string, watchdogMs?: number): Promise<T> {
    if (watchdogMs !== undefined && !(Number.isInteger(watchdogMs) && watchdogMs >= WATCHDOG_MS_RANGE[0] && watchdogMs <= WATCHDOG_MS_RANGE[1])) {
      return Promise.reject(new UsageError(`the watchdog's bound must be an integer from ${WATCHDOG_MS_RANGE[0]} to ${WATCHDOG_MS_RANGE[1]} ms, got ${watchdogMs}`));
    }
    if (runId) this.pending.add(runId);
    const start = async () => {
      try {
        // A software adapter still spinning in a kernel the watchdog gave up finishes no new work: said at once.
        const stuck = stuckAdapter();
        if (stuck) throw new DeviceLostError(stuck);
        const ctx = await this.context();
        ctx.cancelled = runId ? () => this.cancelled.has(runId) : null;
        ctx.watchdogMs = watchdogMs ?? null;
        try {
          assertAlive(ctx);
          return await job(ctx);
        } finally {
          ctx.cancelled = null;
          ctx.watchdogMs = null;
        }
      } finally {
        if (runId) {
          this.pending.delete(runId);
          this.cancelled.delete(runId);
        }
      }
    };
    const run = this.queue.then(start, start);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Cancels a queued or running job by its run id; an id that is not pending is ignored. */
  async cancel(runId: string): Promise<void> {
    if (this.pending.has(runId)) this.cancelled.add(runId);
  }

  async adapter() {
    return (await this.context()).adapter;
  }

  async preview(req: Omit<Level1Request, 'timing' | 'skipTiming' | 'seed'>): Promise<CodegenPreview> {
    const plan = planCase(req);
    const { op, c } = plan;
    // Codegen is pure; without a device it validates against the limits every adapter has.
    const ctx = this.ctx ? await this.context() : null;
    const adapter = ctx ? ctx.adapter : { limits: DEFAULT_LIMITS, features: [] as string[] };
    if (req.variant.kind === 'user') {
      const plan = resolveManifest(loadUserKernel(req.variant), c, ctx ? deviceAdapter(ctx) : { ...adapter, subgroupMinSize: 0, subgroupMaxSize: 0 });
      const wgsl = plan.passes.length === 1 ? plan.passes[0].wgsl : plan.passes.map((p, i) => `// ---- pass ${i + 1} of ${plan.passes.length}: ${p.kernelName} (${p.wgslFile}), dispatch ${p.dispatch.join('×')}\n${p.wgsl}`).join('\n');
      return { op: op.name, label: c.label, variant: 'user', scheduleKey: null, wgsl, dispatch: plan.passes[0].dispatch, fallback: null };
    }
    const r = resolveKernel(plan, req.variant, adapter);
    return { op: op.name, label: c.label, variant: r.variant, scheduleKey: r.scheduleKey, wgsl: r.kernel.wgsl, dispatch: r.kernel.dispatch, fallback: r.fallback };
  }

  time(req: Level1Request, onProgress?: ProgressFn, runId?: string) {
    return this.exclusive((ctx) => runLevel1(ctx, req, onProgress), runId, req.watchdogMs);
  }

  formats(req: FormatsRequest, onProgress?: ProgressFn, runId?: string) {
    return this.exclusive((ctx) => runFormats((r) => runLevel1(ctx, r), ctx.adapter, req, onProgress), runId);
  }

  lane(req: LaneRequest, onProgress?: ProgressFn, runId?: string) {
    return this.exclusive((ctx) => runLane(ctx, req, onProgress), runId, req.watchdogMs);
  }

  sweep(req: SweepRequest, onProgress?: ProgressFn, runId?: string) {
    return this.exclusive((ctx) => runSweep(ctx, req, onProgress), runId);
  }

  graphRun(req: GraphRunRequest, onProgress?: ProgressFn, runId?: string) {
    return this.exclusive((ctx) => runGraph(ctx, req, onProgress), runId);
  }

  calibrate(onProgress?: ProgressFn, runId?: string) {
    return this.exclusive(async (ctx) => {
      const calibration = await runCalibration(ctx, onProgress, this.opts.calibrationCopyMiB);
      ctx.calibration = calibration;
      this.calibration = calibration;
      await this.opts.onCalibration?.(calibration);
      return calibration;
    }, runId);
  }

  /** Pure work, not queued behind GPU runs: the lines stay here, only the report crosses. */
  async census(req: CensusRequest): Promise<CensusReport> {
    const { exported: _lines, ...report } = await censusOf(req);
    return report;
  }

  async useCalibration(c: Calibration | null): Promise<void> {
    this.calibration = c;
    if (this.ctx) {
      const ctx = await this.ctx.catch(() => null);
      if (ctx) ctx.calibration = c && c.adapterFingerprint === adapterFingerprint(ctx.adapter) ? c : null;
    }
  }

  /** Releases the device (the CLI calls this before exiting). */
  async close(): Promise<void> {
    const ctx = await this.ctx?.catch(() => null);
    // A device the watchdog gave up is left alone: destroying it would wait for its hung queue.
    if (ctx && !isGivenUp(ctx.device)) {
      drainPool(ctx);
      ctx.device.destroy();
    }
    this.ctx = null;
  }
}
