// Opens a GPUDevice from a GPU object (navigator.gpu in the page's worker, Dawn's in Node) with
// the features and limits the lab uses, and describes the adapter as plain data.
import { adapterName, LIMIT_NAMES, limitsToRequest, type AdapterDescriptor, type DeviceLimits, type Runtime } from '../core/adapter';
import { AdapterError, DeviceLostError, RunCancelled } from '../core/errors';
import type { Calibration } from '../core/metrics/roofline';
import { forgetPool } from './buffer-pool';
import { CaseDataCache } from '../core/plan/case-data';

// subgroup-matrix is Chromium/Dawn's experimental name (needs allow_unsafe_apis in Dawn).
const WANTED_FEATURES = ['timestamp-query', 'subgroups', 'shader-f16', 'chromium-experimental-subgroup-matrix'] as const;

export interface GpuContext {
  /** The live device: replaced by recreate() when the watchdog gives one up. */
  device: GPUDevice;
  readonly adapter: AdapterDescriptor;
  readonly hasTimestamps: boolean;
  /** Set once the device is lost; every later use fails with DeviceLostError. */
  lostReason: string | null;
  /** Compiled pipelines by WGSL text + entry point, so repeated passes do not recompile. */
  readonly pipelines: Map<string, Promise<GPUComputePipeline>>;
  /** This adapter's measured peaks, when calibrated (or loaded from storage). */
  calibration: Calibration | null;
  /** performance.now() when GPU work last finished: the warm-up asks how long it idled. */
  lastGpuBusyMs: number;
  /** The running job's cancel token (Engine): true once LabApi.cancel named it. */
  cancelled: (() => boolean) | null;
  /** The watchdog's wall bound on one GPU wait for the running job, ms (watchdog.ts; null: its default). */
  watchdogMs: number | null;
  /**
   * Gives up the current device (destroyed where that returns, abandoned where Dawn would block
   * until the hung queue drains) and opens a new one on the same GPU in its place.
   */
  recreate(reason: string): Promise<void>;
  /** Host work once: case data and output checks, kept by the Engine across runs (device losses too). */
  host: CaseDataCache;
}

/** The adapter as this device sees it: its features are the ones the device was opened with. */
export function deviceAdapter(ctx: Pick<GpuContext, 'adapter' | 'device'>): AdapterDescriptor {
  return { ...ctx.adapter, features: [...ctx.device.features].map(String).sort() };
}

function readLimits(l: GPUSupportedLimits): DeviceLimits {
  const out = {} as Record<string, number>;
  for (const k of LIMIT_NAMES) out[k] = Number((l as unknown as Record<string, number>)[k]);
  return Object.freeze(out) as unknown as DeviceLimits;
}

export function describeAdapter(adapter: GPUAdapter, runtime: Runtime, dawnToggles: readonly string[] = []): AdapterDescriptor {
  const info = adapter.info ?? ({} as GPUAdapterInfo);
  const limits = readLimits(adapter.limits);
  const features = [...adapter.features].map(String).sort();
  const ext = info as GPUAdapterInfo & { subgroupMinSize?: number; subgroupMaxSize?: number; isFallbackAdapter?: boolean };
  return Object.freeze({
    vendor: info.vendor ?? '',
    architecture: info.architecture ?? '',
    device: info.device ?? '',
    // A toggle changes what the adapter offers (shader-f16 on NVIDIA), so the description says so.
    description: [info.description ?? '', dawnToggles.length ? `[dawn toggles: ${dawnToggles.join(', ')}]` : ''].filter(Boolean).join(' '),
    // Older implementations report the fallback flag on the adapter, newer on its info.
    isFallbackAdapter: Boolean(ext.isFallbackAdapter ?? (adapter as GPUAdapter & { isFallbackAdapter?: boolean }).isFallbackAdapter),
    runtime,
    features: Object.freeze(features),
    limits,
    subgroupMinSize: Number(ext.subgroupMinSize ?? 0),
    subgroupMaxSize: Number(ext.subgroupMaxSize ?? 0),
  });
}

/** Case-insensitive match of `wanted` against any of the adapter's identifying strings. */
export function adapterMatches(a: AdapterDescriptor, wanted: string): boolean {
  const w = wanted.toLowerCase();
  return [a.vendor, a.architecture, a.device, a.description, adapterName(a)].some((s) => s.toLowerCase().includes(w));
}

export interface OpenOptions {
  runtime: Runtime;
  /** Fail unless the adapter's info contains this text (the lane's --device). */
  deviceMatch?: string;
  powerPreference?: GPUPowerPreference;
  /** false: do not ask for 'timestamp-query' (times then come from the wall clock, marked). */
  timestamps?: boolean;
  /** Dawn toggles the Node runtime enabled, for the adapter's description. */
  dawnToggles?: readonly string[];
}

