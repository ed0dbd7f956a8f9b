// `lab diff A.json B.json`: a baseline (A) against a new run (B), shape by shape, as a baseline
// diff in a CI job reads it. Only lane runs on one adapter whose native column agrees (the rule
// compareLanes applies) are diffed: then the speedup's change is the generated kernel's, not the
// machine's. A shape whose speedup fell by more than the threshold is a regression.
import { compareLanes } from './compare';
import { fmtRatio, textTable } from './format';
import type { LaneJson } from './json';

export interface DiffRow {
  /** "ADD 4096x512 inplace" */
  readonly key: string;
  readonly speedupA: number | null;
  readonly speedupB: number | null;
  /** (b − a) / a of the speedup medians; null when either run has none. */
  readonly change: number | null;
  readonly regression: boolean;
}

export type LaneDiff =
  | { readonly comparable: false; readonly reason: string }
  | { readonly comparable: true; readonly thresholdPct: number; readonly rows: readonly DiffRow[]; readonly regressions: number; readonly onlyInA: readonly string[]; readonly onlyInB: readonly string[] };

/** Diffs run b against baseline a; `thresholdPct`: how far (in %) a speedup may fall. */
export function diffLanes(a: LaneJson, b: LaneJson, thresholdPct = 5): LaneDiff {
  if (!(thresholdPct >= 0) || !Number.isFinite(thresholdPct)) throw new RangeError(`the threshold must be a percentage ≥ 0, got ${thresholdPct}`);
  const cmp = compareLanes(a, b);
  if (!cmp.comparable) return { comparable: false, reason: cmp.reason };
  const rows = cmp.rows.map((r): DiffRow => {
    const sa = r.a.speedupMedian;
    const sb = r.b.speedupMedian;
    const change = sa !== null && sb !== null && sa > 0 ? (sb - sa) / sa : null;
    return { key: r.key, speedupA: sa, speedupB: sb, change, regression: change !== null && change < -thresholdPct / 100 };
  });
  return { comparable: true, thresholdPct, rows, regressions: rows.filter((r) => r.regression).length, onlyInA: cmp.onlyInA, onlyInB: cmp.onlyInB };
}

export function formatDiff(d: LaneDiff): string {
  if (!d.comparable) return `not compared: ${d.reason}`;
  const table = textTable(
    ['op shape', 'speedup A', 'speedup B', 'change', ''],
    d.rows.map((r) => [r.key, fmtRatio(r.speedupA), fmtRatio(r.speedupB), r.change === null ? '—' : `${r.change >= 0 ? '+' : ''}${(r.change * 100).toFixed(1)}%`, r.regression ? 'REGRESSION' : '']),
  );
  const only = [...d.onlyInA.map((k) => `only in A: ${k}`), ...d.onlyInB.map((k) => `only in B: ${k}`)];
  const summary = d.regressions
    ? `${d.regressions} of ${d.rows.length} shapes regressed by more than ${d.thresholdPct}%`
    : `no regression beyond ${d.thresholdPct}% over ${d.rows.length} shapes (the native column agrees)`;
  return [table, ...only, summary].join('\n');
}
