import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, limitsToRequest, type DeviceLimits } from '../core/adapter';
import { openDevice } from './device';

/** An adapter offering `offered`; its device gets what requestDevice asked for (as WebGPU grants it). */
function gpuOffering(offered: DeviceLimits) {
  const asked: Record<string, number>[] = [];
  const adapter = {
    info: { vendor: 'nvidia', architecture: 'hopper', device: 'h200', description: '' },
    limits: offered,
    features: new Set<string>(['shader-f16']),
    requestDevice: async (d: GPUDeviceDescriptor) => {
      const req = (d.requiredLimits ?? {}) as Record<string, number>;
      asked.push(req);
      return { features: new Set(d.requiredFeatures ?? []), limits: { ...DEFAULT_LIMITS, ...req }, lost: new Promise(() => undefined), destroy: () => undefined } as unknown as GPUDevice;
    },
  } as unknown as GPUAdapter;
  return { gpu: { requestAdapter: async () => adapter } as unknown as GPU, asked };
}

describe('the device is opened with the adapter\'s limits', () => {
  it('asks for every maximum the adapter offers (48 KiB of workgroup memory on the H200), and schedules see what the device got', async () => {
    const h200 = { ...DEFAULT_LIMITS, maxComputeWorkgroupStorageSize: 49152, maxComputeInvocationsPerWorkgroup: 1024, maxStorageBufferBindingSize: 2 ** 31 - 4 };
    const { gpu, asked } = gpuOffering(h200);
    const ctx = await openDevice(gpu, { runtime: 'node' });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ maxComputeWorkgroupStorageSize: 49152, maxComputeInvocationsPerWorkgroup: 1024 });
    // A minimum is left at WebGPU's default.
    expect(asked[0]).not.toHaveProperty('minStorageBufferOffsetAlignment');
    expect(ctx.adapter.limits.maxComputeWorkgroupStorageSize).toBe(49152);
    expect(ctx.device.features.has('shader-f16')).toBe(true);
  });

  it('limitsToRequest takes each maximum at the offered value', () => {
    expect(limitsToRequest({ ...DEFAULT_LIMITS, maxComputeWorkgroupStorageSize: 32768 })).toEqual({
      maxComputeInvocationsPerWorkgroup: 256,
      maxComputeWorkgroupSizeX: 256,
      maxComputeWorkgroupSizeY: 256,
      maxComputeWorkgroupStorageSize: 32768,
      maxComputeWorkgroupsPerDimension: 65535,
      maxStorageBufferBindingSize: 134217728,
      maxBufferSize: 268435456,
      maxStorageBuffersPerShaderStage: 8,
    });
  });
});
