// Every result the page stores, shares and imports: the lab's result JSONs (json.ts) and `lab
// formats` runs. A formats run keeps the CLI's --json shape (its adapter's name in `adapter`, the
// descriptor in `adapterDescriptor`), so a file the CLI wrote imports as it is. Its check here is
// the cross-adapter report's (validateFormatsRun) plus every field the page reads, typed and
// bounded: what a share link or an import carries is never trusted.
import type { AdapterDescriptor } from '../adapter';
import { jsonBoundsProblem, ownValue } from '../input/bounded-json';
import { MAX_NAME_CHARS, MAX_TEXT_CHARS, RESULT_BOUNDS } from '../input/caps';
import { isIsoTimestamp } from '../input/iso-date';
import { validateFormatsRun, type FormatsRun } from './cross-adapter';
import { FORMATS_OPS, formatsMarkdown } from './formats';
import { RUN_KINDS, type ResultJson } from './json';
import { resultMarkdown } from './markdown';
import { ResultShapeError, validateResult } from './validate';

export type { FormatsRun };

export type LabResultJson = ResultJson | FormatsRun;
export type LabRunKind = LabResultJson['kind'];
export const LAB_RUN_KINDS: readonly LabRunKind[] = [...RUN_KINDS, 'formats'];

/** The adapter a result ran on (a formats run carries its descriptor beside its name). */
export function resultAdapter(r: LabResultJson): AdapterDescriptor {
  return r.kind === 'formats' ? r.adapterDescriptor : r.adapter;
}

const ROW_NUMBERS = ['bitsPerWeight', 'weightBytes'] as const;
const ROW_NULLABLE_NUMBERS = ['medianNs', 'p20Ns', 'p80Ns', 'weightGBps', 'gflops', 'pctPeakBw', 'pctPeakFlops', 'nmse', 'maxRelError'] as const;
const ROW_NULLABLE_STRINGS = ['variant', 'scheduleKey', 'bottleneck', 'reason'] as const;

/** A formats run, every field the page shows checked; a ResultShapeError names the first wrong one. */
export function validateFormatsResult(v: unknown): FormatsRun {
  const fail = (what: string): never => {
    throw new ResultShapeError(`formats result: ${what}`);
  };
  const bounds = jsonBoundsProblem(v, RESULT_BOUNDS, 'formats result');
  if (bounds) throw new ResultShapeError(bounds);
  let run: FormatsRun;
  try {
    run = validateFormatsRun(v);
  } catch (e) {
    throw new ResultShapeError((e as Error).message);
  }
  const o = run as unknown as object;
  if (!Object.prototype.hasOwnProperty.call(FORMATS_OPS, ownValue(o, 'op') as string)) fail(`op must be one of ${Object.keys(FORMATS_OPS).join(', ')}`);
  for (const k of ['adapter', 'distribution']) {
    const s = ownValue(o, k);
    if (typeof s !== 'string' || s.length > MAX_TEXT_CHARS) fail(`${k} must be a string of at most ${MAX_TEXT_CHARS} characters`);
  }
  if (!isIsoTimestamp(ownValue(o, 'startedAt'))) fail('startedAt must be an ISO date');
  (ownValue(o, 'rows') as unknown[]).forEach((row, i) => {
    const r = row as object;
    for (const k of ROW_NUMBERS) {
      const x = ownValue(r, k);
      if (typeof x !== 'number' || !Number.isFinite(x) || x < 0) fail(`rows[${i}].${k} must be a finite number ≥ 0`);
    }
    for (const k of ROW_NULLABLE_NUMBERS) {
      const x = ownValue(r, k);
      if (x !== null && (typeof x !== 'number' || !Number.isFinite(x))) fail(`rows[${i}].${k} must be a finite number or null`);
    }
    for (const k of ROW_NULLABLE_STRINGS) {
      const x = ownValue(r, k);
      const max = k === 'reason' || k === 'scheduleKey' ? MAX_TEXT_CHARS : MAX_NAME_CHARS;
      if (x !== null && (typeof x !== 'string' || x.length > max)) fail(`rows[${i}].${k} must be a string of at most ${max} characters, or null`);
    }
    const correct = ownValue(r, 'correct');
    if (correct !== null && typeof correct !== 'boolean') fail(`rows[${i}].correct must be true, false or null`);
    if (ownValue(r, 'medianNs') === null && ownValue(r, 'reason') === null && correct !== false) fail(`rows[${i}] has neither a time nor a reason`);
  });
  return run;
}

/** Any result the page takes (a share link, an import, a stored record), typed, or a ResultShapeError. */
export function validateLabResult(v: unknown): LabResultJson {
  const kind = v && typeof v === 'object' && !Array.isArray(v) ? ownValue(v, 'kind') : undefined;
  return kind === 'formats' ? validateFormatsResult(v) : validateResult(v);
}

/** The PR markdown of any result, with its share link last when given. */
export function labResultMarkdown(r: LabResultJson, link?: string): string {
  return r.kind === 'formats' ? formatsMarkdown(r, link) : resultMarkdown(r, link);
}
