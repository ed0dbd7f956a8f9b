// The lane as text for the CLI (its GitHub markdown is in markdown.ts, beside the other kinds).
import { adapterName } from '../adapter';
import type { LanePair, LaneResult, LaneShape } from '../results';
import { EFFECT_FLOOR_TICKS, MIN_EFFECT, OUT_OF_LINE, verdictText } from '../stats/verdict';
import { fmtRatio, fmtUs, textTable } from './format';
import { compactMetrics, userKernelHashes } from './text';

export function speedupText(s: Pick<LaneShape, 'speedupMedian' | 'speedupMin' | 'speedupMax'>): string {
  if (s.speedupMedian === null) return '—';
  return `${fmtRatio(s.speedupMedian)} [${fmtRatio(s.speedupMin)}–${fmtRatio(s.speedupMax)}]`;
}

function countersText(p: LanePair): string {
  const fb = Object.entries(p.counters.nativeFallbacks).map(([k, v]) => `${k}×${v}`);
  return `generated dispatches ${p.counters.generatedDispatches}, native fallbacks ${fb.join(', ') || 'none'}, device rejections ${p.counters.deviceRejections}`;
}

/** 'observe', or 'prefer (--prefer; registry: observe)' when the run raised it. */
export function stateText(p: Pick<LanePair, 'state' | 'registryState'>): string {
  return p.state === p.registryState ? p.state : `${p.state} (--prefer; registry: ${p.registryState})`;
}

/** The verdict rule as the lane prints it (docs/statistics.md "The effect floor"). */
export const RULE_TEXT = `verdicts: speedup = native ÷ generated per pass; parity when min ≤ 1 ≤ max; faster needs median − 1 above the effect floor max(${100 * MIN_EFFECT}%, ${EFFECT_FLOOR_TICKS} timer ticks ÷ generated median), else parity; slower below 1 − max(tolerance, floor); undecided below 1 when the floor (the noise) is above the tolerance; passes more than ${100 * OUT_OF_LINE}% out of line are measured again`;

/** 'repeat 5', or 'repeat auto (median's 95% interval ≤ 2% of it, at most 30 passes)'. */
export function repeatText(s: Pick<LaneResult['settings'], 'repeat' | 'repeatAuto'>): string {
  return s.repeatAuto ? `repeat auto (median's 95% interval ≤ ${100 * s.repeatAuto.targetWidth}% of it, at most ${s.repeatAuto.maxPasses} passes)` : `repeat ${s.repeat}`;
}

export const REPEAT_ONE_WARNING = 'warning: --repeat 1 times one pass: one run is a draw, not a measurement (its min–max is a single ratio); use --repeat 5 or more for a verdict';

export function formatLane(r: LaneResult): string {
  const out: string[] = [
    `lane — ${adapterName(r.adapter)} — ${repeatText(r.settings)}, tolerance ${r.settings.tolerance}${r.settings.control ? `, control ${r.settings.control}` : ''}${r.settings.proposalRules ? `, ${r.settings.proposalRules} proposed rule(s) tried first` : ''}`,
  ];
  if (r.adapter.isFallbackAdapter) out.push('(software adapter: CPU timings, not GPU numbers)');
  out.push(RULE_TEXT);
  if (r.settings.repeat === 1) out.push(REPEAT_ONE_WARNING);
  for (const s of r.skipped) out.push(`skipped ${s.op}: ${s.reason}`);
  for (const p of r.pairs) {
    out.push('', `${p.op}  ${stateText(p)}  ${p.gating ? 'GATE' : 'work items'}  → ${p.verdict}`, `  ${countersText(p)}`);
    out.push(
      textTable(
        ['shape', 'native µs', 'generated µs', 'speedup median [min–max]', 'verdict', 'generated: rate %peak bottleneck', 'note'],
        p.shapes.map((s) => [
          s.shape,
          fmtUs(s.nativeMedianNs),
          fmtUs(s.generatedMedianNs),
          speedupText(s),
          verdictText(s.verdict, s.effectFloor, r.settings.tolerance),
          compactMetrics(s.generatedMetrics),
          s.fallback ? `${s.fallback.code}${s.fallback.declared ? ' (declared)' : ' (UNDECLARED)'}` : [s.note, s.effectFloor !== undefined && s.speedupMedian !== null ? `floor ${(100 * s.effectFloor).toFixed(1)}%` : null, s.remeasuredPasses ? `${s.remeasuredPasses} pass(es) re-measured` : null, s.passes !== undefined ? `${s.passes} passes (auto)` : null].filter(Boolean).join('; '),
        ]),
      )
        .split('\n')
        .map((l) => `  ${l}`)
        .join('\n'),
    );
    const users = p.shapes.flatMap((s) => (s.users ?? []).map((u) => ({ s, u })));
    if (users.length) {
      out.push('  user kernels (speedup = native ÷ user, same alternating passes):');
      out.push(
        textTable(
          ['shape', 'kernel', 'user µs', 'speedup median [min–max]', 'verdict', 'user: rate %peak bottleneck', 'note'],
          users.map(({ s, u }) => [s.shape, u.kernel.id, fmtUs(u.medianNs), speedupText(u), u.verdict, compactMetrics(u.metrics), u.refusal ? `${u.refusal.code}: ${u.refusal.reason}` : (u.note ?? '')]),
        )
          .split('\n')
          .map((l) => `    ${l}`)
          .join('\n'),
      );
      for (const k of new Map(users.map(({ u }) => [u.kernel.id, u.kernel])).values()) out.push(`    ${k.id}: ${userKernelHashes(k)}`);
    }
    out.push('  promotion checklist:');
    for (const c of p.checklist) out.push(`    [${c.pass ? 'x' : ' '}] ${c.title}: ${c.evidence}`);
  }
  out.push('', `lane ${r.green ? 'GREEN' : 'FAILED'} in ${(r.durationMs / 1000).toFixed(1)} s`);
  return out.join('\n');
}
