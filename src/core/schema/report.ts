// The cross-adapter report (`lab report`, the page's Report view, `#report=` links) defined once:
// its types (src/core/report/cross-adapter.ts re-exports them), the check of a report link
// (src/core/report/cross-adapter-share.ts) and its JSON projection come from here. Every list
// and string is bounded; numbers are finite.
import type { PromotionState } from '../ops/promotion';
import { bool, list, nullable, num, obj, oneOf, optional, record, str, type Infer } from './schema';

/** Rows, columns and notes one report link may hold (the link's character cap bounds it too). */
export const MAX_REPORT_ROWS = 5000;
export const MAX_REPORT_COLUMNS = 64;
export const MAX_REPORT_NOTES = 2000;
/** Characters of any one string of a report. */
const MAX_REPORT_TEXT = 4000;

const text = str(MAX_REPORT_TEXT);
const texts = list(text, 10_000);

/** One measurement of one case on one adapter, as a cell shows it (never the whole run). */
const cellEntry = obj({
  source: text,
  kind: oneOf(['lane', 'level1', 'sweep', 'formats']),
  startedAt: text,
  codeHash: text,
  labVersion: text,
  /** Lane: the shape's verdict; Level 1: 'correct' or 'wrong'; sweep: the reference's variant. */
  verdict: text,
  speedupMedian: nullable(num),
  speedupMin: nullable(num),
  speedupMax: nullable(num),
  nativeMedianNs: nullable(num),
  generatedMedianNs: nullable(num),
  /** Level 1 and sweep: which kernel the one time is of. */
  variant: optional(text),
  /** %BW / %FLOP against the adapter's own peaks (each side's, as its run computed them). */
  nativePctBw: nullable(num),
  generatedPctBw: nullable(num),
  nativePctFlop: nullable(num),
  generatedPctFlop: nullable(num),
  tolerance: nullable(num),
});
export type CellEntry = Infer<typeof cellEntry>;

const reportCell = obj({
  entries: list(cellEntry, 64),
  /** Set when two runs of this adapter timed this case with native medians further apart than their tolerance. */
  disagreement: nullable(text),
});
export type ReportCell = Infer<typeof reportCell>;

const reportColumn = obj({
  /** The adapter fingerprint: one column per adapter and runtime. */
  id: text,
  /** 'nvidia/hopper': the registry's class vocabulary. */
  adapterClass: text,
  name: text,
  runtime: text,
  sources: texts,
  /** Distinct code hashes among this column's runs ("mixed" is marked in every table). */
  codeHashes: texts,
  labVersions: texts,
  /** Runs whose code hash is not this build's (kept only under allowStale). */
  stale: bool,
  /** Measured peaks from a calibration result of this adapter, when one was given. */
  peaks: nullable(obj({ copyGBps: num, f32Gflops: num, emptyDispatchNs: num })),
});
export type ReportColumn = Infer<typeof reportColumn>;

const reportRow = obj({
  op: text,
  /** The case as results label it: "4096x512 inplace eps=1e-5". */
  caseLabel: text,
  cells: record(reportCell, MAX_REPORT_COLUMNS, MAX_REPORT_TEXT),
});
export type ReportRow = Infer<typeof reportRow>;

/** The state the evidence supports for one (op, adapter class), with the evidence in words. */
const classEvidence = obj({
  op: text,
  adapterClass: text,
  state: oneOf<PromotionState>(['native-only', 'observe', 'prefer', 'retired']),
  evidence: text,
});
export type ClassEvidence = Infer<typeof classEvidence>;

const reportNote = obj({ source: text, note: text });
export type ReportNote = Infer<typeof reportNote>;
const notes = list(reportNote, MAX_REPORT_NOTES);

/** Every row's cells are keyed by the report's own column ids. */
function cellsKeyedByColumns(v: Record<string, unknown>, p: string): string | null {
  const ids = new Set((v.columns as ReportColumn[]).map((c) => c.id));
  for (const [i, row] of (v.rows as ReportRow[]).entries()) {
    const foreign = Object.keys(row.cells).find((id) => !ids.has(id));
    if (foreign !== undefined) return `${p}rows[${i}].cells: keyed by the report's column ids (found '${foreign.slice(0, 80)}')`;
  }
  return null;
}

export const crossReport = obj(
  {
    kind: oneOf(['report']),
    schemaVersion: num,
    labVersion: text,
    codeHash: text,
    columns: list(reportColumn, MAX_REPORT_COLUMNS),
    rows: list(reportRow, MAX_REPORT_ROWS),
    evidence: list(classEvidence, MAX_REPORT_ROWS),
    /** Inputs used with a remark (duplicates ignored, mixed code, disagreeing native columns). */
    notes,
    /** Inputs not used, each with the reason. */
    refused: notes,
  },
  cellsKeyedByColumns,
);
export type CrossAdapterReport = Infer<typeof crossReport>;
