// One table over many adapters (`lab report`, the page's Report view). Results from many runs
// are grouped per (op, case) with one column per adapter; a speedup never leaves its run
// (DESIGN.md): cells stand side by side, and no number is ever a ratio of two adapters' times.
// Two runs of one adapter on one case are both shown; when their native columns disagree the
// cell says so instead of averaging.
import { adapterFingerprint, adapterName, type AdapterDescriptor } from '../adapter';
import type { CellEntry, ClassEvidence, CrossAdapterReport, ReportCell, ReportColumn, ReportNote, ReportRow } from '../schema/report';
import { CODE_HASH, LAB_VERSION, RESULT_SCHEMA_VERSION, resultAdapter, type CalibrationJson, type FormatsJson, type LaneJson, type Level1Json, type ResultJson, type SweepJson } from './json';

/** How many inputs one report takes: a CI matrix of hundreds of jobs fits, a runaway glob does not. */
export const MAX_REPORT_INPUTS = 2000;
/** Cells kept in one report (rows × columns): bounds memory whatever the inputs hold. */
export const MAX_REPORT_CELL_ENTRIES = 200_000;

export type { CellEntry, ClassEvidence, CrossAdapterReport, ReportCell, ReportColumn, ReportNote, ReportRow } from '../schema/report';

export interface ReportOptions {
  /** Keep runs of other code (marked stale) instead of refusing them. */
  readonly allowStale?: boolean;
  /** The code hash runs must carry to be current (default: this build's). */
  readonly codeHash?: string;
}

/** 'vendor/architecture', lower-case, as the registry's states are keyed ('default' parts as '*'). */
export function adapterClassOf(a: Pick<AdapterDescriptor, 'vendor' | 'architecture'>): string {
  return `${(a.vendor || '*').toLowerCase()}/${(a.architecture || '*').toLowerCase()}`;
}

/** A run with its stamps filled in ('unknown' where a result stored before stamps lacks them). */
type Stamped<T> = T & { readonly codeHash: string; readonly labVersion: string };

type LaneShapeJson = LaneJson['pairs'][number]['shapes'][number];

function laneEntries(r: Stamped<LaneJson>, source: string): { op: string; caseLabel: string; entry: CellEntry }[] {
  return r.pairs.flatMap((p) =>
    p.shapes.map((s: LaneShapeJson) => ({
      op: p.op,
      caseLabel: s.shape,
      entry: {
        source,
        kind: 'lane' as const,
        startedAt: r.startedAt,
        codeHash: r.codeHash,
        labVersion: r.labVersion,
        verdict: s.verdict,
        speedupMedian: s.speedupMedian,
        speedupMin: s.speedupMin,
        speedupMax: s.speedupMax,
        nativeMedianNs: s.nativeMedianNs,
        generatedMedianNs: s.generatedMedianNs,
        nativePctBw: s.nativeMetrics?.pctPeakBw ?? null,
        generatedPctBw: s.generatedMetrics?.pctPeakBw ?? null,
        nativePctFlop: s.nativeMetrics?.pctPeakFlops ?? null,
        generatedPctFlop: s.generatedMetrics?.pctPeakFlops ?? null,
        tolerance: r.settings.tolerance,
      },
    })),
  );
}

function level1Entry(r: Stamped<Level1Json>, source: string): { op: string; caseLabel: string; entry: CellEntry } {
  const medianNs = r.timing?.medianNs ?? null;
  const native = r.variant === 'native';
  return {
    op: r.op,
    caseLabel: r.label ?? r.shape,
    entry: {
      source,
      kind: 'level1',
      startedAt: r.startedAt,
      codeHash: r.codeHash,
      labVersion: r.labVersion,
      verdict: r.correct ? 'correct' : 'wrong',
      speedupMedian: null,
      speedupMin: null,
      speedupMax: null,
      nativeMedianNs: native ? medianNs : null,
      generatedMedianNs: native ? null : medianNs,
      variant: r.variant,
      nativePctBw: native ? (r.metrics?.pctPeakBw ?? null) : null,
      generatedPctBw: native ? null : (r.metrics?.pctPeakBw ?? null),
      nativePctFlop: native ? (r.metrics?.pctPeakFlops ?? null) : null,
      generatedPctFlop: native ? null : (r.metrics?.pctPeakFlops ?? null),
      tolerance: null,
    },
  };
}

