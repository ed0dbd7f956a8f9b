// The page's GPU worker: all device work happens here, so the page never freezes. It serves
// LabApi (the Engine) over comlink.
import { expose } from 'comlink';
import { Engine } from '../gpu/engine';
import { namingDeviceLoss } from './loss-naming';

/** A tab keeps less host memory for reuse than the CLI: 512 MiB of inputs and oracles. */
const PAGE_CASE_DATA_BYTES = 512 * 1024 ** 2;

/**
 * The adapter the page asked for (`?device=`, the lane's --device). Read from the worker URL's
 * query when present; otherwise from the worker's name, which the page sets to its own query
 * (Vite fixes the worker URL at build time, so a runtime query cannot be appended to it).
 */
function fromScope(key: string): string | undefined {
  const fromUrl = new URLSearchParams(self.location.search).get(key);
  const fromName = new URLSearchParams(self.name).get(key);
  return fromUrl || fromName || undefined;
}

// `?timer=wallclock` times with the wall clock even where timestamp-query exists.
expose(namingDeviceLoss(new Engine(() => navigator.gpu, { runtime: 'browser', deviceMatch: fromScope('device'), timestamps: fromScope('timer') !== 'wallclock', caseDataBytes: PAGE_CASE_DATA_BYTES })));
