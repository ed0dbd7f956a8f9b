// The engine behind LabApi: owns the device (reopened after a loss) and runs requests one at a
// time, so timings never overlap. The page's worker and the Node CLI both use this class.
import type { Runtime } from '../core/adapter';
import { DEFAULT_LIMITS } from '../core/adapter';
import type { CodegenPreview, LabApi, ProgressFn } from '../worker/api';
import { openDevice, type GpuContext } from './device';
import { buildCase, resolveKernel, runLevel1, type Level1Request } from './level1';

export interface EngineOptions {
  runtime: Runtime;
  /** Fail unless the adapter matches (the lane's --device). */
  deviceMatch?: string;
}

export class Engine implements LabApi {
  private ctx: Promise<GpuContext> | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly getGpu: () => GPU | undefined,
    private readonly opts: EngineOptions,
  ) {}

  /** The live device, reopened when the last one was lost. */
  async context(): Promise<GpuContext> {
    if (this.ctx) {
      const ctx = await this.ctx.catch(() => null);
      if (ctx && ctx.lostReason === null) return ctx;
    }
    this.ctx = openDevice(this.getGpu(), this.opts);
    this.ctx.catch(() => (this.ctx = null));
    return this.ctx;
  }

  /** Runs jobs strictly one after another: two timings must never share the GPU. */
  protected exclusive<T>(job: () => Promise<T>): Promise<T> {
    const run = this.queue.then(job, job);
    this.queue = run.catch(() => undefined);
    return run;
  }

  async adapter() {
    return (await this.context()).adapter;
  }

  async preview(req: Omit<Level1Request, 'timing' | 'skipTiming' | 'seed'>): Promise<CodegenPreview> {
    const { op, c } = buildCase(req);
    // Codegen is pure; without a device it validates against the limits every adapter has.
    const adapter = this.ctx ? (await this.context()).adapter : { limits: DEFAULT_LIMITS, features: [] as string[] };
    const r = resolveKernel(op, c, req.variant, adapter);
    return { op: op.name, label: c.label, variant: r.variant, scheduleKey: r.scheduleKey, wgsl: r.kernel.wgsl, dispatch: r.kernel.dispatch, fallback: r.fallback };
  }

  time(req: Level1Request, onProgress?: ProgressFn) {
    return this.exclusive(async () => {
      const ctx = await this.context();
      onProgress?.({ label: `${req.op} ${req.dims.join('x')}`, fraction: 0, etaMs: null });
      const result = await runLevel1(ctx, req);
      onProgress?.({ label: `${req.op} ${req.dims.join('x')}`, fraction: 1, etaMs: 0 });
      return result;
    });
  }

  /** Releases the device (the CLI calls this before exiting). */
  async close(): Promise<void> {
    const ctx = await this.ctx?.catch(() => null);
    ctx?.device.destroy();
    this.ctx = null;
  }
}
