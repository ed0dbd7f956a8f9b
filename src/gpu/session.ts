// Level 1's session: buffers, pipeline and bind group made once by prepare(); upload, dispatch
// and readback kept apart so a timed run measures the shader and its submission, not copies.
import { DeviceRejection } from '../core/errors';
import { deviceBufferSizeBytes, sentinelBuffer, withGuards } from '../core/hostdata';
import type { BindingRole, KernelSpec } from '../core/kernel';
import { type KernelProgram, programOf } from '../core/program';
import type { OpCase } from '../core/ops/types';
import { acquireBuffer, releaseBuffer } from './buffer-pool';
import { pipelineFor, withErrorScopes } from './compile';
import { assertAlive, type GpuContext } from './device';
import { isGivenUp, watched } from './watchdog';

/** WebGPU guarantees at least 4096 queries per set: two per run. */
const MAX_RUNS_PER_BATCH = 2048;

export interface RawTiming {
  /** begin/end pairs, ns, as the device reported them. */
  readonly timestamps: bigint[];
}

/** One pass ready to encode: its pipeline, its bind group, its workgroups. */
interface Step {
  readonly pipeline: GPUComputePipeline;
  readonly bindGroup: GPUBindGroup;
  readonly dispatch: readonly [number, number, number];
  readonly repeat: number;
}

export class Session {
  private queryCapacity = 0;
  private querySet: GPUQuerySet | null = null;
  private resolveBuffer: GPUBuffer | null = null;
  private readBuffer: GPUBuffer | null = null;

  private constructor(
    private readonly ctx: GpuContext,
    readonly program: KernelProgram,
    private readonly steps: readonly Step[],
    /** Cleared to zero before every run's first pass. */
    private readonly scratch: readonly GPUBuffer[],
    private readonly buffers: Map<BindingRole, GPUBuffer>,
    private readonly initial: Map<GPUBuffer, ArrayBuffer>,
    private readonly dstBuffer: GPUBuffer,
    private readonly owned: GPUBuffer[],
  ) {
    this.device = ctx.device;
  }

  /** The device this session's buffers live on. */
  private readonly device: GPUDevice;

