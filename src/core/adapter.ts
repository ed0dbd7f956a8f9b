// What the lab knows about a GPU adapter, as plain data (filled in by src/gpu/device.ts).

export type Runtime = 'browser' | 'node';

export interface DeviceLimits {
  readonly maxComputeInvocationsPerWorkgroup: number;
  readonly maxComputeWorkgroupSizeX: number;
  readonly maxComputeWorkgroupSizeY: number;
  readonly maxComputeWorkgroupStorageSize: number;
  readonly maxComputeWorkgroupsPerDimension: number;
  readonly maxStorageBufferBindingSize: number;
  readonly maxBufferSize: number;
  readonly maxStorageBuffersPerShaderStage: number;
  readonly minStorageBufferOffsetAlignment: number;
}

export interface AdapterDescriptor {
  readonly vendor: string;
  readonly architecture: string;
  readonly device: string;
  readonly description: string;
  readonly isFallbackAdapter: boolean;
  readonly runtime: Runtime;
  readonly features: readonly string[];
  /** WGSL language extensions the runtime offers (navigator.gpu.wgslLanguageFeatures), where known. */
  readonly wgslFeatures?: readonly string[];
  readonly limits: DeviceLimits;
  /** 0 when the adapter does not report subgroup sizes. */
  readonly subgroupMinSize: number;
  readonly subgroupMaxSize: number;
}

/** Every limit the lab reads, in DeviceLimits' order. */
export const LIMIT_NAMES: readonly (keyof DeviceLimits)[] = [
  'maxComputeInvocationsPerWorkgroup',
  'maxComputeWorkgroupSizeX',
  'maxComputeWorkgroupSizeY',
  'maxComputeWorkgroupStorageSize',
  'maxComputeWorkgroupsPerDimension',
  'maxStorageBufferBindingSize',
  'maxBufferSize',
  'maxStorageBuffersPerShaderStage',
  'minStorageBufferOffsetAlignment',
];

/**
 * What the device is opened with: every maximum at the adapter's own value, so a schedule that
 * needs more than WebGPU's default (a shape rule's `limits`: 20 KiB of workgroup memory where the
 * default is 16 KiB) runs wherever the adapter offers it; schedules are then validated against
 * the device's limits. minStorageBufferOffsetAlignment is a minimum: left at the default.
 */
export function limitsToRequest(offered: DeviceLimits): Partial<Record<keyof DeviceLimits, number>> {
  const out: Partial<Record<keyof DeviceLimits, number>> = {};
  for (const k of LIMIT_NAMES) if (k !== 'minStorageBufferOffsetAlignment') out[k] = offered[k];
  return out;
}

/** Limits every WebGPU adapter guarantees (the spec's defaults): what tests assume without a GPU. */
export const DEFAULT_LIMITS: DeviceLimits = Object.freeze({
  maxComputeInvocationsPerWorkgroup: 256,
  maxComputeWorkgroupSizeX: 256,
  maxComputeWorkgroupSizeY: 256,
  maxComputeWorkgroupStorageSize: 16384,
  maxComputeWorkgroupsPerDimension: 65535,
  maxStorageBufferBindingSize: 134217728,
  maxBufferSize: 268435456,
  maxStorageBuffersPerShaderStage: 8,
  minStorageBufferOffsetAlignment: 256,
});

/** The identity results are stored under: stable across sessions on the same adapter and runtime. */
export function adapterFingerprint(a: Pick<AdapterDescriptor, 'vendor' | 'architecture' | 'device' | 'description' | 'isFallbackAdapter' | 'runtime'>): string {
  return [a.vendor || '?', a.architecture || '?', a.device || '?', a.description || '?', a.isFallbackAdapter ? 'fallback' : 'hw', a.runtime].join('|');
}

/** "nvidia hopper nvidia-h200 (node)", "google swiftshader (software, browser)". */
export function adapterName(a: AdapterDescriptor): string {
  const parts = [a.vendor, a.architecture, a.device].filter(Boolean);
  const tags = [a.isFallbackAdapter ? 'software' : '', a.runtime].filter(Boolean);
  return `${parts.join(' ') || 'unknown adapter'} (${tags.join(', ')})`;
}
