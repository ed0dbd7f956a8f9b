// A report's own share link (`#report=2.<data>`: the result links' codec, its own prefix so a
// result link and a report link never open as each other) and the check of what one carries:
// own properties only, every list and string bounded, numbers finite.
import { LabError } from '../errors';
import { RESULT_SCHEMA_VERSION } from './json';
import type { CellEntry, CrossAdapterReport, ReportCell, ReportColumn } from './cross-adapter';
import { decodeShare, encodeShare, platformCodec, type ShareCodec } from './share';

export const REPORT_HASH_PREFIX = '#report=';
/** Rows, columns and notes one report link may hold (the link's character cap bounds it too). */
export const MAX_REPORT_ROWS = 5000;
export const MAX_REPORT_COLUMNS = 64;
export const MAX_REPORT_NOTES = 2000;
const MAX_TEXT = 4000;

export class ReportShapeError extends LabError {
  override name = 'ReportShapeError';
}

const own = (o: object, k: string): unknown => (Object.prototype.hasOwnProperty.call(o, k) ? (o as Record<string, unknown>)[k] : undefined);
const isObj = (v: unknown): v is object => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

function fail(path: string, want: string): never {
  throw new ReportShapeError(`report: ${path} must be ${want}`);
}
function str(o: object, k: string, path: string): string {
  const v = own(o, k);
  if (typeof v !== 'string' || v.length > MAX_TEXT) fail(`${path}.${k}`, `a string of at most ${MAX_TEXT} characters`);
  return v;
}
function num(o: object, k: string, path: string, nullable = true): number | null {
  const v = own(o, k);
  if (v === null && nullable) return null;
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(`${path}.${k}`, nullable ? 'a finite number or null' : 'a finite number');
  return v;
}
function list(o: object, k: string, path: string, max: number): unknown[] {
  const v = own(o, k);
  if (!Array.isArray(v) || v.length > max) fail(`${path}.${k}`, `a list of at most ${max} items`);
  return v;
}
function strings(o: object, k: string, path: string, max: number): void {
  list(o, k, path, max).forEach((s, i) => (typeof s === 'string' && s.length <= MAX_TEXT) || fail(`${path}.${k}[${i}]`, 'a string'));
}

function checkEntry(e: unknown, path: string): void {
  if (!isObj(e)) fail(path, 'an object');
  for (const k of ['source', 'startedAt', 'codeHash', 'labVersion', 'verdict']) str(e, k, path);
  if (!['lane', 'level1', 'sweep', 'formats'].includes(own(e, 'kind') as string)) fail(`${path}.kind`, 'lane, level1, sweep or formats');
  for (const k of ['speedupMedian', 'speedupMin', 'speedupMax', 'nativeMedianNs', 'generatedMedianNs', 'nativePctBw', 'generatedPctBw', 'nativePctFlop', 'generatedPctFlop', 'tolerance'] satisfies (keyof CellEntry)[]) num(e, k, path);
  if (own(e, 'variant') !== undefined) str(e, 'variant', path);
}

function checkColumn(c: unknown, path: string): void {
  if (!isObj(c)) fail(path, 'an object');
  for (const k of ['id', 'adapterClass', 'name', 'runtime'] satisfies (keyof ReportColumn)[]) str(c, k, path);
  for (const k of ['sources', 'codeHashes', 'labVersions']) strings(c, k, path, 10_000);
  if (typeof own(c, 'stale') !== 'boolean') fail(`${path}.stale`, 'true or false');
  const peaks = own(c, 'peaks');
  if (peaks !== null) {
    if (!isObj(peaks)) fail(`${path}.peaks`, 'an object or null');
    for (const k of ['copyGBps', 'f32Gflops', 'emptyDispatchNs']) num(peaks, k, `${path}.peaks`, false);
  }
}

function checkNotes(o: object, k: string): void {
  list(o, k, 'report', MAX_REPORT_NOTES).forEach((n, i) => {
    if (!isObj(n)) fail(`report.${k}[${i}]`, 'an object');
    str(n, 'source', `report.${k}[${i}]`);
    str(n, 'note', `report.${k}[${i}]`);
  });
}

/** The report, typed, or a ReportShapeError naming the first field that is wrong. */
export function validateCrossReport(v: unknown): CrossAdapterReport {
  if (!isObj(v)) fail('the value', 'an object');
  if (own(v, 'kind') !== 'report') fail('kind', "'report'");
  const version = num(v, 'schemaVersion', 'report', false)!;
  if (!Number.isInteger(version) || version < 1) fail('report.schemaVersion', 'a positive integer');
  if (version > RESULT_SCHEMA_VERSION) throw new ReportShapeError(`report: schemaVersion ${version} is newer than this lab reads (${RESULT_SCHEMA_VERSION}): open it with a newer kernel-lab`);
  str(v, 'labVersion', 'report');
  str(v, 'codeHash', 'report');
  const columns = list(v, 'columns', 'report', MAX_REPORT_COLUMNS);
  columns.forEach((c, i) => checkColumn(c, `report.columns[${i}]`));
  const ids = new Set(columns.map((c) => own(c as object, 'id') as string));
  list(v, 'rows', 'report', MAX_REPORT_ROWS).forEach((r, i) => {
    const path = `report.rows[${i}]`;
    if (!isObj(r)) fail(path, 'an object');
    str(r, 'op', path);
    str(r, 'caseLabel', path);
    const cells = own(r, 'cells');
    if (!isObj(cells)) fail(`${path}.cells`, 'an object');
    for (const id of Object.keys(cells)) {
      if (!ids.has(id)) fail(`${path}.cells`, `keyed by the report's column ids (found '${id.slice(0, 80)}')`);
      const cell = own(cells, id) as ReportCell;
      if (!isObj(cell)) fail(`${path}.cells`, 'objects');
      list(cell, 'entries', `${path}.cells`, 64).forEach((e, j) => checkEntry(e, `${path}.cells[${j}]`));
      const d = own(cell, 'disagreement');
      if (d !== null && (typeof d !== 'string' || d.length > MAX_TEXT)) fail(`${path}.cells.disagreement`, 'a string or null');
    }
  });
  list(v, 'evidence', 'report', MAX_REPORT_ROWS).forEach((e, i) => {
    const path = `report.evidence[${i}]`;
    if (!isObj(e)) fail(path, 'an object');
    for (const k of ['op', 'adapterClass', 'evidence']) str(e, k, path);
    if (!['native-only', 'observe', 'prefer', 'retired'].includes(own(e, 'state') as string)) fail(`${path}.state`, 'a promotion state');
  });
  checkNotes(v, 'notes');
  checkNotes(v, 'refused');
  return v as CrossAdapterReport;
}

/** `#report=<data>`: the fragment to append to the page's address. */
export async function encodeCrossReportLink(r: CrossAdapterReport, codec: ShareCodec = platformCodec): Promise<string> {
  return `${REPORT_HASH_PREFIX}${await encodeShare(r, codec)}`;
}

/** The report a `#report=` fragment carries (tampered, cut or hostile links: a ShareLinkError). */
export async function decodeCrossReportLink(hash: string, codec: ShareCodec = platformCodec): Promise<CrossAdapterReport> {
  const payload = hash.startsWith(REPORT_HASH_PREFIX) ? hash.slice(REPORT_HASH_PREFIX.length) : hash;
  return decodeShare(payload, codec, undefined, validateCrossReport);
}
