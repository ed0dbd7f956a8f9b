// Level 1's session: buffers, pipeline and bind group made once by prepare(); upload, dispatch
// and readback kept apart so a timed run measures the shader and its submission, not copies.
import { DeviceRejection } from '../core/errors';
import { deviceBufferSizeBytes, sentinelBuffer, withGuards } from '../core/hostdata';
import type { BindingRole, KernelSpec } from '../core/kernel';
import type { OpCase } from '../core/ops/types';
import { acquireBuffer, releaseBuffer } from './buffer-pool';
import { pipelineFor, withErrorScopes } from './compile';
import { assertAlive, type GpuContext } from './device';

/** WebGPU guarantees at least 4096 queries per set: two per run. */
const MAX_RUNS_PER_BATCH = 2048;

export interface RawTiming {
  /** begin/end pairs, ns, as the device reported them. */
  readonly timestamps: bigint[];
}

export class Session {
  private queryCapacity = 0;
  private querySet: GPUQuerySet | null = null;
  private resolveBuffer: GPUBuffer | null = null;
  private readBuffer: GPUBuffer | null = null;

  private constructor(
    private readonly ctx: GpuContext,
    readonly kernel: KernelSpec,
    private readonly pipeline: GPUComputePipeline,
    private readonly bindGroup: GPUBindGroup,
    private readonly buffers: Map<BindingRole, GPUBuffer>,
    private readonly initial: Map<GPUBuffer, ArrayBuffer>,
    private readonly dstBuffer: GPUBuffer,
    private readonly owned: GPUBuffer[],
  ) {}

  /**
   * `shareWith`: run on another session's tensors (same case, same inputs) instead of new ones.
   * The lane and the sweep compare variants this way, so a ratio never carries a difference in
   * where the buffers landed (on SwiftShader, a CPU, cache aliasing between two allocations
   * once biased an A/A control to 'slower'; docs/benchmarks.md).
   */
  static async prepare(ctx: GpuContext, kernel: KernelSpec, c: OpCase, srcs: readonly ArrayBuffer[], shareWith?: Session): Promise<Session> {
    assertAlive(ctx);
    const { device, adapter } = ctx;
    const pipeline = await pipelineFor(ctx, kernel);
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
      if (kernel.uniforms) {
        const b = await make('params', kernel.uniforms.byteLength, GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST);
        device.queue.writeBuffer(b, 0, kernel.uniforms);
        buffers.set('params', b);
      }
      const bindGroup = await withErrorScopes(device, `binding ${kernel.label}`, () =>
        device.createBindGroup({
          layout: pipeline.getBindGroupLayout(0),
          entries: kernel.bindings.map((bs) => {
            const buffer = buffers.get(bs.role);
            if (!buffer) throw new DeviceRejection(`${kernel.label} binds role '${bs.role}', which this case has no buffer for`);
            return { binding: bs.binding, resource: { buffer } };
          }),
        }),
      );
      return new Session(ctx, kernel, pipeline, bindGroup, buffers, initial, dstBuffer, owned);
    } catch (e) {
      owned.forEach((b) => releaseBuffer(ctx, b));
      throw e;
    }
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

  private encodeRun(encoder: GPUCommandEncoder, timestampWrites?: GPUComputePassTimestampWrites): void {
    const pass = encoder.beginComputePass(timestampWrites ? { timestampWrites } : {});
    pass.setPipeline(this.pipeline);
    pass.setBindGroup(0, this.bindGroup);
    const [x, y, z] = this.kernel.dispatch;
    for (let r = 0; r < (this.kernel.repeat ?? 1); r++) pass.dispatchWorkgroups(x, y, z);
    const extra = this.kernel.extraDispatch;
    if (extra) pass.dispatchWorkgroups(extra[0], extra[1], extra[2]);
    pass.end();
  }

  /** One run, submitted and waited for. */
  async dispatch(runs = 1): Promise<void> {
    assertAlive(this.ctx);
    const { device } = this.ctx;
    await withErrorScopes(device, `dispatching ${this.kernel.label}`, async () => {
      const encoder = device.createCommandEncoder();
      for (let i = 0; i < runs; i++) this.encodeRun(encoder);
      device.queue.submit([encoder.finish()]);
      await device.queue.onSubmittedWorkDone();
    });
    this.ctx.lastGpuBusyMs = performance.now();
    assertAlive(this.ctx);
  }

  /** The whole dst buffer (guards included) as it is now. */
  async readback(): Promise<ArrayBuffer> {
    assertAlive(this.ctx);
    const { device } = this.ctx;
    const size = this.dstBuffer.size;
    const staging = device.createBuffer({ size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST, label: 'readback' });
    try {
      const encoder = device.createCommandEncoder();
      encoder.copyBufferToBuffer(this.dstBuffer, 0, staging, 0, size);
      device.queue.submit([encoder.finish()]);
      await staging.mapAsync(GPUMapMode.READ);
      return staging.getMappedRange().slice(0);
    } finally {
      staging.destroy();
    }
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
      await withErrorScopes(device, `timing ${this.kernel.label}`, async () => {
        const encoder = device.createCommandEncoder();
        for (let i = 0; i < batch; i++) {
          this.encodeRun(encoder, { querySet, beginningOfPassWriteIndex: 2 * i, endOfPassWriteIndex: 2 * i + 1 });
        }
        encoder.resolveQuerySet(querySet, 0, batch * 2, resolve, 0);
        encoder.copyBufferToBuffer(resolve, 0, read, 0, batch * 16);
        device.queue.submit([encoder.finish()]);
        await read.mapAsync(GPUMapMode.READ, 0, batch * 16);
      });
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
    this.owned.forEach((b) => releaseBuffer(this.ctx, b));
    this.querySet?.destroy();
    this.resolveBuffer?.destroy();
    this.readBuffer?.destroy();
  }

  /** For tests: the buffer bound for a role. */
  bufferFor(role: BindingRole): GPUBuffer | undefined {
    return this.buffers.get(role);
  }
}
