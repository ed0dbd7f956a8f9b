// Plain-text renderings for the CLI.
import { adapterName, type AdapterDescriptor } from '../adapter';
import type { Level1Result } from '../../gpu/level1';
import { fmtExp, fmtNs } from './format';

export function formatAdapter(a: AdapterDescriptor): string {
  const lines = [
    `adapter      ${adapterName(a)}`,
    `vendor       ${a.vendor || '—'}`,
    `architecture ${a.architecture || '—'}`,
    `device       ${a.device || '—'}`,
    `description  ${a.description || '—'}`,
    `fallback     ${a.isFallbackAdapter ? 'yes (software: never read its timings as GPU numbers)' : 'no'}`,
    `subgroups    ${a.subgroupMinSize ? `${a.subgroupMinSize}–${a.subgroupMaxSize}` : '—'}`,
    `features     ${a.features.join(', ')}`,
    'limits',
    ...Object.entries(a.limits).map(([k, v]) => `  ${k.padEnd(36)} ${v}`),
  ];
  return lines.join('\n');
}

export function formatLevel1(r: Level1Result): string {
  const head = `${r.op} ${r.label}  ${r.variant}${r.scheduleKey ? ` ${r.scheduleKey}` : ''}`;
  const lines = [head, `adapter   ${adapterName(r.adapter)}`];
  if (r.fallback) lines.push(`fallback  native: ${r.fallback.code} (${r.fallback.reason})`);
  const c = r.correctness;
  lines.push(
    `correct   ${r.correct ? 'yes' : 'NO'}  maxErr ${fmtExp(r.maxErr)}  bound ${fmtExp(r.bound)}  worst err/bound ${c.worstRatio.toFixed(3)}  (${c.elements} elements)`,
  );
  if (!r.correct) {
    lines.push(`          out of bound ${c.outOfBound}, non-finite ${c.nonFinite}, guard bytes changed ${c.guardViolations}`);
    c.failures.forEach((f) => lines.push(`          ${f}`));
    lines.push('timing    not read: a wrong kernel is never timed');
  } else if (r.timing) {
    const t = r.timing;
    lines.push(
      `timing    min ${fmtNs(t.minNs)}  median ${fmtNs(t.medianNs)}  max ${fmtNs(t.maxNs)}  runs ${t.runs}  resolution ${fmtNs(t.resolutionNs)}  method ${t.method}${t.spanShort ? '  (span < 100× resolution: run cap reached)' : ''}`,
      `          ${t.note}`,
    );
  }
  return lines.join('\n');
}