  /**
   * `shareWith`: run on another session's tensors (same case, same inputs) instead of new ones.
   * The lane and the sweep compare variants this way, so a ratio never carries a difference in
   * where the buffers landed (on SwiftShader, a CPU, cache aliasing between two allocations
   * once biased an A/A control to 'slower'; docs/benchmarks.md).
   */
  static async prepare(ctx: GpuContext, kernel: KernelSpec | KernelProgram, c: OpCase, srcs: readonly ArrayBuffer[], shareWith?: Session): Promise<Session> {
    assertAlive(ctx);
    const { device, adapter } = ctx;
    const program = programOf(kernel);
    const pipelines: GPUComputePipeline[] = [];
    for (const pass of program.passes) pipelines.push(await pipelineFor(ctx, pass, program.explicitLayout));
    const buffers = new Map<BindingRole, GPUBuffer>();
    const initial = new Map<GPUBuffer, ArrayBuffer>();
    const owned: GPUBuffer[] = [];
    const make = (label: string, size: number, usage: number) =>
      withErrorScopes(device, `allocating ${label} (${size} B)`, () => {
        if (size > adapter.limits.maxStorageBufferBindingSize) {
          throw new DeviceRejection(`${size} B exceeds maxStorageBufferBindingSize ${adapter.limits.maxStorageBufferBindingSize}`);
        }
        const b = acquireBuffer(ctx, size, usage, label);
        owned.push(b);
        return b;
      });
    const storage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
    try {
      if (shareWith) {
        for (const [role, b] of shareWith.buffers) if (role !== 'params') buffers.set(role, b);
        for (const [b, data] of shareWith.initial) initial.set(b, data);
      }
      for (let i = 0; i < c.srcs.length && !shareWith; i++) {
        const data = withGuards(srcs[i]);
        const b = await make(`src${i}`, data.byteLength, storage);
        buffers.set(`src${i}` as BindingRole, b);
        initial.set(b, data);
      }
      let dstBuffer: GPUBuffer;
      if (shareWith) {
        dstBuffer = shareWith.dstBuffer;
      } else if (c.inplace) {
        dstBuffer = buffers.get('src0')!;
      } else {
        const size = deviceBufferSizeBytes(c.dst.bufferSizeBytes);
        dstBuffer = await make('dst', size, storage);
        initial.set(dstBuffer, sentinelBuffer(size));
      }
      buffers.set('dst', dstBuffer);
      const scratch = new Map<string, GPUBuffer>();
      for (const s of program.scratch) scratch.set(s.name, await make(`scratch ${s.name}`, s.sizeBytes, storage));
      const steps: Step[] = [];
      for (const [i, pass] of program.passes.entries()) {
        // Each pass has its own params uniform (a user kernel's passes each declare theirs).
        let params: GPUBuffer | undefined;
        if (pass.uniforms) {
          const uniforms = pass.uniforms;
          params = await make(`params ${pass.label}`, uniforms.byteLength, GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST);
          device.queue.writeBuffer(params, 0, uniforms);
          if (i === 0) buffers.set('params', params);
        }
        const bindGroup = await withErrorScopes(device, `binding ${pass.label}`, () =>
          device.createBindGroup({
            layout: pipelines[i].getBindGroupLayout(0),
            entries: pass.bindings.map((bs) => {
              const buffer = bs.role === 'scratch' ? scratch.get(bs.buffer ?? '') : bs.role === 'params' ? params : buffers.get(bs.role);
              if (!buffer) throw new DeviceRejection(`${pass.label} binds role '${bs.role}${bs.buffer ? ` ${bs.buffer}` : ''}', which this case has no buffer for`);
              return { binding: bs.binding, resource: { buffer } };
            }),
          }),
        );
        steps.push({ pipeline: pipelines[i], bindGroup, dispatch: pass.dispatch, repeat: pass.repeat ?? 1 });
      }
      return new Session(ctx, program, steps, [...scratch.values()], buffers, initial, dstBuffer, owned);
    } catch (e) {
      owned.forEach((b) => releaseBuffer(ctx, b));
      throw e;
    }
  }

  /**
   * A session on buffers that already exist and outlive it (the graph run's, allocated once for
   * every node): no upload, nothing owned but the params uniforms; `encodeInto` records its run
   * into the caller's encoder.
   */
  static async onBuffers(ctx: GpuContext, kernel: KernelSpec | KernelProgram, bound: ReadonlyMap<BindingRole, GPUBuffer>): Promise<Session> {
    assertAlive(ctx);
    const { device } = ctx;
    const program = programOf(kernel);
    if (program.scratch.length) throw new DeviceRejection(`${program.label}: a program with scratch buffers does not run on shared buffers`);
    const owned: GPUBuffer[] = [];
    const buffers = new Map(bound);
    const steps: Step[] = [];
    try {
      for (const pass of program.passes) {
        const pipeline = await pipelineFor(ctx, pass, program.explicitLayout);
        let params: GPUBuffer | undefined;
        if (pass.uniforms) {
          params = device.createBuffer({ size: pass.uniforms.byteLength, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST, label: `params ${pass.label}` });
          owned.push(params);
          device.queue.writeBuffer(params, 0, pass.uniforms);
        }
        const bindGroup = await withErrorScopes(device, `binding ${pass.label}`, () =>
          device.createBindGroup({
            layout: pipeline.getBindGroupLayout(0),
            entries: pass.bindings.map((bs) => {
              const buffer = bs.role === 'params' ? params : bs.role === 'scratch' ? undefined : buffers.get(bs.role);
              if (!buffer) throw new DeviceRejection(`${pass.label} binds role '${bs.role}', which this node has no buffer for`);
              return { binding: bs.binding, resource: { buffer } };
            }),
          }),
        );
        steps.push({ pipeline, bindGroup, dispatch: pass.dispatch, repeat: pass.repeat ?? 1 });
      }
    } catch (e) {
      owned.forEach((b) => b.destroy());
      throw e;
    }
    const dst = buffers.get('dst');
    if (!dst) throw new DeviceRejection(`${program.label}: no dst buffer given`);
    // owned uniforms are destroyed directly (not pooled: they were never acquired from the pool)
    const session = new Session(ctx, program, steps, [], buffers, new Map(), dst, []);
    session.ownUniforms = owned;
    return session;
  }