export async function openDevice(gpu: GPU | undefined, opts: OpenOptions): Promise<GpuContext> {
  if (!gpu) {
    throw new AdapterError(
      opts.runtime === 'browser'
        ? 'WebGPU is not available in this browser. Use a recent Chrome, Edge or Safari 26+; on Linux start Chrome with --enable-unsafe-webgpu --enable-features=Vulkan.'
        : "WebGPU is not available: the 'webgpu' package (Dawn) did not load.",
    );
  }
  const adapter = await gpu.requestAdapter({ powerPreference: opts.powerPreference ?? 'high-performance' });
  if (!adapter) throw new AdapterError('no WebGPU adapter: the browser or driver offers none (blocklisted GPU, or no Vulkan/Metal/D3D12 driver)');
  // The WGSL extensions (packed_4x8_integer_dot_product for MMVQ) belong to the runtime, not the adapter: added here.
  const wgslFeatures = [...((gpu as GPU & { wgslLanguageFeatures?: Iterable<string> }).wgslLanguageFeatures ?? [])].map(String).sort();
  const descriptor = Object.freeze({ ...describeAdapter(adapter, opts.runtime, opts.dawnToggles), wgslFeatures: Object.freeze(wgslFeatures) });
  if (opts.deviceMatch && !adapterMatches(descriptor, opts.deviceMatch)) {
    throw new AdapterError(`requested adapter '${opts.deviceMatch}' is not present: this runtime offers ${adapterName(descriptor)}`);
  }
  const wanted = WANTED_FEATURES.filter((f) => opts.timestamps !== false || f !== 'timestamp-query');
  const requiredFeatures = wanted.filter((f) => adapter.features.has(f)) as GPUFeatureName[];
  const requiredLimits = limitsToRequest(descriptor.limits);
  const request = async (from: GPUAdapter) => {
    try {
      return await from.requestDevice({ requiredFeatures, requiredLimits, label: 'kernel-lab' });
    } catch (e) {
      throw new AdapterError(`the adapter refused a device: ${(e as Error).message}`);
    }
  };
  const device = await request(adapter);
  const watch = (d: GPUDevice) =>
    watchLoss(d.lost, (reason) => {
      // A device the watchdog gave up is not the context's any more: its loss is not news.
      if (ctx.device === d) ctx.lostReason = reason;
    });
  const ctx: GpuContext = {
    device,
    // Schedules are validated against what the device got (limitsToRequest asked for the adapter's all).
    adapter: Object.freeze({ ...descriptor, limits: readLimits(device.limits) }),
    hasTimestamps: device.features.has('timestamp-query'),
    lostReason: null,
    pipelines: new Map(),
    calibration: null,
    lastGpuBusyMs: -Infinity,
    cancelled: null,
    watchdogMs: null,
    async recreate(reason: string) {
      const old = ctx.device;
      ctx.lostReason = reason;
      abandon(old, opts.runtime);
      ctx.pipelines.clear();
      forgetPool(ctx);
      // An adapter gives one device: a new one comes from a new adapter of the same GPU.
      const next = await gpu.requestAdapter({ powerPreference: opts.powerPreference ?? 'high-performance' });
      if (!next) throw new AdapterError('no WebGPU adapter after the watchdog gave up the device');
      ctx.device = await request(next);
      watch(ctx.device);
      ctx.lostReason = null;
    },
    host: new CaseDataCache(),
  };
  watch(device);
  return ctx;
}

/** Devices given up on purpose: their loss is not reported as one. */
const givenUp = new WeakSet<Promise<GPUDeviceLostInfo>>();

/**
 * Gives a device up. In a browser destroy() returns at once and ends the work in the GPU process;
 * Dawn in Node waits inside destroy() for the queue to drain, which a hung kernel never lets it
 * do, so there the device is only dropped (its thread spins until the process exits).
 */
function abandon(device: GPUDevice, runtime: Runtime): void {
  givenUp.add(device.lost);
  if (runtime === 'browser') device.destroy();
}

/** Every device loss this runtime has seen, in order (its reason): errors in flight are named by it. */
const losses: string[] = [];
/** The lost promises of devices not lost yet. */
const live = new Set<Promise<GPUDeviceLostInfo>>();

function watchLoss(lost: Promise<GPUDeviceLostInfo>, onLost: (reason: string) => void): void {
  live.add(lost);
  void lost.then((info) => {
    live.delete(lost);
    if (givenUp.has(lost)) return;
    const reason = info.message || String(info.reason);
    losses.push(reason);
    onLost(reason);
  });
}

/** How many device losses this runtime has seen: read before a call, to tell whether one happened during it. */
export function deviceLossCount(): number {
  return losses.length;
}

/** Waits up to `graceMs` for a loss not yet reported (none when one already was, or no device is live). */
export async function settleDeviceLoss(lossesBefore: number, graceMs = 250): Promise<void> {
  if (losses.length !== lossesBefore || !live.size) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([...live, new Promise((r) => (timer = setTimeout(r, graceMs)))]);
  clearTimeout(timer);
  await Promise.resolve(); // let the loss handlers run
}

/** The DeviceLostError for a loss since `lossesBefore`, naming what failed with it; null when there was none. */
export function lossSince(lossesBefore: number, what: string): DeviceLostError | null {
  if (losses.length === lossesBefore) return null;
  return new DeviceLostError(`the GPU device was lost (${losses[losses.length - 1]}) while this ran; ${what}. Run again to open a new device`);
}

/**
 * The error a failed call should report: a DeviceLostError when a device was lost since
 * `lossesBefore` (in a browser, a lost device first fails the work in flight — a map, a
 * submit, "Buffer was unmapped" — and resolves device.lost only after, so this waits up to
 * `graceMs` for a pending loss), else the error as it was.
 */
export async function namedDeviceLoss(e: unknown, lossesBefore: number, graceMs = 250): Promise<unknown> {
  if ((e as { name?: unknown } | null)?.name === 'DeviceLostError') return e;
  await settleDeviceLoss(lossesBefore, graceMs);
  return lossSince(lossesBefore, `what failed with it: ${e instanceof Error ? e.message : String(e)}`) ?? e;
}

/** Checked before every allocation and GPU batch: a lost device fails, a cancelled run stops there. */
export function assertAlive(ctx: GpuContext): void {
  if (ctx.cancelled?.()) throw new RunCancelled('the run was cancelled; nothing from it was kept');
  if (ctx.lostReason !== null) throw new DeviceLostError(`the GPU device was lost (${ctx.lostReason}); results so far are kept — run again to open a new device`);
}