/** A sweep contributes its reference (the kernel a proposal would replace) per shape. */
function sweepEntries(r: Stamped<SweepJson>, source: string): { op: string; caseLabel: string; entry: CellEntry }[] {
  return r.reference.map((ref) => ({
    op: r.op,
    caseLabel: ref.shape,
    entry: {
      source,
      kind: 'sweep' as const,
      startedAt: r.startedAt,
      codeHash: r.codeHash,
      labVersion: r.labVersion,
      verdict: `sweep reference (${r.proposal.length} proposed rule${r.proposal.length === 1 ? '' : 's'})`,
      speedupMedian: null,
      speedupMin: null,
      speedupMax: null,
      nativeMedianNs: ref.variant === 'native' ? ref.medianNs : null,
      generatedMedianNs: ref.variant === 'native' ? null : ref.medianNs,
      variant: ref.variant,
      nativePctBw: null,
      generatedPctBw: null,
      nativePctFlop: null,
      generatedPctFlop: null,
      tolerance: null,
    },
  }));
}

/** Each format's row of a formats run: one case per (op, shape, format), its one kernel's time. */
function formatsEntries(r: FormatsJson, source: string): { op: string; caseLabel: string; entry: CellEntry }[] {
  return r.rows.map((row) => {
    const native = row.variant === 'native';
    return {
      op: r.ggmlOp,
      caseLabel: `${r.shape} ${r.op} ${row.format}`,
      entry: {
        source,
        kind: 'formats' as const,
        startedAt: r.startedAt,
        codeHash: r.codeHash,
        labVersion: r.labVersion,
        verdict: row.correct === null ? `not run: ${row.reason ?? 'no reason given'}`.slice(0, 200) : row.correct ? 'correct' : 'wrong',
        speedupMedian: null,
        speedupMin: null,
        speedupMax: null,
        nativeMedianNs: native ? row.medianNs : null,
        generatedMedianNs: native ? null : row.medianNs,
        variant: `${row.variant ?? '—'} · ${row.bitsPerWeight} bits/w${row.nmse !== null ? ` · NMSE ${row.nmse.toExponential(2)}` : ''}`,
        nativePctBw: native ? row.pctPeakBw : null,
        generatedPctBw: native ? null : row.pctPeakBw,
        nativePctFlop: native ? row.pctPeakFlops : null,
        generatedPctFlop: native ? null : row.pctPeakFlops,
        tolerance: null,
      },
    };
  });
}

