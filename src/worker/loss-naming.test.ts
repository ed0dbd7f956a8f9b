// A device lost in the page's worker is named a lost device, even when the work in flight
// failed first ("Buffer was unmapped") and device.lost resolved only after.
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../core/adapter';
import { DeviceRejection } from '../core/errors';
import { openDevice } from '../gpu/device';
import type { LabApi } from './api';
import { namingDeviceLoss } from './loss-naming';

/** A GPU whose one device is lost `lostAfterMs` after `lose()` is called. */
function fakeGpu() {
  let loseNow: (info: GPUDeviceLostInfo) => void = () => undefined;
  const lost = new Promise<GPUDeviceLostInfo>((r) => (loseNow = r));
  const device = { features: new Set<string>(), limits: DEFAULT_LIMITS, lost, destroy: () => undefined } as unknown as GPUDevice;
  const adapter = { info: { vendor: 'fake', architecture: '', device: 'fake', description: 'fake' }, limits: DEFAULT_LIMITS, features: new Set<string>(), requestDevice: async () => device } as unknown as GPUAdapter;
  const gpu = { requestAdapter: async () => adapter } as unknown as GPU;
  return { gpu, lose: (lostAfterMs: number) => setTimeout(() => loseNow({ reason: 'unknown', message: 'GPU process crashed' } as GPUDeviceLostInfo), lostAfterMs) };
}

function apiFailingWith(e: Error, before?: () => void): LabApi {
  const fail = async () => {
    before?.();
    throw e;
  };
  return { adapter: fail, preview: fail, time: fail, lane: fail, sweep: fail, calibrate: fail, useCalibration: fail } as unknown as LabApi;
}

describe('lost device naming in the worker', () => {
  it('a rejection that raced ahead of device.lost comes back as a DeviceLostError naming both', async () => {
    const { gpu, lose } = fakeGpu();
    await openDevice(gpu, { runtime: 'browser' });
    const api = namingDeviceLoss(apiFailingWith(new DeviceRejection('timing ADD 64x8: Buffer was unmapped before mapping was resolved'), () => lose(20)), 500);
    const e = (await api.time({ op: 'ADD', dims: [64, 8], variant: { kind: 'auto' } }).catch((x) => x)) as Error;
    expect(e.name).toBe('DeviceLostError');
    expect(e.message).toMatch(/the GPU device was lost \(GPU process crashed\) while this ran; what failed with it: timing ADD 64x8: Buffer was unmapped/);
  });

  it('a rejection with no loss stays what it was, after the short grace', async () => {
    const { gpu } = fakeGpu();
    await openDevice(gpu, { runtime: 'browser' });
    const api = namingDeviceLoss(apiFailingWith(new DeviceRejection('pipeline refused')), 30);
    const t0 = performance.now();
    const e = (await api.lane({}).catch((x) => x)) as Error;
    expect([e.name, e.message]).toEqual(['DeviceRejection', 'pipeline refused']);
    expect(performance.now() - t0).toBeLessThan(500);
  });

  it('a lane that finished with a device rejection while the device was lost is not returned as a result', async () => {
    const { gpu, lose } = fakeGpu();
    await openDevice(gpu, { runtime: 'browser' });
    const laneWithRejection = { kind: 'lane', pairs: [{ counters: { deviceRejections: 1 } }] };
    const api = namingDeviceLoss({ ...apiFailingWith(new Error('unused')), lane: async () => (lose(20), laneWithRejection) } as unknown as LabApi, 500);
    const e = (await api.lane({}).catch((x) => x)) as Error;
    expect([e.name, e.message]).toEqual(['DeviceLostError', expect.stringMatching(/lost \(GPU process crashed\) while this ran; its result is not kept/)]);
    // Without a loss the same result comes back as it is.
    const { gpu: other } = fakeGpu();
    await openDevice(other, { runtime: 'browser' });
    const calm = namingDeviceLoss({ ...apiFailingWith(new Error('unused')), lane: async () => laneWithRejection } as unknown as LabApi, 30);
    expect(await calm.lane({})).toBe(laneWithRejection);
  });
});
