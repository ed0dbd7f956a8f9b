// The watchdog: every wait on the GPU (a dispatch's completion, a readback's map, a timed batch)
// is bounded by a wall time. A kernel that never finishes — a user's `loop {}` that never breaks,
// a native or generated kernel gone wrong — cannot be interrupted on the device, so past the bound
// the lab gives up on that device: it marks it lost, destroys it where destroying returns (a
// browser on a GPU), abandons it where it would block (Dawn in Node waits for the queue to drain,
// forever; so does Chromium's GPU process on a software adapter), opens a new device on the same
// GPU for the next work where one can work, and fails the run with a WatchdogError
// naming the bound. Callers turn it into the `too-slow` verdict (the lane's shape or column, Level 1's result).
// The Node CLI exits explicitly once a device was abandoned: its spinning thread would keep the
// process alive.
import { LabError } from '../core/errors';
import type { GpuContext } from './device';

/** One GPU wait's wall bound when the request gives none, ms: far above any correct kernel the lab runs on SwiftShader's shapes. */
export const DEFAULT_WATCHDOG_MS = 30_000;
/** Bounds a request may set (a 0 or a day-long watchdog is no watchdog). */
export const WATCHDOG_MS_RANGE = [100, 600_000] as const;

export class WatchdogError extends LabError {
  override name = 'WatchdogError';
  constructor(
    /** The program that did not finish: 'user:lab-add', 'ADD native'… */
    readonly label: string,
    readonly boundMs: number,
    /** How long opening the new device took, ms; null when no new device could be opened. */
    readonly recoveryMs: number | null,
    what: string,
  ) {
    super(
      `hung: ${label} gave no answer within the watchdog's wall bound of ${boundMs} ms (${what}); the device was given up and ${recoveryMs === null ? 'no working one could be opened in this process (a software adapter keeps spinning in the hung kernel)' : `a new one opened in ${recoveryMs.toFixed(0)} ms`}`,
    );
  }
}

let abandoned = 0;
const givenUp = new WeakSet<GPUDevice>();

let stuck: string | undefined;

/** Why this process's software adapter can run no more GPU work (a kernel the watchdog gave up still runs on it); null while it can. */
export function stuckAdapter(): string | null {
  return stuck ?? null;
}

/** Devices given up by the watchdog in this process (the CLI exits explicitly when any were). */
export function abandonedDevices(): number {
  return abandoned;
}

/**
 * Whether the watchdog gave this device up: nothing may be destroyed on it any more (Dawn's
 * destroy() of a buffer or the device waits for the hung queue, for ever).
 */
export function isGivenUp(device: GPUDevice): boolean {
  return givenUp.has(device);
}

/**
 * Awaits `work` for at most the context's watchdog bound. Past it: the device is given up and
 * replaced (ctx.recreate), and a WatchdogError is thrown. `work` is left pending.
 */
export async function watched<T>(ctx: GpuContext, what: string, label: string, work: Promise<T>): Promise<T> {
  const boundMs = ctx.watchdogMs ?? DEFAULT_WATCHDOG_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const fired = Symbol('fired');
  const result = await Promise.race([work, new Promise<typeof fired>((r) => (timer = setTimeout(() => r(fired), boundMs)))]).finally(() => clearTimeout(timer));
  if (result !== fired) return result as T;
  abandoned++;
  givenUp.add(ctx.device);
  const t0 = performance.now();
  let recoveryMs: number | null = null;
  const reason = `the watchdog gave up on ${label} after ${boundMs} ms (${what})`;
  if (ctx.adapter.isFallbackAdapter) {
    // SwiftShader runs every device of the process on one scheduler of CPU workers, and work
    // queued to the worker spinning in the hung kernel never runs: a new device (same or fresh Dawn
    // instance) opens and compiles, but its dispatches never finish (measured: 2-core machine,
    // 2026-12-02). In Chromium, destroying the hung device blocks the GPU process itself (Dawn
    // waits for the queue to drain), and with it the page's rendering (measured headless, same
    // day). So nothing more is asked of the adapter: the device is left as it is, and later runs
    // in this process fail at once, naming why (stuckAdapter). The CLI goes on in a fresh process
    // (src/cli/watchdog-respawn.ts); the page keeps working without the GPU.
    stuck ??= `a software adapter is still running ${label}, which the watchdog gave up after ${boundMs} ms: it cannot run GPU work again in this ${ctx.adapter.runtime === 'browser' ? 'browser until the browser is restarted (its GPU process shares the CPU threads)' : 'process'}`;
    ctx.lostReason = stuck;
    throw new WatchdogError(label, boundMs, null, what);
  }
  try {
    // Bounded too: a driver that keeps the hung queue may not hand out a new device either.
    if (!(await settlesWithin(ctx.recreate(reason), RECREATE_MS))) ctx.lostReason = `${reason}; no new device within ${RECREATE_MS} ms`;
    // A small probe says whether the new device finishes work (an adapter that shares its threads
    // between devices would not, with one spinning in the hung kernel).
    else if (await probe(ctx.device, Math.min(boundMs, PROBE_MS))) recoveryMs = performance.now() - t0;
    else ctx.lostReason = `${reason}; the new device does not finish a ${PROBE_WORKGROUPS}-workgroup probe either (a software adapter shares its threads between devices): this process cannot run GPU work any more — run again`;
  } catch {
    // The next run reopens the device through the engine (lostReason stays set).
  }
  throw new WatchdogError(label, boundMs, recoveryMs, what);
}

const PROBE_MS = 2000;
/** How long opening a new device may take after a give-up, ms (a GPU takes well under a second). */
const RECREATE_MS = 10_000;

/** Whether `p` resolves within `ms` (a rejection is thrown on). */
async function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([p.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms)))]).finally(() => clearTimeout(timer));
}
const PROBE_WORKGROUPS = 64;

/** Whether a device finishes a trivial dispatch of several workgroups within `ms`. */
async function probe(device: GPUDevice, ms: number): Promise<boolean> {
  const buffer = device.createBuffer({ size: PROBE_WORKGROUPS * 64 * 4, usage: GPUBufferUsage.STORAGE });
  const module = device.createShaderModule({ code: '@group(0) @binding(0) var<storage, read_write> o: array<u32>;\n@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3<u32>) { o[g.x] = g.x; }' });
  const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer } }] }));
  pass.dispatchWorkgroups(PROBE_WORKGROUPS);
  pass.end();
  device.queue.submit([encoder.finish()]);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const done = await Promise.race([device.queue.onSubmittedWorkDone().then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms)))]).finally(() => clearTimeout(timer));
  if (done) buffer.destroy();
  return done;
}
