// The page's worker names a lost device as one: whatever a call failed with while the device
// was being lost ("Buffer was unmapped", a DeviceRejection of the submit) comes back to the
// page — and into History — as a DeviceLostError, as the Node runtime reports it.
import { deviceLossCount, namedDeviceLoss } from '../gpu/device';
import type { LabApi } from './api';

const METHODS = ['adapter', 'preview', 'time', 'lane', 'sweep', 'calibrate', 'useCalibration'] as const satisfies readonly (keyof LabApi)[];

export function namingDeviceLoss(api: LabApi, graceMs?: number): LabApi {
  const out = {} as Record<string, unknown>;
  for (const m of METHODS) {
    const fn = api[m] as (...args: unknown[]) => Promise<unknown>;
    out[m] = async (...args: unknown[]) => {
      const before = deviceLossCount();
      try {
        return await fn.apply(api, args);
      } catch (e) {
        throw await namedDeviceLoss(e, before, graceMs);
      }
    };
  }
  return out as unknown as LabApi;
}
