// GitHub markdown for a pull request, one renderer per result kind: verdicts, speedups with
// min–max, the adapter and the lab version, then the share link. The page ("Copy for PR") and
// the CLI (--markdown FILE) both call resultMarkdown, on the same result JSON.
import { adapterName } from '../adapter';
import { fmtExp, fmtNs, fmtRatio, fmtUs } from './format';
import { FORMATS_HEADERS, formatCells } from './formats';
import type { CalibrationJson, FormatsJson, LaneJson, Level1Json, ResultJson, SweepJson } from './json';
import { repeatText, speedupText, stateText } from './lane-text';
import { verdictText } from '../stats/verdict';
import type { UserKernelRef } from '../manifest/source';

/** Line breaks and other control characters: one space each, so a string stays on its line (no forged heading, list or row). */
function oneLine(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ');
}

/**
 * Text from a result (op names, adapter names, reasons) stays plain text on its line: it cannot
 * open a link, an image, a tag, an entity, emphasis, a cell or a new line (a heading, a list).
 */
export function mdEscape(s: string): string {
  return (
    oneLine(s)
      .replace(/[\\`*~[\]|]/g, (c) => `\\${c}`)
      // An underscore emphasises only at a word's edge (RMS_NORM stays as it is).
      .replace(/(^|[^A-Za-z0-9])_|_(?=[^A-Za-z0-9]|$)/g, (m) => m.replace('_', '\\_'))
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      // What would open a block where the string starts a line: a heading, a list item, a setext line.
      .replace(/^(\s*)(#{1,6}(?=\s|$)|[-+=](?=[\s=-]|$))/, '$1\\$2')
      .replace(/^(\s*\d+)([.)])(?=\s|$)/, '$1\\$2')
  );
}

/** A code span: backslashes are literal inside one, so only the table's pipe is escaped; it stays on one line. */
function mdCode(s: string): string {
  return `\`${oneLine(s).replace(/`/g, "'").replace(/\|/g, '\\|')}\``;
}

function stampText(r: { labVersion?: string; codeHash?: string }): string {
  return `kernel-lab ${mdEscape(r.labVersion ?? 'unknown')}${r.codeHash ? ` (code ${mdEscape(r.codeHash)})` : ''}`;
}

function adapterText(r: { adapter: Level1Json['adapter'] }): string {
  return `**${mdEscape(adapterName(r.adapter))}**${r.adapter.isFallbackAdapter ? ' — software adapter, CPU timings' : ''}`;
}

function linkLine(link: string | undefined): string[] {
  return link ? [`[Open this result in kernel-lab](${link})`, ''] : [];
}

/** Which user kernel, exactly: its manifest's and WGSL files' SHA-256. */
function userKernelLine(k: UserKernelRef): string {
  return `User kernel ${mdCode(k.id)}${k.variant ? ` (variant ${mdEscape(k.variant)})` : ''}${k.numerics ? ` — ${mdEscape(k.numerics)}` : ''}: manifest sha256 ${mdCode(k.manifestSha256)}${k.wgsl.map((w) => `, ${mdEscape(w.file)} ${mdCode(w.sha256)}`).join('')}`;
}

export function laneMarkdown(r: LaneJson, link?: string): string {
  const lines: string[] = [
    `### kernel-lab lane: ${r.green ? '✅ green' : '❌ failed'}`,
    '',
    `Adapter: ${adapterText(r)} · ${repeatText(r.settings)} · tolerance ${r.settings.tolerance}${r.settings.control ? ` · control ${mdEscape(r.settings.control)}` : ''} · ${stampText(r)}`,
    '',
  ];
  for (const s of r.skipped) lines.push(`- ${mdEscape(s.op)} skipped: ${mdEscape(s.reason)}`);
  if (r.skipped.length) lines.push('');
  for (const p of r.pairs) {
    lines.push(`#### ${mdEscape(p.op)} (${mdEscape(stateText(p))}${p.gating ? ', gate' : ''}) → ${p.verdict}`, '', '| shape | native µs | generated µs | speedup median [min–max] | verdict |', '|---|--:|--:|--:|---|');
    for (const s of p.shapes) lines.push(`| ${mdEscape(s.shape)} | ${fmtUs(s.nativeMedianNs)} | ${fmtUs(s.generatedMedianNs)} | ${speedupText(s)} | ${verdictText(s.verdict, s.effectFloor, r.settings.tolerance)}${s.fallback ? ` (${mdEscape(s.fallback.code)})` : ''} |`);
    lines.push('');
    const planted = p.shapes.filter((s) => s.plant);
    if (planted.length) lines.push(`Planted slowdowns (inside the kernel's dispatch, measured by Level 1 before the passes): ${planted.map((s) => `${mdEscape(s.shape)} asked ${s.plant!.askedFactor}× measured ${s.plant!.measuredFactor?.toFixed(3)}×`).join(', ')}`, '');
    const users = p.shapes.flatMap((s) => (s.users ?? []).map((u) => ({ s, u })));
    if (users.length) {
      lines.push('User kernels (speedup = native ÷ user, same passes):', '', '| shape | kernel | user µs | speedup median [min–max] | verdict |', '|---|---|--:|--:|---|');
      for (const { s, u } of users) lines.push(`| ${mdEscape(s.shape)} | ${mdCode(u.kernel.id)} | ${fmtUs(u.medianNs)} | ${speedupText(u)} | ${u.verdict}${u.refusal ? ` (${mdEscape(u.refusal.code)})` : ''} |`);
      lines.push('');
      const kernels = new Map(users.map(({ u }) => [u.kernel.id, u.kernel]));
      for (const k of kernels.values()) lines.push(`- ${userKernelLine(k)}`);
      lines.push('');
    }
  }
  return [...lines, ...linkLine(link)].join('\n');
}

export function level1Markdown(r: Level1Json, link?: string): string {
  const t = r.timing;
  const label = r.label ?? `${r.shape}${r.layout ? ` ${r.layout}` : ''}`;
  const lines = [
    `### kernel-lab Level 1: ${mdEscape(r.op)} ${mdEscape(label)} · ${r.variant}${r.userKernel ? ` ${mdCode(r.userKernel.id)}` : ''} ${r.correct ? '✅ correct' : '❌ wrong'}`,
    '',
    `Adapter: ${adapterText(r)} · ${stampText(r)}`,
    '',
    '| op | shape | variant | schedule | correct | median µs [min–max] | runs | resolution | method |',
    '|---|---|---|---|---|--:|--:|---|---|',
    `| ${mdEscape(r.op)} | ${mdEscape(label)} | ${r.variant} | ${r.scheduleKey ? mdCode(r.scheduleKey) : r.userKernel ? mdCode(r.userKernel.id) : '—'} | ${r.correct ? 'yes' : 'NO'} (max err ${fmtExp(r.maxErr)}, bound ${fmtExp(r.bound)}) | ${t ? `${fmtUs(t.medianNs, 2)} [${fmtUs(t.minNs, 2)}–${fmtUs(t.maxNs, 2)}]` : 'not timed'} | ${t ? t.runs : '—'} | ${t ? fmtNs(t.resolutionNs) : '—'} | ${t ? t.method : '—'} |`,
    '',
  ];
  if (r.userKernel) lines.push(userKernelLine(r.userKernel), '');
  if (r.fallback) lines.push(`auto fell back to native: ${mdEscape(r.fallback.code)} — ${mdEscape(r.fallback.reason)}`, '');
  if (!r.correct) lines.push('A wrong kernel is never timed.', '');
  else lines.push('Timed alone: Level 1 has no speedup (a speedup comes only from a lane, native and generated in the same run).', '');
  return [...lines, ...linkLine(link)].join('\n');
}

/** The sweep's ranked candidates, the first few; the proposal is what a reviewer acts on. */
export const SWEEP_MARKDOWN_ROWS = 12;

export function sweepMarkdown(r: SweepJson, link?: string): string {
  const accepted = r.candidates.filter((c) => c.status === 'accepted').length;
  const lines = [
    `### kernel-lab sweep: ${mdEscape(r.op)} — ${accepted} accepted of ${r.candidates.length} candidates`,
    '',
    `Adapter: ${adapterText(r)} · reps ${r.settings.reps} · ${r.shapes.length} shapes · ${stampText(r)}`,
    '',
    '| candidate | status | mean gain on shapes won | reason |',
    '|---|---|--:|---|',
    ...r.candidates.slice(0, SWEEP_MARKDOWN_ROWS).map((c) => `| ${mdCode(c.key)} | ${c.status} | ${c.meanWinGain === null ? '—' : `${(c.meanWinGain * 100).toFixed(1)}%`} | ${mdEscape(c.reason)} |`),
    '',
  ];
  if (r.candidates.length > SWEEP_MARKDOWN_ROWS) lines.push(`…and ${r.candidates.length - SWEEP_MARKDOWN_ROWS} more candidates in the full result.`, '');
  lines.push(r.proposal.length ? `Proposal: ${r.proposal.length} shape rule${r.proposal.length > 1 ? 's' : ''} to review (${r.proposal.map((p) => p.covers.map(mdEscape).join(', ')).join('; ')}).` : 'Proposal: none — no candidate beat the current schedules outside the noise.', '');
  return [...lines, ...linkLine(link)].join('\n');
}

export function calibrationMarkdown(r: CalibrationJson, link?: string): string {
  const lines = [
    '### kernel-lab calibration',
    '',
    `Adapter: ${adapterText(r)} · ${stampText(r)}`,
    '',
    '| stream copy | f32 FMA | f16 FMA | empty dispatch |',
    '|--:|--:|--:|--:|',
    `| ${fmtRatio(r.copyGBps, 1)} GB/s | ${fmtRatio(r.f32Gflops, 1)} GFLOP/s | ${r.f16Gflops === null ? '—' : `${fmtRatio(r.f16Gflops, 1)} GFLOP/s`} | ${fmtNs(r.emptyDispatchNs)} |`,
    '',
  ];
  return [...lines, ...linkLine(link)].join('\n');
}

/** The formats table, fastest first: numbers as the CLI prints them, every text from the run escaped. */
export function formatsMarkdown(r: FormatsJson, link?: string): string {
  const nameOrNull = (s: string | null) => (s === null ? null : mdEscape(s));
  const rows = r.rows.map((row) => formatCells({ ...row, format: mdEscape(row.format), variant: nameOrNull(row.variant), scheduleKey: nameOrNull(row.scheduleKey), reason: nameOrNull(row.reason) }));
  return [
    `### Formats: ${r.op} (${mdEscape(r.ggmlOp)} ${mdEscape(r.shape)}) on ${mdEscape(r.adapter)}`,
    '',
    `Weights: ${mdEscape(r.distribution)}. Fastest first · ${stampText(r)}.`,
    '',
    `| ${FORMATS_HEADERS.join(' | ')} |`,
    `|${FORMATS_HEADERS.map(() => '---').join('|')}|`,
    ...rows.map((cells) => `| ${cells.join(' | ')} |`),
    '',
    ...linkLine(link),
  ].join('\n');
}

/** The markdown for any result, with its share link last when given. */
export function resultMarkdown(r: ResultJson, link?: string): string {
  switch (r.kind) {
    case 'level1':
      return level1Markdown(r, link);
    case 'lane':
      return laneMarkdown(r, link);
    case 'sweep':
      return sweepMarkdown(r, link);
    case 'calibration':
      return calibrationMarkdown(r, link);
    case 'formats':
      return formatsMarkdown(r, link);
  }
}

