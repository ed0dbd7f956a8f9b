// The cross-adapter report as text (terminal), GitHub markdown (a PR comment), a standalone HTML
// page (a CI artifact) and the registry edits its evidence supports. Every cell is one adapter's
// own numbers; nothing here divides one adapter's time by another's.
import { REGISTRY } from '../ops/registry';
import { stateFor } from '../ops/promotion';
import type { CellEntry, ClassEvidence, CrossAdapterReport, ReportCell, ReportColumn } from './cross-adapter';
import { fmtRatio, fmtUs, textTable } from './format';
import { mdEscape } from './markdown';

function pctText(x: number | null): string {
  return x === null || !Number.isFinite(x) ? '' : `${x.toFixed(0)}%`;
}

/** One run's numbers in a cell: "faster 1.31× [1.20–1.40] gen 12.3 µs (72% BW) nat 16.1 µs". */
export function entryText(e: CellEntry): string {
  if (e.kind === 'lane') {
    const speed = e.speedupMedian === null ? '' : ` ${fmtRatio(e.speedupMedian)}× [${fmtRatio(e.speedupMin)}–${fmtRatio(e.speedupMax)}]`;
    const bw = e.generatedPctBw !== null ? ` (${pctText(e.generatedPctBw)} BW)` : e.generatedPctFlop !== null ? ` (${pctText(e.generatedPctFlop)} FLOP)` : '';
    const gen = e.generatedMedianNs !== null ? ` gen ${fmtUs(e.generatedMedianNs)} µs${bw}` : '';
    const nat = e.nativeMedianNs !== null ? ` nat ${fmtUs(e.nativeMedianNs)} µs` : '';
    return `${e.verdict}${speed}${gen}${nat}`;
  }
  const ns = e.nativeMedianNs ?? e.generatedMedianNs;
  const pct = e.nativePctBw ?? e.generatedPctBw;
  return `${e.kind === 'level1' ? 'L1' : e.kind === 'formats' ? 'formats' : 'sweep'} ${e.variant ?? ''} ${e.verdict === 'correct' || e.kind === 'sweep' ? `${fmtUs(ns)} µs` : e.verdict}${pct !== null ? ` (${pctText(pct)} BW)` : ''}`.replace(/\s+/g, ' ');
}

export function cellText(cell: ReportCell | undefined): string {
  if (!cell) return '—';
  const body = cell.entries.map(entryText).join(' | ');
  return cell.disagreement ? `${body} ⚠ native disagrees` : body;
}

export function columnTitle(c: ReportColumn): string {
  const marks = [c.stale ? 'stale' : '', c.codeHashes.length > 1 ? 'mixed code' : '', c.labVersions.length > 1 ? `lab ${c.labVersions.join(' + ')}` : ''].filter(Boolean);
  return `${c.name}${marks.length ? ` [${marks.join(', ')}]` : ''}`;
}

function peaksText(c: ReportColumn): string {
  return c.peaks ? `copy ${(c.peaks.copyGBps / 1000).toFixed(2)} TB/s, f32 ${(c.peaks.f32Gflops / 1000).toFixed(1)} TFLOP/s, empty dispatch ${fmtUs(c.peaks.emptyDispatchNs, 2)} µs` : 'no calibration given (%BW/%FLOP from each run\'s own peaks)';
}

export function crossReportText(r: CrossAdapterReport): string {
  const lines: string[] = [];
  lines.push(`${r.rows.length} cases over ${r.columns.length} adapters (speedups are each adapter's own; no ratio crosses adapters)`);
  r.columns.forEach((c, i) => lines.push(`  [${i + 1}] ${columnTitle(c)} — class ${c.adapterClass}; ${c.sources.length} run(s); ${peaksText(c)}`));
  lines.push('');
  const headers = ['op', 'case', ...r.columns.map((_, i) => `[${i + 1}]`)];
  lines.push(textTable(headers, r.rows.map((row) => [row.op, row.caseLabel, ...r.columns.map((c) => cellText(row.cells[c.id]))])));
  if (r.evidence.length) {
    lines.push('', 'Promotion state the evidence supports (per op and adapter class):');
    lines.push(textTable(['op', 'class', 'state', 'evidence'], r.evidence.map((e) => [e.op, e.adapterClass, e.state, e.evidence])));
  }
  if (r.notes.length) lines.push('', 'Notes:', ...r.notes.map((n) => `  ${n.source}: ${n.note}`));
  if (r.refused.length) lines.push('', 'Refused inputs:', ...r.refused.map((n) => `  ${n.source}: ${n.note}`));
  return lines.join('\n');
}

export function crossReportMarkdown(r: CrossAdapterReport, link?: string): string {
  const out: string[] = [];
  out.push(`### kernel-lab report: ${r.rows.length} cases × ${r.columns.length} adapters`, '');
  out.push('Each cell is one adapter\'s own run: verdict, speedup median [min–max] of generated over native, generated and native medians. No ratio crosses adapters.', '');
  r.columns.forEach((c, i) => out.push(`${i + 1}. **${mdEscape(columnTitle(c))}** — \`${mdEscape(c.adapterClass)}\`, ${c.sources.length} run(s); ${mdEscape(peaksText(c))}`));
  out.push('');
  out.push(`| op | case | ${r.columns.map((_, i) => `[${i + 1}]`).join(' | ')} |`);
  out.push(`|---|---|${r.columns.map(() => '---').join('|')}|`);
  for (const row of r.rows) out.push(`| ${mdEscape(row.op)} | ${mdEscape(row.caseLabel)} | ${r.columns.map((c) => mdEscape(cellText(row.cells[c.id]))).join(' | ')} |`);
  if (r.evidence.length) {
    out.push('', '| op | adapter class | state the evidence supports | evidence |', '|---|---|---|---|');
    for (const e of r.evidence) out.push(`| ${mdEscape(e.op)} | ${mdEscape(e.adapterClass)} | **${e.state}** | ${mdEscape(e.evidence)} |`);
  }
  if (r.notes.length) out.push('', '<details><summary>Notes</summary>', '', ...r.notes.map((n) => `- ${mdEscape(n.source)}: ${mdEscape(n.note)}`), '', '</details>');
  if (r.refused.length) out.push('', '**Refused inputs**', '', ...r.refused.map((n) => `- ${mdEscape(n.source)}: ${mdEscape(n.note)}`));
  if (link) out.push('', `[Open this report in kernel-lab](${link})`);
  out.push('', `kernel-lab ${mdEscape(r.labVersion)} (code ${mdEscape(r.codeHash)})`);
  return `${out.join('\n')}\n`;
}

