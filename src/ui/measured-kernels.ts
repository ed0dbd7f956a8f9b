// Results → the session's measured kernels: every timed kernel with metrics, one entry each.
import { adapterFingerprint } from '../core/adapter';
import type { ResultJson } from '../core/report/json';
import type { LaneRecord, Level1Record, SweepRecord } from '../core/schema/results';
import type { MeasuredKernel } from './session-results';

/** A Level 1 result, fresh from the worker or as its JSON (which may lack the label). */
type Level1Like = Pick<Level1Record, 'op' | 'shape' | 'variant' | 'scheduleKey' | 'metrics' | 'adapter' | 'label'>;

export function level1Kernels(r: Level1Like): MeasuredKernel[] {
  if (!r.metrics) return [];
  return [{ source: 'level1', op: r.op, shape: r.label ?? r.shape, variant: r.scheduleKey ?? r.variant, metrics: r.metrics, adapterFingerprint: adapterFingerprint(r.adapter) }];
}

/** A lane result or its JSON: the fields the roofline reads. */
type LaneLike = Pick<LaneRecord, 'adapter' | 'pairs'>;
type SweepLike = Pick<SweepRecord, 'adapter' | 'op' | 'candidates'>;

export function laneKernels(r: LaneLike): MeasuredKernel[] {
  const fp = adapterFingerprint(r.adapter);
  const out: MeasuredKernel[] = [];
  for (const p of r.pairs) {
    for (const s of p.shapes) {
      if (s.nativeMetrics) out.push({ source: 'lane', op: p.op, shape: s.shape, variant: 'native', metrics: s.nativeMetrics, adapterFingerprint: fp });
      if (s.generatedMetrics) out.push({ source: 'lane', op: p.op, shape: s.shape, variant: s.scheduleKey ?? 'generated', metrics: s.generatedMetrics, adapterFingerprint: fp });
    }
  }
  return out;
}

export function sweepKernels(r: SweepLike): MeasuredKernel[] {
  const fp = adapterFingerprint(r.adapter);
  return r.candidates.flatMap((c) => c.shapes.flatMap((cell) => (cell.metrics ? [{ source: 'sweep' as const, op: r.op, shape: cell.shape, variant: c.key, metrics: cell.metrics, adapterFingerprint: fp }] : [])));
}

/** A stored run's kernels (what History keeps): the roofline shows them beside this session's. */
export function storedKernels(r: ResultJson): MeasuredKernel[] {
  if (r.kind === 'level1') return level1Kernels(r);
  if (r.kind === 'lane') return laneKernels(r);
  if (r.kind === 'sweep') return sweepKernels(r);
  return [];
}

/** One entry per kernel measurement: a session run is stored too, and must not count twice. */
export function distinctKernels(kernels: readonly MeasuredKernel[]): MeasuredKernel[] {
  const seen = new Set<string>();
  return kernels.filter((k) => {
    const id = `${k.source}|${k.op}|${k.shape}|${k.variant}|${k.metrics.latencyMedianUs}|${k.adapterFingerprint}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