  private ownUniforms: GPUBuffer[] = [];

  /** Records one run into `encoder`, its pass timestamped when `timestampWrites` is given. */
  encodeInto(encoder: GPUCommandEncoder, timestampWrites?: GPUComputePassTimestampWrites): void {
    this.encodeRun(encoder, timestampWrites);
  }

  /** Writes the inputs and the dst sentinel (guards included). */
  upload(): void {
    assertAlive(this.ctx);
    for (const [buffer, data] of this.initial) this.ctx.device.queue.writeBuffer(buffer, 0, data);
  }

  /** What the dst buffer holds right after upload(). */
  dstBefore(): ArrayBuffer {
    return this.initial.get(this.dstBuffer)!;
  }

  /** One run: scratch cleared (outside the timed pass), then every step in one compute pass. */
  private encodeRun(encoder: GPUCommandEncoder, timestampWrites?: GPUComputePassTimestampWrites): void {
    for (const b of this.scratch) encoder.clearBuffer(b);
    const pass = encoder.beginComputePass(timestampWrites ? { timestampWrites } : {});
    for (const step of this.steps) {
      pass.setPipeline(step.pipeline);
      pass.setBindGroup(0, step.bindGroup);
      const [x, y, z] = step.dispatch;
      for (let r = 0; r < step.repeat; r++) pass.dispatchWorkgroups(x, y, z);
    }
    pass.end();
  }

  /** One run, submitted and waited for. */
  async dispatch(runs = 1): Promise<void> {
    assertAlive(this.ctx);
    const { device } = this.ctx;
    await watched(
      this.ctx,
      `${runs} run${runs === 1 ? '' : 's'}`,
      this.program.label,
      withErrorScopes(device, `dispatching ${this.program.label}`, async () => {
        const encoder = device.createCommandEncoder();
        for (let i = 0; i < runs; i++) this.encodeRun(encoder);
        device.queue.submit([encoder.finish()]);
        await device.queue.onSubmittedWorkDone();
      }),
    );
    // One correctness dispatch does not bring the clocks up: only sustained work (the warm-up's
    // batches, timed batches) counts as busy, so the CPU work before a check still reads as idle
    // and the next measurement warms up (docs/benchmarks.md: in-process Level 1 at 345 MHz).
    if (runs > 1) this.ctx.lastGpuBusyMs = performance.now();
    assertAlive(this.ctx);
  }

  /** The whole dst buffer (guards included) as it is now. */
  async readback(): Promise<ArrayBuffer> {
    return this.copyOut(this.dstBuffer);
  }

  private async copyOut(buffer: GPUBuffer): Promise<ArrayBuffer> {
    assertAlive(this.ctx);
    const { device } = this.ctx;
    const size = buffer.size;
    const staging = device.createBuffer({ size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST, label: 'readback' });
    try {
      const encoder = device.createCommandEncoder();
      encoder.copyBufferToBuffer(buffer, 0, staging, 0, size);
      device.queue.submit([encoder.finish()]);
      await watched(this.ctx, 'reading a buffer back', this.program.label, staging.mapAsync(GPUMapMode.READ));
      return staging.getMappedRange().slice(0);
    } finally {
      if (!isGivenUp(device)) staging.destroy();
    }
  }

