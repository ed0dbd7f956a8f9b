// The page's worker names a lost device as one: whatever a call failed with while the device
// was being lost ("Buffer was unmapped", a DeviceRejection of the submit) comes back to the
// page — and into History — as a DeviceLostError, as the Node runtime reports it. A call that
// finished anyway (a lane or sweep records a device rejection per shape and goes on) is not
// returned as a result when the device was lost during it: its rejections may be the loss.
import { deviceLossCount, lossSince, namedDeviceLoss, settleDeviceLoss } from '../gpu/device';
import type { LabApi } from './api';

const METHODS = ['adapter', 'preview', 'time', 'formats', 'lane', 'sweep', 'calibrate', 'graphRun', 'useCalibration'] as const satisfies readonly (keyof LabApi)[];

/** Whether a result records device rejections (a lane's counters, a sweep's candidates). */
function recordsRejections(v: unknown): boolean {
  const r = v as { pairs?: { counters?: { deviceRejections?: number } }[]; candidates?: { status?: string }[] } | null;
  return !!r && typeof r === 'object' && ((r.pairs ?? []).some((p) => (p.counters?.deviceRejections ?? 0) > 0) || (r.candidates ?? []).some((c) => c.status === 'device-rejection'));
}

export function namingDeviceLoss(api: LabApi, graceMs?: number): LabApi {
  const out = {} as Record<string, unknown>;
  for (const m of METHODS) {
    const fn = api[m] as (...args: unknown[]) => Promise<unknown>;
    out[m] = async (...args: unknown[]) => {
      const before = deviceLossCount();
      let value: unknown;
      try {
        value = await fn.apply(api, args);
      } catch (e) {
        throw await namedDeviceLoss(e, before, graceMs);
      }
      if (recordsRejections(value)) await settleDeviceLoss(before, graceMs);
      const lost = lossSince(before, 'its result is not kept (a device rejection in it may have been the loss)');
      if (lost) throw lost;
      return value;
    };
  }
  // cancel() only marks a run and census() does no GPU work: nothing to name, so they pass straight through.
  out.cancel = (...args: unknown[]) => (api.cancel as (...a: unknown[]) => unknown).apply(api, args);
  out.census = (...args: unknown[]) => (api.census as (...a: unknown[]) => unknown).apply(api, args);
  return out as unknown as LabApi;
}
