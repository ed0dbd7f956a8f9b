// The sweep as text: a ranked table, the refusals with their reasons, and last the proposal in
// schedulesFor's vocabulary, ready to review and paste into src/core/ops/registry.ts.
import { adapterName } from '../adapter';
import type { SweepResult } from '../results';
import type { SweepRecord } from '../schema/results';
import type { Schedule } from '../schedule/schedule';
import { describeConditions, type Condition } from '../schedule/shape-rules';
import { fmtUs, textTable } from './format';

function tsValue(v: unknown): string {
  if (typeof v === 'string') return `'${v}'`;
  if (Array.isArray(v)) return `[${v.map(tsValue).join(', ')}]`;
  if (v && typeof v === 'object') return `{ ${Object.entries(v).map(([k, x]) => `${k}: ${tsValue(x)}`).join(', ')} }`;
  return String(v);
}

/** One registry rule as TypeScript source. */
export function ruleSource(when: readonly Condition[], schedule: Schedule, note: string): string {
  return `{ when: ${tsValue(when)}, schedule: freezeSchedule(${tsValue(schedule)}), note: ${tsValue(note)} },`;
}

export function proposalText(r: SweepRecord): string {
  if (!r.proposal.length) return `proposal for ${r.op}: none — no candidate beat the current schedules outside the noise; keep the registry as it is.`;
  const date = r.startedAt.slice(0, 10);
  const lines = [
    `proposal for ${r.op} (review, paste at the top of its rules in src/core/ops/registry.ts, then run the lane):`,
    ...r.proposal.map((e) => `  ${ruleSource(e.when, e.schedule, `sweep ${date} on ${adapterName(r.adapter)}: mean gain ${(e.meanWinGain * 100).toFixed(1)}% on ${e.covers.join(', ')}`)}`),
  ];
  return lines.join('\n');
}

export function formatSweep(r: SweepResult): string {
  const out = [
    `sweep ${r.op} — ${adapterName(r.adapter)} — reps ${r.settings.reps}, ${r.candidates.length} candidates over ${r.shapes.length} shapes`,
  ];
  if (r.adapter.isFallbackAdapter) out.push('(software adapter: CPU timings, not GPU numbers)');
  for (const x of r.excludedShapes) out.push(`shape ${x.shape} excluded: ${x.reason}`);
  out.push(
    '',
    'reference (the variant a candidate would replace):',
    textTable(
      ['shape', 'variant', 'median µs', 'spread'],
      r.reference.map((x) => [x.shape, x.variant, fmtUs(x.medianNs), `${(x.spread * 100).toFixed(1)}%`]),
    ),
    '',
  );
  const timed = r.candidates.filter((c) => c.shapes.length);
  out.push(
    textTable(
      ['#', 'candidate', ...r.shapes.map((s) => `${s} µs (spread, gain)`), 'status', 'rule'],
      timed.map((c, i) => [
        String(i + 1),
        c.key,
        ...c.shapes.map((s) => (s.medianNs === null ? 'unfit' : `${fmtUs(s.medianNs)} (${((s.spread ?? 0) * 100).toFixed(0)}%, ${s.gain !== null && s.gain >= 0 ? '+' : ''}${((s.gain ?? 0) * 100).toFixed(0)}%)`)),
        c.status,
        c.rule ? describeConditions(c.rule) : '',
      ]),
    ),
  );
  const refusals = r.candidates.filter((c) => c.status !== 'accepted');
  if (refusals.length) {
    out.push('', 'refused:');
    for (const c of refusals) out.push(`  ${c.key}: ${c.status}: ${c.reason}`);
  }
  out.push('', proposalText(r));
  return out.join('\n');
}
