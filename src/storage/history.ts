// What the History view shows of stored runs, computed from the records alone (pure): a line
// per run, the (op, shape) keys, and the series over time for one (op, shape) — each point from
// inside one run (a speedup never leaves its run), stale points marked.
import { fmtRatio, fmtUs } from '../core/report/format';
import { formatRowKey } from '../core/report/formats';
import type { RunRecord } from './db';
import { isStale } from './runs';

export type Tone = 'good' | 'bad' | 'neutral';

export interface RunSummary {
  /** "ADD 256x16 inplace · generated", "lane · ADD, MUL_MAT · 17 shapes". */
  readonly what: string;
  readonly verdict: string;
  readonly tone: Tone;
  /** The run's headline number(s), with units. */
  readonly headline: string;
}

function requestText(request: unknown): string {
  if (!request || typeof request !== 'object') return '';
  const r = request as { op?: unknown; ops?: unknown; dims?: unknown };
  const op = typeof r.op === 'string' ? r.op : Array.isArray(r.ops) ? r.ops.join(', ') : '';
  const dims = Array.isArray(r.dims) ? r.dims.join('x') : '';
  return [op, dims].filter(Boolean).join(' ');
}

export function runSummary(r: RunRecord): RunSummary {
  const res = r.result;
  if (!res) {
    const asked = requestText(r.request);
    return { what: `${r.kind}${asked ? ` · ${asked}` : ''}`, verdict: 'failed', tone: 'bad', headline: `${r.error?.name ?? 'Error'}: ${(r.error?.message ?? '').split('\n')[0]}` };
  }
  switch (res.kind) {
    case 'level1':
      return {
        what: `${res.op} ${res.label ?? res.shape} · ${res.variant}`,
        verdict: res.watchdog ? 'too-slow' : res.correct ? 'correct' : 'WRONG',
        tone: res.correct && !res.watchdog ? 'good' : 'bad',
        headline: res.timing ? `${fmtUs(res.timing.medianNs, 2)} µs [${fmtUs(res.timing.minNs, 2)}–${fmtUs(res.timing.maxNs, 2)}]` : res.watchdog ? `ended by the watchdog at ${res.watchdog.boundMs} ms` : res.correct ? 'not timed' : 'never timed (wrong)',
      };
    case 'lane': {
      const shapes = res.pairs.flatMap((p) => p.shapes);
      const counts = new Map<string, number>();
      for (const s of shapes) counts.set(s.verdict, (counts.get(s.verdict) ?? 0) + 1);
      return {
        what: `lane · ${res.pairs.map((p) => p.op).join(', ')} · ${shapes.length} shape${shapes.length === 1 ? '' : 's'}`,
        verdict: res.green ? 'green' : 'FAILED',
        tone: res.green ? 'good' : 'bad',
        headline: [...counts].map(([v, n]) => `${v} ${n}`).join(', '),
      };
    }
    case 'sweep': {
      const accepted = res.candidates.filter((c) => c.status === 'accepted').length;
      return { what: `sweep ${res.op} · ${res.candidates.length} candidates`, verdict: `${accepted} accepted`, tone: 'neutral', headline: `${res.proposal.length} rule${res.proposal.length === 1 ? '' : 's'} proposed` };
    }
    case 'formats': {
      const wrong = res.rows.filter((x) => x.correct === false).length;
      const fastest = res.rows.find((x) => x.medianNs !== null);
      return {
        what: `formats ${res.op} · ${res.ggmlOp} ${res.shape} · ${res.rows.length} format${res.rows.length === 1 ? '' : 's'}`,
        verdict: wrong ? `${wrong} WRONG` : `${res.rows.filter((x) => x.medianNs !== null).length} timed`,
        tone: wrong ? 'bad' : 'neutral',
        headline: fastest ? `fastest ${fastest.format} ${fmtUs(fastest.medianNs, 2)} µs` : 'none timed',
      };
    }
    case 'calibration':
      return { what: 'calibration', verdict: 'measured', tone: 'neutral', headline: `${fmtRatio(res.copyGBps, 1)} GB/s · ${fmtRatio(res.f32Gflops, 1)} GFLOP/s f32` };
  }
}

/**
 * The (op, shape) keys of the runs, the most recently measured first; keys of one run keep the
 * order it measured them in, so History opens on the latest run's first shape.
 */
export function opShapeKeys(runs: readonly RunRecord[]): string[] {
  const last = new Map<string, { savedAt: string; index: number }>();
  for (const r of runs)
    r.opShapes.forEach((k, index) => {
      if ((last.get(k)?.savedAt ?? '') < r.savedAt) last.set(k, { savedAt: r.savedAt, index });
    });
  return [...last.keys()].sort((a, b) => {
    const x = last.get(a)!;
    const y = last.get(b)!;
    return x.savedAt !== y.savedAt ? (y.savedAt < x.savedAt ? -1 : 1) : x.index - y.index || a.localeCompare(b);
  });
}

function timeSec(r: RunRecord): number {
  return Date.parse(r.savedAt) / 1000;
}

export interface SpeedupPoint {
  readonly tSec: number;
  readonly runId: number;
  readonly stale: boolean;
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly verdict: string;
}

/** One point per lane run that timed the (op, shape): its own median and min–max, oldest first. */
export function speedupSeries(runs: readonly RunRecord[], key: string): SpeedupPoint[] {
  const out: SpeedupPoint[] = [];
  for (const r of runs) {
    if (r.result?.kind !== 'lane' || !r.opShapes.includes(key)) continue;
    for (const p of r.result.pairs)
      for (const s of p.shapes)
        if (`${p.op} ${s.shape}` === key && s.speedupMedian !== null && s.speedupMin !== null && s.speedupMax !== null)
          out.push({ tSec: timeSec(r), runId: r.id ?? -1, stale: isStale(r), median: s.speedupMedian, min: s.speedupMin, max: s.speedupMax, verdict: s.verdict });
  }
  return out.sort((a, b) => a.tSec - b.tSec);
}

export interface LatencyPoint {
  readonly tSec: number;
  readonly runId: number;
  readonly stale: boolean;
  readonly variant: 'native' | 'generated' | 'user';
  readonly medianNs: number;
}

/** One point per timed Level 1 run (or formats row) of the (op, shape), oldest first: times alone, never ratios. */
export function latencySeries(runs: readonly RunRecord[], key: string): LatencyPoint[] {
  const out: LatencyPoint[] = [];
  for (const r of runs) {
    const res = r.result;
    if (!res || !r.opShapes.includes(key)) continue;
    if (res.kind === 'level1' && res.timing) out.push({ tSec: timeSec(r), runId: r.id ?? -1, stale: isStale(r), variant: res.variant, medianNs: res.timing.medianNs });
    if (res.kind === 'formats') {
      // A formats run timed each format as Level 1 does: its row joins that case's series.
      const row = res.rows.find((x) => x.medianNs !== null && formatRowKey(res, x.format) === key);
      if (row) out.push({ tSec: timeSec(r), runId: r.id ?? -1, stale: isStale(r), variant: row.variant?.startsWith('native') ? 'native' : 'generated', medianNs: row.medianNs! });
    }
  }
  return out.sort((a, b) => a.tSec - b.tSec);
}
