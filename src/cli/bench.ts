// `npm run bench`: the engine's performance targets, measured and printed as a table. Each
// number is a median over many timestamped runs; a target is checked only on hardware.
import { adapterName, type AdapterDescriptor } from '../core/adapter';
import { fmtGBps, fmtGflops, fmtNs, textTable } from '../core/report/format';
import type { Level1Request, Level1Result } from '../gpu/level1';
import type { LabApi } from '../worker/api';

export type BenchSize = 'full' | 'small';

interface BenchItem {
  readonly id: string;
  readonly title: string;
  /** Shapes: the (full) and one a software adapter finishes quickly (small). */
  readonly dims: Readonly<Record<BenchSize, number[]>>;
  readonly op: string;
  /** What the item reports and how it is judged. */
  readonly kind: 'bandwidth' | 'flops' | 'stability';
  /** bandwidth: fraction of this GB/s; flops: GFLOP/s floor; stability: max relative spread. */
  readonly target: { readonly value: number; readonly text: string };
}

export const BENCH_ITEMS: readonly BenchItem[] = [
  {
    id: 'add-64m',
    title: 'ADD f32',
    op: 'ADD',
    dims: { full: [8192, 8192], small: [1024, 256] },
    kind: 'bandwidth',
    // 85% of the H200's 4.8 TB/s HBM3e spec.
    target: { value: 0.85 * 4800, text: '≥ 85% of 4.8 TB/s' },
  },
  {
    id: 'mul-mat-4096',
    title: 'MUL_MAT f32',
    op: 'MUL_MAT',
    dims: { full: [4096, 4096, 4096], small: [256, 256, 256] },
    kind: 'flops',
    // TensorFlow.js's WebGPU backend reaches 23.1 TFLOP/s on the same stack: beat it.
    target: { value: 25_000, text: '≥ 25 TFLOP/s' },
  },
  {
    id: 'rms-norm-stability',
    title: 'RMS_NORM, 5 time() calls',
    op: 'RMS_NORM',
    dims: { full: [4096, 4096], small: [1024, 256] },
    kind: 'stability',
    target: { value: 0.03, text: 'medians within 3%' },
  },
];

export interface BenchRow {
  readonly id: string;
  readonly title: string;
  readonly variant: Level1Result['variant'];
  readonly shape: string;
  readonly scheduleKey: string | null;
  readonly correct: boolean;
  readonly medianNs: number | null;
  readonly minNs: number | null;
  readonly maxNs: number | null;
  readonly runs: number;
  readonly resolutionNs: number | null;
  /** GB/s for bandwidth items, GFLOP/s for flops items, relative spread for stability. */
  readonly value: number | null;
  readonly valueText: string;
  readonly target: string;
  /** null when not judged (software adapter, or the native reference row). */
  readonly pass: boolean | null;
  /** Medians of the repeated calls (stability items). */
  readonly mediansNs?: readonly number[];
}

export interface BenchReport {
  readonly kind: 'bench';
  readonly date: string;
  readonly size: BenchSize;
  readonly adapter: AdapterDescriptor;
  readonly rows: readonly BenchRow[];
}

function row(item: BenchItem, r: Level1Result, value: number | null, valueText: string, judged: boolean, pass: boolean): BenchRow {
  return {
    id: item.id,
    title: item.title,
    variant: r.variant,
    shape: r.shape,
    scheduleKey: r.scheduleKey,
    correct: r.correct,
    medianNs: r.timing?.medianNs ?? null,
    minNs: r.timing?.minNs ?? null,
    maxNs: r.timing?.maxNs ?? null,
    runs: r.timing?.runs ?? 0,
    resolutionNs: r.timing?.resolutionNs ?? null,
    value,
    valueText,
    target: item.target.text,
    pass: judged ? pass && r.correct : null,
  };
}

export async function runBench(lab: LabApi, size: BenchSize, onLine: (s: string) => void, only?: string): Promise<BenchReport> {
  const adapter = await lab.adapter();
  const judged = !adapter.isFallbackAdapter && size === 'full';
  const rows: BenchRow[] = [];
  for (const item of BENCH_ITEMS.filter((i) => !only || i.id === only)) {
    const base: Level1Request = { op: item.op, dims: item.dims[size], variant: { kind: 'auto' }, timing: { minRuns: 100 } };
    if (item.kind === 'stability') {
      const results: Level1Result[] = [];
      for (let i = 0; i < 5; i++) results.push(await lab.time(base));
      const medians = results.map((r) => r.timing?.medianNs ?? NaN);
      const spread = (Math.max(...medians) - Math.min(...medians)) / Math.min(...medians);
      const last = results[results.length - 1];
      rows.push({
        ...row(item, last, spread, `spread ${(spread * 100).toFixed(2)}% (${medians.map((m) => fmtNs(m)).join(', ')})`, judged, spread <= item.target.value && results.every((r) => r.correct)),
        mediansNs: medians,
      });
      onLine(`${item.title}: ${rows[rows.length - 1].valueText}`);
      continue;
    }
    for (const variant of [{ kind: 'auto' }, { kind: 'native' }] as const) {
      const r = await lab.time({ ...base, variant });
      const generated = r.variant === 'generated';
      if (item.kind === 'bandwidth') {
        const v = r.metrics?.gbps ?? null;
        const text = v === null ? '—' : `${fmtGBps(v)} (${((v / 4800) * 100).toFixed(v < 48 ? 2 : 0)}% of 4.8 TB/s)`;
        rows.push(row(item, r, v, text, judged && generated, v !== null && v >= item.target.value));
      } else {
        const v = r.metrics?.gflops ?? null;
        const text = fmtGflops(v);
        rows.push(row(item, r, v, text, judged && generated, v !== null && v >= item.target.value));
      }
      onLine(`${item.title} ${r.variant}: ${rows[rows.length - 1].valueText}`);
    }
  }
  return { kind: 'bench', date: new Date().toISOString(), size, adapter, rows };
}

export function formatBench(report: BenchReport): string {
  const header = `kernel-lab bench — ${report.date.slice(0, 10)} — ${adapterName(report.adapter)}${report.adapter.isFallbackAdapter ? '\n(software adapter: these are CPU numbers, targets not judged)' : ''}`;
  const table = textTable(
    ['bench', 'variant', 'shape', 'median', 'min–max', 'runs', 'result', 'target', 'verdict'],
    report.rows.map((r) => [
      r.title,
      r.variant,
      r.shape,
      fmtNs(r.medianNs),
      `${fmtNs(r.minNs)}–${fmtNs(r.maxNs)}`,
      String(r.runs),
      r.valueText,
      r.variant === 'generated' ? r.target : '(reference)',
      !r.correct ? 'WRONG' : r.pass === null ? '—' : r.pass ? 'pass' : 'FAIL',
    ]),
  );
  return `${header}\n${table}\nTimes: GPU timestamps, serialized latency (one compute pass per run), median over runs; resolution ${fmtNs(report.rows[0]?.resolutionNs ?? null)}.`;
}