/** A run's identity for duplicate detection: the same adapter, kind and start time is the same run. */
function runIdentity(r: ResultJson): string {
  const started = r.kind === 'calibration' ? (r as CalibrationJson).measuredAt : r.startedAt;
  return `${r.kind}|${adapterFingerprint(resultAdapter(r))}|${started}`;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** Native medians of one case from two runs of one adapter: further apart than tolerance → the runs disagree. */
function nativeDisagreement(entries: readonly CellEntry[]): string | null {
  const timed = entries.filter((e) => e.kind === 'lane' && e.nativeMedianNs !== null && e.nativeMedianNs > 0);
  for (let i = 0; i < timed.length; i++) {
    for (let j = i + 1; j < timed.length; j++) {
      const a = timed[i];
      const b = timed[j];
      const tol = Math.max(a.tolerance ?? 0.05, b.tolerance ?? 0.05);
      const change = (b.nativeMedianNs! - a.nativeMedianNs!) / a.nativeMedianNs!;
      if (Math.abs(change) > tol) {
        return `native columns disagree: ${a.source} ${a.nativeMedianNs} ns vs ${b.source} ${b.nativeMedianNs} ns (${change >= 0 ? '+' : ''}${pct(change)} > tolerance ${pct(tol)}); both shown, not averaged`;
      }
    }
  }
  return null;
}

/** What the lane evidence of one (op, adapter class) supports, in the registry's vocabulary. */
function classEvidence(op: string, adapterClass: string, pairs: readonly { source: string; pair: LaneJson['pairs'][number] }[]): ClassEvidence {
  const shapes = pairs.flatMap((p) => p.pair.shapes);
  const count = (v: string) => shapes.filter((s) => s.verdict === v).length;
  const sources = [...new Set(pairs.map((p) => p.source))].join(', ');
  const wrong = count('wrong');
  const failing = pairs.filter((p) => p.pair.verdict === 'lane-failed');
  const medians = shapes.map((s) => s.speedupMedian).filter((x): x is number => x !== null && Number.isFinite(x));
  const range = medians.length ? `median speedups ${Math.min(...medians).toFixed(2)}–${Math.max(...medians).toFixed(2)}×` : 'no timed shape';
  const tally = ['faster', 'parity', 'within-tolerance', 'undecided', 'slower', 'too-slow', 'wrong', 'declared-fallback']
    .map((v) => [v, count(v)] as const)
    .filter(([, n]) => n > 0)
    .map(([v, n]) => `${n} ${v}`)
    .join(', ');
  const base = `lane evidence (${sources}): ${shapes.length} shapes — ${tally || 'none'}; ${range}`;
  if (wrong > 0) return { op, adapterClass, state: 'native-only', evidence: `${base}; the generated kernel is wrong on ${wrong} shape(s)` };
  if (failing.length) return { op, adapterClass, state: 'observe', evidence: `${base}; the lane failed (undeclared fallback or device rejection)` };
  const allChecklist = pairs.every((p) => p.pair.checklist.length > 0 && p.pair.checklist.every((c) => c.pass));
  const blocking = count('slower') + count('too-slow') + count('undecided');
  if (allChecklist && blocking === 0 && count('faster') > 0) return { op, adapterClass, state: 'prefer', evidence: `${base}; promotion checklist green` };
  const why = blocking ? `${blocking} shape(s) slower, too slow or undecided` : allChecklist ? 'no shape faster' : 'the promotion checklist is not green';
  return { op, adapterClass, state: 'observe', evidence: `${base}; ${why}` };
}

/** The cross-adapter report over validated results (each with the name it came from). */
export function buildCrossAdapterReport(inputs: readonly { source: string; result: ResultJson }[], opts: ReportOptions = {}): CrossAdapterReport {
  const currentHash = opts.codeHash ?? CODE_HASH;
  const notes: ReportNote[] = [];
  const refused: ReportNote[] = [];
  if (inputs.length > MAX_REPORT_INPUTS) {
    throw new RangeError(`a report takes at most ${MAX_REPORT_INPUTS} results, got ${inputs.length}`);
  }
  const seen = new Map<string, string>();
  const columns = new Map<string, { adapter: AdapterDescriptor; sources: string[]; codeHashes: Set<string>; labVersions: Set<string>; stale: boolean; peaks: ReportColumn['peaks'] }>();
  const rows = new Map<string, { op: string; caseLabel: string; cells: Map<string, CellEntry[]> }>();
  const lanePairs = new Map<string, { op: string; adapterClass: string; pairs: { source: string; pair: LaneJson['pairs'][number] }[] }>();
  let cellEntries = 0;

  for (const input of inputs) {
    const source = input.source;
    // Results stored before they were stamped carry no code hash or lab version.
    const result = { ...input.result, codeHash: input.result.codeHash ?? 'unknown', labVersion: input.result.labVersion ?? 'unknown' };
    const id = runIdentity(result);
    const first = seen.get(id);
    if (first !== undefined) {
      notes.push({ source, note: `the same run as ${first} (adapter, kind and start time): ignored, not counted twice` });
      continue;
    }
    const stale = result.codeHash !== currentHash;
    if (stale && !opts.allowStale) {
      refused.push({ source, note: `stale: made by code ${result.codeHash} (lab ${result.labVersion}), this build is ${currentHash} (lab ${LAB_VERSION}); pass --allow-stale to include it, marked` });
      continue;
    }
    seen.set(id, source);
    const adapter = resultAdapter(result);
    const fp = adapterFingerprint(adapter);
    const col = columns.get(fp) ?? { adapter, sources: [], codeHashes: new Set<string>(), labVersions: new Set<string>(), stale: false, peaks: null };
    columns.set(fp, col);
    col.sources.push(source);
    col.codeHashes.add(result.codeHash);
    col.labVersions.add(result.labVersion);
    col.stale ||= stale;
    if (stale) notes.push({ source, note: `stale (code ${result.codeHash}, this build ${currentHash}): included on request (--allow-stale), marked` });

    let found: { op: string; caseLabel: string; entry: CellEntry }[] = [];
    switch (result.kind) {
      case 'lane':
        found = laneEntries(result, source);
        for (const pair of result.pairs) {
          const key = `${pair.op}|${adapterClassOf(adapter)}`;
          const group = lanePairs.get(key) ?? { op: pair.op, adapterClass: adapterClassOf(adapter), pairs: [] };
          group.pairs.push({ source, pair });
          lanePairs.set(key, group);
        }
        break;
      case 'level1':
        found = [level1Entry(result, source)];
        break;
      case 'sweep':
        found = sweepEntries(result, source);
        break;
      case 'formats':
        found = formatsEntries(result, source);
        break;
      case 'calibration':
        col.peaks = { copyGBps: result.copyGBps, f32Gflops: result.f32Gflops, emptyDispatchNs: result.emptyDispatchNs };
        break;
    }
    for (const { op, caseLabel, entry } of found) {
      if (++cellEntries > MAX_REPORT_CELL_ENTRIES) throw new RangeError(`the results hold more than ${MAX_REPORT_CELL_ENTRIES} (case, run) measurements, the cap on one report`);
      const key = `${op}|${caseLabel}`;
      const row = rows.get(key) ?? { op, caseLabel, cells: new Map<string, CellEntry[]>() };
      rows.set(key, row);
      const list = row.cells.get(fp) ?? [];
      list.push(entry);
      row.cells.set(fp, list);
    }
  }

  const outColumns: ReportColumn[] = [...columns.entries()]
    .map(([id, c]) => ({
      id,
      adapterClass: adapterClassOf(c.adapter),
      name: adapterName(c.adapter),
      runtime: c.adapter.runtime,
      sources: c.sources,
      codeHashes: [...c.codeHashes].sort(),
      labVersions: [...c.labVersions].sort(),
      stale: c.stale,
      peaks: c.peaks,
    }))
    .sort((a, b) => a.adapterClass.localeCompare(b.adapterClass) || a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  for (const c of outColumns) {
    if (c.codeHashes.length > 1) notes.push({ source: c.sources.join(', '), note: `${c.name}: runs of different code (${c.codeHashes.join(', ')}) share this column; each cell names its run` });
  }
  const outRows: ReportRow[] = [...rows.values()]
    .map((r) => {
      const cells: Record<string, ReportCell> = {};
      for (const [fp, entries] of r.cells) {
        const disagreement = nativeDisagreement(entries);
        if (disagreement) notes.push({ source: entries.map((e) => e.source).join(', '), note: `${r.op} ${r.caseLabel}: ${disagreement}` });
        cells[fp] = { entries, disagreement };
      }
      return { op: r.op, caseLabel: r.caseLabel, cells };
    })
    .sort((a, b) => a.op.localeCompare(b.op) || a.caseLabel.localeCompare(b.caseLabel, 'en', { numeric: true }));
  const evidence = [...lanePairs.values()]
    .map((g) => classEvidence(g.op, g.adapterClass, g.pairs))
    .sort((a, b) => a.op.localeCompare(b.op) || a.adapterClass.localeCompare(b.adapterClass));

  return { kind: 'report', schemaVersion: RESULT_SCHEMA_VERSION, labVersion: LAB_VERSION, codeHash: currentHash, columns: outColumns, rows: outRows, evidence, notes, refused };
}

/** The verdict a cell shows: the lane's when there is one, else Level 1's. Several runs: each, joined. */
export function cellVerdict(cell: ReportCell | undefined): string | null {
  if (!cell || !cell.entries.length) return null;
  const verdicts = [...new Set(cell.entries.map((e) => e.verdict))];
  return verdicts.join(' / ');
}