function htmlEscape(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The heat map's colour per verdict (the page uses the same). */
export const VERDICT_COLOURS: Readonly<Record<string, string>> = Object.freeze({
  faster: '#b7e4b0',
  parity: '#e8e8e8',
  'within-tolerance': '#f3efc4',
  undecided: '#f6d8a8',
  slower: '#f4b6b0',
  'too-slow': '#e59a9a',
  wrong: '#d66',
  'declared-fallback': '#cfd8e8',
  correct: '#e8f1fb',
});

/** The cell's colour: its worst verdict (a cell with two runs shows the worse). */
export function cellColour(cell: ReportCell | undefined): string {
  if (!cell) return '#fff';
  const order = ['wrong', 'too-slow', 'slower', 'undecided', 'within-tolerance', 'parity', 'declared-fallback', 'faster', 'correct'];
  const verdicts = cell.entries.map((e) => e.verdict);
  const worst = order.find((v) => verdicts.includes(v));
  return (worst && VERDICT_COLOURS[worst]) || '#fff';
}

/** A standalone page (no script, inline style): a CI artifact a reviewer opens. */
export function crossReportHtml(r: CrossAdapterReport): string {
  const th = r.columns.map((c, i) => `<th title="${htmlEscape(c.id)}">[${i + 1}] ${htmlEscape(columnTitle(c))}<br><small>${htmlEscape(c.adapterClass)}</small></th>`).join('');
  const rows = r.rows
    .map((row) => `<tr><td>${htmlEscape(row.op)}</td><td>${htmlEscape(row.caseLabel)}</td>${r.columns.map((c) => `<td style="background:${cellColour(row.cells[c.id])}">${htmlEscape(cellText(row.cells[c.id]))}</td>`).join('')}</tr>`)
    .join('\n');
  const ev = r.evidence.map((e) => `<tr><td>${htmlEscape(e.op)}</td><td>${htmlEscape(e.adapterClass)}</td><td><b>${e.state}</b></td><td>${htmlEscape(e.evidence)}</td></tr>`).join('\n');
  const list = (items: readonly { source: string; note: string }[]) => items.map((n) => `<li>${htmlEscape(n.source)}: ${htmlEscape(n.note)}</li>`).join('');
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>kernel-lab report</title>
<style>body{font:13px system-ui,sans-serif;margin:1.5em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 6px;vertical-align:top;text-align:left}</style></head>
<body><h1>kernel-lab report: ${r.rows.length} cases × ${r.columns.length} adapters</h1>
<p>Each cell is one adapter's own run (verdict, speedup median [min–max], generated and native medians). No ratio crosses adapters.</p>
<table><thead><tr><th>op</th><th>case</th>${th}</tr></thead><tbody>
${rows}
</tbody></table>
${ev ? `<h2>Promotion state the evidence supports</h2><table><thead><tr><th>op</th><th>class</th><th>state</th><th>evidence</th></tr></thead><tbody>${ev}</tbody></table>` : ''}
${r.notes.length ? `<h2>Notes</h2><ul>${list(r.notes)}</ul>` : ''}
${r.refused.length ? `<h2>Refused inputs</h2><ul>${list(r.refused)}</ul>` : ''}
<p><small>kernel-lab ${htmlEscape(r.labVersion)} (code ${htmlEscape(r.codeHash)})</small></p>
</body></html>
`;
}

/**
 * The registry edits the evidence supports, in registry.ts's own vocabulary (a `states` entry per
 * adapter class), each beside the state the registry holds now. Printed for review; never written.
 */
export function registryEdits(evidence: readonly ClassEvidence[]): string {
  const byOp = new Map<string, ClassEvidence[]>();
  for (const e of evidence) byOp.set(e.op, [...(byOp.get(e.op) ?? []), e]);
  const out: string[] = [];
  for (const [op, list] of byOp) {
    const entry = REGISTRY.find((x) => x.op === op);
    out.push(`// ${op}${entry ? '' : ' (not in this registry)'}: states`);
    for (const e of list) {
      const [vendor, arch] = e.adapterClass.split('/');
      const now = entry ? stateFor(entry, { vendor, architecture: arch }) : null;
      const nowText = now ? `registry now: ${now.state}${now.adapterClass !== e.adapterClass ? ` (via '${now.adapterClass}')` : ''}` : 'no registry entry';
      const change = now && now.state === e.state && now.adapterClass === e.adapterClass ? 'unchanged' : 'edit';
      out.push(`'${e.adapterClass}': { state: '${e.state}', evidence: ${JSON.stringify(e.evidence)} }, // ${change}; ${nowText}`);
    }
  }
  return out.join('\n');
}
