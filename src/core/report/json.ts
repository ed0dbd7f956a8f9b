// The JSON results the CLI writes, the page stores and share links carry: plain, versioned, no
// WGSL text, stamped with the lab's version and code hash (so results of older code show stale).
// Each is its schema's projection (src/core/schema/results.ts): the declared fields, nothing else.
import type { AdapterDescriptor } from '../adapter';
import type { LaneResult, Level1Result, SweepResult } from '../results';
import type { Calibration } from '../metrics/roofline';
import { calibration, formats, lane, level1, sweep, type CalibrationJson, type FormatsJson, type LaneJson, type Level1Json, type ResultJson, type SweepJson } from '../schema/results';

export { RUN_KINDS, type CalibrationJson, type FormatRow, type FormatsJson, type LaneJson, type Level1Json, type ResultJson, type RunKind, type SweepJson } from '../schema/results';

export const RESULT_SCHEMA_VERSION = 1;

/** The lab's version, stamped on every result (package.json's, injected at build time). */
export const LAB_VERSION: string = typeof __LAB_VERSION__ === 'string' ? __LAB_VERSION__ : '0.0.0-dev';

/** Hash of the native kernels, ops, codegen and schedules this build was made from. */
export const CODE_HASH: string = typeof __CODE_HASH__ === 'string' ? __CODE_HASH__ : 'dev';

declare const __LAB_VERSION__: string | undefined;
declare const __CODE_HASH__: string | undefined;

/** What every result carries: its schema version and which code produced it. */
function stamps() {
  return { schemaVersion: RESULT_SCHEMA_VERSION, labVersion: LAB_VERSION, codeHash: CODE_HASH };
}

export function laneJson(r: LaneResult): LaneJson {
  return lane.project({ ...r, ...stamps() });
}

export function level1Json(r: Level1Result): Level1Json {
  return level1.project({ ...r, ...stamps() });
}

/** The sweep declares every field (its proposal is rebuilt from them), stamped. */
export function sweepJson(r: SweepResult): SweepJson {
  return sweep.project({ ...r, ...stamps() });
}

/** A calibration with the adapter it measured, so it stores, shares and imports like a run. */
export function calibrationJson(c: Calibration, adapter: AdapterDescriptor): CalibrationJson {
  return calibration.project({ ...c, ...stamps(), adapter });
}

/** A formats run (src/gpu/formats.ts), stamped: what `lab formats --json` writes and the page stores. */
export function formatsJson(r: Omit<FormatsJson, 'schemaVersion' | 'labVersion' | 'codeHash'>): FormatsJson {
  return formats.project({ ...r, ...stamps() });
}

/** The adapter a result ran on (a formats run carries its descriptor beside its name). */
export function resultAdapter(r: ResultJson): AdapterDescriptor {
  return r.kind === 'formats' ? r.adapterDescriptor : r.adapter;
}