  /**
   * Sources the program binds read_write (a user kernel's WGSL may declare them so) that no
   * longer hold what upload() wrote: one sentence each. A source is an input: writing it is a
   * failure by name, like a guard band.
   */
  async sourceWrites(): Promise<string[]> {
    const roles = new Set(this.program.passes.flatMap((p) => p.bindings.filter((b) => b.access === 'read_write' && b.role.startsWith('src')).map((b) => b.role as BindingRole)));
    const out: string[] = [];
    for (const role of roles) {
      const buffer = this.buffers.get(role);
      const before = buffer && buffer !== this.dstBuffer ? this.initial.get(buffer) : undefined;
      if (!buffer || !before) continue;
      const a = new Uint8Array(before);
      const b = new Uint8Array(await this.copyOut(buffer));
      let changed = 0;
      let first = -1;
      for (let i = 0; i < a.length; i++) {
        if (a[i] !== b[i]) {
          changed++;
          if (first < 0) first = i;
        }
      }
      if (changed) out.push(`source-written: the kernel wrote to ${role} (bound read_write as its WGSL declares it): ${changed} bytes changed, the first at byte ${first} of the bound buffer`);
    }
    return out;
  }

  private ensureQueries(runs: number): void {
    if (runs <= this.queryCapacity) return;
    this.querySet?.destroy();
    this.resolveBuffer?.destroy();
    this.readBuffer?.destroy();
    const { device } = this.ctx;
    this.queryCapacity = runs;
    this.querySet = device.createQuerySet({ type: 'timestamp', count: runs * 2 });
    this.resolveBuffer = device.createBuffer({ size: runs * 16, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
    this.readBuffer = device.createBuffer({ size: runs * 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  }

  /**
   * n runs, each its own compute pass with timestampWrites, in as few command buffers as
   * the query limit allows. Passes that write the same buffer are serialized by WebGPU.
   */
  async time(runs: number): Promise<RawTiming> {
    assertAlive(this.ctx);
    if (!this.ctx.hasTimestamps) throw new DeviceRejection('this device has no timestamp-query: use timeWallclock');
    const { device } = this.ctx;
    const timestamps: bigint[] = [];
    for (let done = 0; done < runs; ) {
      const batch = Math.min(MAX_RUNS_PER_BATCH, runs - done);
      this.ensureQueries(batch);
      const querySet = this.querySet!;
      const resolve = this.resolveBuffer!;
      const read = this.readBuffer!;
      await watched(this.ctx, `a timed batch of ${batch} runs`, this.program.label, withErrorScopes(device, `timing ${this.program.label}`, async () => {
        const encoder = device.createCommandEncoder();
        for (let i = 0; i < batch; i++) {
          this.encodeRun(encoder, { querySet, beginningOfPassWriteIndex: 2 * i, endOfPassWriteIndex: 2 * i + 1 });
        }
        encoder.resolveQuerySet(querySet, 0, batch * 2, resolve, 0);
        encoder.copyBufferToBuffer(resolve, 0, read, 0, batch * 16);
        device.queue.submit([encoder.finish()]);
        await read.mapAsync(GPUMapMode.READ, 0, batch * 16);
      }));
      const values = new BigUint64Array(read.getMappedRange(0, batch * 16).slice(0));
      read.unmap();
      for (const v of values) timestamps.push(v);
      done += batch;
      this.ctx.lastGpuBusyMs = performance.now();
    }
    assertAlive(this.ctx);
    return { timestamps };
  }

  /** Wall-clock time of one batch of n runs (fallback without timestamp-query), ns. */
  async timeWallclock(runs: number): Promise<number> {
    const t0 = performance.now();
    await this.dispatch(runs);
    return (performance.now() - t0) * 1e6;
  }

  destroy(): void {
    // A device the watchdog gave up keeps its buffers: they are not the new device's to pool.
    if (this.ctx.device !== this.device || isGivenUp(this.device)) return;
    this.owned.forEach((b) => releaseBuffer(this.ctx, b));
    this.ownUniforms.forEach((b) => b.destroy());
    this.querySet?.destroy();
    this.resolveBuffer?.destroy();
    this.readBuffer?.destroy();
  }

  /** For tests: the buffer bound for a role. */
  bufferFor(role: BindingRole): GPUBuffer | undefined {
    return this.buffers.get(role);
  }
}
