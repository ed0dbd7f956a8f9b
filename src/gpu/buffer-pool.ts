// Storage buffers kept for reuse between sessions of the same size: repeated Level 1 calls
// (the bench's five RMS_NORM calls, a page user re-running a shape) neither reallocate hundreds
// of MB each time nor land on different memory from one call to the next.
import type { GpuContext } from './device';

/** Idle bytes kept per device; beyond it, released buffers are destroyed. A software adapter's
 * buffers are the CPU's memory, so it keeps less. */
export function poolIdleLimitBytes(ctx: Pick<GpuContext, 'adapter'>): number {
  return ctx.adapter.isFallbackAdapter ? 512 * 1024 ** 2 : 4 * 1024 ** 3;
}

interface Pool {
  idle: Map<string, GPUBuffer[]>;
  idleBytes: number;
}

const pools = new WeakMap<GpuContext, Pool>();

function poolOf(ctx: GpuContext): Pool {
  let p = pools.get(ctx);
  if (!p) {
    p = { idle: new Map(), idleBytes: 0 };
    pools.set(ctx, p);
  }
  return p;
}

const keyOf = (size: number, usage: number) => `${size}:${usage}`;

/** A buffer of exactly this size and usage: an idle one if the pool has it, else a new one. */
export function acquireBuffer(ctx: GpuContext, size: number, usage: number, label: string): GPUBuffer {
  const p = poolOf(ctx);
  const list = p.idle.get(keyOf(size, usage));
  const reused = list?.pop();
  if (reused) {
    p.idleBytes -= size;
    return reused;
  }
  return ctx.device.createBuffer({ label, size, usage });
}

/** Returns a buffer to the pool (its contents are rewritten by the next session's upload). */
export function releaseBuffer(ctx: GpuContext, buffer: GPUBuffer): void {
  const p = poolOf(ctx);
  if (ctx.lostReason !== null || p.idleBytes + buffer.size > poolIdleLimitBytes(ctx)) {
    buffer.destroy();
    return;
  }
  const key = keyOf(buffer.size, buffer.usage);
  p.idle.set(key, [...(p.idle.get(key) ?? []), buffer]);
  p.idleBytes += buffer.size;
}

/** Destroys every idle buffer (on close, or to free memory for a big case). */
export function drainPool(ctx: GpuContext): void {
  const p = poolOf(ctx);
  for (const list of p.idle.values()) list.forEach((b) => b.destroy());
  p.idle.clear();
  p.idleBytes = 0;
}

/** Forgets the idle buffers of a device the watchdog gave up (destroying them could block on it). */
export function forgetPool(ctx: GpuContext): void {
  pools.delete(ctx);
}
