// The calibration in use on this page (the worker holds its own copy for metrics; the page keeps
// this one to show the measured peaks and draw the roofline): the Calibrate run, which stores
// each calibration, and the restore of the adapter's latest stored one when the page starts.
import { createSignal, type Accessor } from 'solid-js';
import { adapterFingerprint, type AdapterDescriptor } from '../core/adapter';
import type { Calibration } from '../core/metrics/roofline';
import { calibrationJson, type CalibrationJson } from '../core/report/json';
import { latestCalibration } from '../storage/runs';
import { lab } from './lab-client';
import { labDb } from './run-store';
import { sessionScoped } from './session-scoped';
import { createStoredRun } from './stored-run';

const [calibration, setCalibration] = createSignal<Calibration | null>(null);

/** The calibration later metrics use: measured in this session, or restored from storage. */
export const currentCalibration = calibration;

export const calibrateAction = sessionScoped((adapter: Accessor<AdapterDescriptor>) =>
  createStoredRun({
    kind: 'calibration',
    call: (_req: void, onProgress, runId) => lab.calibrate(onProgress, runId),
    toJson: (c: Calibration) => calibrationJson(c, adapter()),
    adapter,
    onResult: (c) => setCalibration(c),
  }),
);

/** A stored calibration as the worker takes it: the measured fields, without the run's stamps. */
export function calibrationOf(j: CalibrationJson): Calibration {
  return { kind: 'calibration', adapterFingerprint: j.adapterFingerprint, copyGBps: j.copyGBps, f32Gflops: j.f32Gflops, f16Gflops: j.f16Gflops, emptyDispatchNs: j.emptyDispatchNs, measuredAt: j.measuredAt, details: j.details };
}

/**
 * Hands the adapter's latest stored calibration to the worker, so metrics have measured peaks
 * from the first run. Storage that cannot be read (private mode, blocked) only means none.
 */
export async function restoreCalibration(adapter: AdapterDescriptor): Promise<void> {
  try {
    const rec = await latestCalibration(await labDb(), adapterFingerprint(adapter));
    // A calibration measured in this session already is newer than any stored one.
    if (!rec || calibration()) return;
    const c = calibrationOf(rec.calibration);
    await lab.useCalibration(c);
    setCalibration(c);
  } catch {
    // No storage: the page works uncalibrated until Calibrate is pressed.
  }
}
