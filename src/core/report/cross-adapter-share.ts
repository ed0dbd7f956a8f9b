// A report's own share link (`#report=2.<data>`: the result links' codec, its own prefix so a
// result link and a report link never open as each other) and the check of what one carries:
// own properties only, every list and string bounded, numbers finite.
import { LabError } from '../errors';
import { ownValue } from '../input/bounded-json';
import { crossReport, type CrossAdapterReport } from '../schema/report';
import { fail, isPlainObject } from '../schema/schema';
import { RESULT_SCHEMA_VERSION } from './json';
import { decodeShare, encodeShare, platformCodec, type ShareCodec } from './share';

export const REPORT_HASH_PREFIX = '#report=';
export { MAX_REPORT_COLUMNS, MAX_REPORT_NOTES, MAX_REPORT_ROWS } from '../schema/report';

export class ReportShapeError extends LabError {
  override name = 'ReportShapeError';
}

/** The report, typed, or a ReportShapeError naming the first field that is wrong (its schema: src/core/schema/report.ts). */
export function validateCrossReport(v: unknown): CrossAdapterReport {
  if (!isPlainObject(v)) throw new ReportShapeError(`report: ${fail('the value', 'an object', v)}`);
  if (ownValue(v, 'kind') !== 'report') throw new ReportShapeError("report: kind must be 'report'");
  const version = ownValue(v, 'schemaVersion');
  if (!Number.isInteger(version) || (version as number) < 1) throw new ReportShapeError(`report: ${fail('schemaVersion', 'a positive integer', version)}`);
  if ((version as number) > RESULT_SCHEMA_VERSION) throw new ReportShapeError(`report: schemaVersion ${version} is newer than this lab reads (${RESULT_SCHEMA_VERSION}): open it with a newer kernel-lab`);
  const error = crossReport.check(v, '');
  if (error) throw new ReportShapeError(`report: ${error}`);
  return v as unknown as CrossAdapterReport;
}

/** `#report=<data>`: the fragment to append to the page's address. */
export async function encodeCrossReportLink(r: CrossAdapterReport, codec: ShareCodec = platformCodec): Promise<string> {
  return `${REPORT_HASH_PREFIX}${await encodeShare(crossReport.project(r), codec)}`;
}

/** The report a `#report=` fragment carries (tampered, cut or hostile links: a ShareLinkError). */
export async function decodeCrossReportLink(hash: string, codec: ShareCodec = platformCodec): Promise<CrossAdapterReport> {
  const payload = hash.startsWith(REPORT_HASH_PREFIX) ? hash.slice(REPORT_HASH_PREFIX.length) : hash;
  return decodeShare(payload, codec, undefined, validateCrossReport);
}
