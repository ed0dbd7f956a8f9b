// `npm run bench`: the engine's performance targets, measured and printed as a table. Each
// number is a median over many timestamped runs; a target is checked only on hardware.
import type { PeerTiming } from './peer-tfjs';
import { adapterName, type AdapterDescriptor } from '../core/adapter';
import { fmtGBps, fmtGflops, fmtNs, textTable } from '../core/report/format';
import type { Level1Request, Level1Result } from '../gpu/level1';
import type { LabApi } from '../worker/api';

export type BenchSize = 'full' | 'small';

interface BenchItem {
  readonly id: string;
  readonly title: string;
  /** Shapes: the issue's (full) and one a software adapter finishes quickly (small). */
  readonly dims: Readonly<Record<BenchSize, number[]>>;
  readonly op: string;
  readonly params?: Readonly<Record<string, number>>;
  /**
   * What the item reports and how it is judged: bandwidth (GB/s of all bytes vs a GB/s floor),
   * weights (GB/s of src0 alone: GEMV), copyShare (weights GB/s vs a fraction of the measured
   * copy), latency (median vs a ceiling in ns), flops (GFLOP/s floor), stability (max spread).
   */
  readonly kind: 'bandwidth' | 'weights' | 'copyShare' | 'latency' | 'flops' | 'stability';
  readonly target: { readonly value: number; readonly text: string };
  /** Print the subgroup-matrix ceiling (calibration's register-only MMA loop) beside it. */
  readonly mmaCeiling?: boolean;
}

const F16 = { type0: 1, type1: 1 } as const;

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
  { id: 'gemv-4096', title: 'GEMV f32 (weights TB/s)', op: 'MUL_MAT', dims: { full: [4096, 1, 4096], small: [1024, 1, 1024] }, kind: 'weights', target: { value: 3000, text: '≥ 3.0 TB/s of weights' } },
  { id: 'gemv-16384', title: 'GEMV f32 (weights TB/s)', op: 'MUL_MAT', dims: { full: [16384, 1, 16384], small: [2048, 1, 512] }, kind: 'copyShare', target: { value: 0.85, text: '≥ 85% of measured copy' } },
  { id: 'gemv-4096x8', title: 'MUL_MAT N=8 f32', op: 'MUL_MAT', dims: { full: [4096, 8, 4096], small: [512, 8, 512] }, kind: 'latency', target: { value: 60_000, text: '≤ 60 µs' } },
  { id: 'sgmatrix-4096', title: 'MUL_MAT f16×f16→f32', op: 'MUL_MAT', params: F16, dims: { full: [4096, 4096, 4096], small: [256, 128, 256] }, kind: 'flops', target: { value: 250_000, text: '≥ 250 TFLOP/s' }, mmaCeiling: true },
  { id: 'sgmatrix-4096x512', title: 'MUL_MAT f16×f16→f32', op: 'MUL_MAT', params: F16, dims: { full: [4096, 512, 4096], small: [256, 64, 256] }, kind: 'flops', target: { value: 150_000, text: '≥ 150 TFLOP/s' }, mmaCeiling: true },
  { id: 'f16w-4096', title: 'MUL_MAT f16 weights × f32', op: 'MUL_MAT', params: { type0: 1 }, dims: { full: [4096, 4096, 4096], small: [256, 128, 256] }, kind: 'flops', target: { value: 150_000, text: '≥ 150 TFLOP/s' }, mmaCeiling: true },
  { id: 'mul-mat-4096', title: 'MUL_MAT f32', op: 'MUL_MAT', dims: { full: [4096, 4096, 4096], small: [256, 256, 256] }, kind: 'flops', target: { value: 45_000, text: '≥ 45 TFLOP/s' } },
  { id: 'mul-mat-4096x512', title: 'MUL_MAT f32', op: 'MUL_MAT', dims: { full: [4096, 512, 4096], small: [256, 64, 256] }, kind: 'flops', target: { value: 35_000, text: '≥ 35 TFLOP/s' } },
  {
    id: 'rms-norm-stability',
    title: 'RMS_NORM, 5 time() calls',
    op: 'RMS_NORM',
    dims: { full: [4096, 4096], small: [1024, 256] },
    kind: 'stability',
    target: { value: 0.03, text: 'medians within 3%' },
  },
];

/** A peer library timed on the same shapes in the same process (bench --peer). */
export interface BenchPeer {
  readonly name: string;
  /** null: the peer has no such operation (e.g. f16 MUL_MAT); the row says so. */
  time(item: { op: string; dims: readonly number[]; params?: Readonly<Record<string, number>> }): Promise<PeerTimingRow | null>;
}

/** What a peer's timing of one item gives (peer-tfjs.ts defines it; a type import, so the
 * optional peer stays out of the main bundle). */
export type PeerTimingRow = PeerTiming;

export interface BenchRow {
  readonly id: string;
  readonly title: string;
  /** 'generated' and 'native' are the lab's; a peer row names the peer. */
  readonly variant: string;
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
  /** This row's median over the generated row's (native and peer rows): > 1 means generated is faster. */
  readonly vsGenerated?: number | null;
}

export interface BenchReport {
  readonly kind: 'bench';
  readonly date: string;
  readonly size: BenchSize;
  readonly adapter: AdapterDescriptor;
  readonly rows: readonly BenchRow[];
  /** Calibration's register-only subgroup-matrix loop per config, GFLOP/s, when measured. */
  readonly mmaCeilingGflops?: Readonly<Record<string, number>>;
  /** How peers were timed. */
  readonly peerMethod?: string;
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

export async function runBench(lab: LabApi, size: BenchSize, onLine: (s: string) => void, only?: readonly string[], peer?: BenchPeer): Promise<BenchReport> {
  const adapter = await lab.adapter();
  const judged = !adapter.isFallbackAdapter && size === 'full';
  const rows: BenchRow[] = [];
  const items = BENCH_ITEMS.filter((i) => !only?.length || only.includes(i.id));
  // The copy share and the MMA ceiling need the calibration: measured once, when an item asks.
  const needsCalibration = items.some((i) => i.kind === 'copyShare' || (i.mmaCeiling && adapter.features.includes('chromium-experimental-subgroup-matrix')));
  const calibration = needsCalibration ? await lab.calibrate() : null;
  let peerMethod: string | undefined;
  for (const item of items) {
    const base: Level1Request = { op: item.op, dims: item.dims[size], ...(item.params ? { params: { ...item.params } } : {}), variant: { kind: 'auto' }, timing: { minRuns: 100 } };
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
    let generatedNs: number | null = null;
    for (const variant of [{ kind: 'auto' }, { kind: 'native' }] as const) {
      const r = await lab.time({ ...base, variant });
      const generated = r.variant === 'generated' && variant.kind === 'auto';
      const ns = r.timing?.medianNs ?? null;
      if (variant.kind === 'auto') generatedNs = generated ? ns : null;
      const judgedHere = judged && generated;
      const { value, text, pass } = judge(item, size, r, ns, calibration?.copyGBps ?? null);
      const fellBack = variant.kind === 'auto' && !generated && r.fallback ? ` [auto ran native: ${r.fallback.code}]` : '';
      rows.push({ ...row(item, r, value, text + fellBack, judgedHere, pass), vsGenerated: variant.kind === 'native' && generatedNs && ns ? ns / generatedNs : null });
      onLine(`${item.title} ${r.variant}: ${rows[rows.length - 1].valueText}`);
    }
    if (peer && item.op === 'MUL_MAT') {
      const shape = rows[rows.length - 1].shape;
      const p = await peer.time({ op: item.op, dims: item.dims[size], params: item.params }).catch((e: Error) => e);
      if (p instanceof Error || p === null) {
        const why = p === null ? `${peer.name} has no such operation (f16 MUL_MAT)` : `${peer.name} failed: ${p.message.split('\n')[0]}`;
        rows.push({ id: item.id, title: item.title, variant: peer.name, shape, scheduleKey: null, correct: true, medianNs: null, minNs: null, maxNs: null, runs: 0, resolutionNs: null, value: null, valueText: why, target: item.target.text, pass: null, vsGenerated: null });
      } else {
        peerMethod = p.method;
        const fake = { timing: { medianNs: p.medianNs }, metrics: null } as unknown as Level1Result;
        const { value, text } = judge(item, size, fake, p.medianNs, calibration?.copyGBps ?? null, peerMetrics(item, size, p.medianNs));
        const ok = p.maxRelErr <= 1e-3;
        rows.push({
          id: item.id, title: item.title, variant: p.peer, shape, scheduleKey: null, correct: ok,
          medianNs: p.medianNs, minNs: p.minNs, maxNs: p.maxNs, runs: p.runs, resolutionNs: null,
          value, valueText: `${text} (max rel. err ${p.maxRelErr.toExponential(1)})`, target: item.target.text, pass: null,
          vsGenerated: generatedNs ? p.medianNs / generatedNs : null,
        });
      }
      onLine(`${item.title} ${peer.name}: ${rows[rows.length - 1].valueText}`);
    }
  }
  return { kind: 'bench', date: new Date().toISOString(), size, adapter, rows, ...(calibration?.mmaGflops ? { mmaCeilingGflops: calibration.mmaGflops } : {}), ...(peerMethod ? { peerMethod } : {}) };
}

/** Bytes and flops of a MUL_MAT item from its dims and params (the peer has no Level1Result). */
function peerMetrics(item: BenchItem, size: BenchSize, medianNs: number): { gbps: number; gflops: number; weightsGBps: number } {
  const [M, N, K] = item.dims[size];
  const s0 = item.params?.type0 === 1 ? 2 : 4;
  const s1 = item.params?.type1 === 1 ? 2 : 4;
  return { gbps: (M * K * s0 + N * K * s1 + M * N * 4) / medianNs, gflops: (2 * M * N * K) / medianNs, weightsGBps: (M * K * s0) / medianNs };
}

/** The item's number, its text and whether it meets the target. */
function judge(item: BenchItem, size: BenchSize, r: Level1Result, ns: number | null, copyGBps: number | null, peer?: { gbps: number; gflops: number; weightsGBps: number }): { value: number | null; text: string; pass: boolean } {
  // GEMV's bytes are its weights (src0): the vector and the output are < 0.1% of them.
  const weights = (): number | null => (ns === null ? null : peerMetrics(item, size, ns).weightsGBps);
  switch (item.kind) {
    case 'bandwidth': {
      const v = peer?.gbps ?? r.metrics?.gbps ?? null;
      return { value: v, text: v === null ? '—' : `${fmtGBps(v)} (${((v / 4800) * 100).toFixed(v < 48 ? 2 : 0)}% of 4.8 TB/s)`, pass: v !== null && v >= item.target.value };
    }
    case 'weights': {
      const v = weights();
      return { value: v, text: v === null ? '—' : `${fmtGBps(v)} of weights`, pass: v !== null && v >= item.target.value };
    }
    case 'copyShare': {
      const v = weights();
      const share = v !== null && copyGBps ? v / copyGBps : null;
      return { value: v, text: v === null ? '—' : `${fmtGBps(v)} of weights${share !== null ? ` (${(share * 100).toFixed(0)}% of copy ${fmtGBps(copyGBps)})` : ''}`, pass: share !== null && share >= item.target.value };
    }
    case 'latency':
      return { value: ns, text: ns === null ? '—' : `${fmtNs(ns)} (${fmtGflops(peer?.gflops ?? r.metrics?.gflops ?? null)})`, pass: ns !== null && ns <= item.target.value };
    default: {
      const v = peer?.gflops ?? r.metrics?.gflops ?? null;
      return { value: v, text: fmtGflops(v), pass: v !== null && v >= item.target.value };
    }
  }
}

export function formatBench(report: BenchReport): string {
  const header = `kernel-lab bench — ${report.date.slice(0, 10)} — ${adapterName(report.adapter)}${report.adapter.isFallbackAdapter ? '\n(software adapter: these are CPU numbers, targets not judged)' : ''}`;
  const table = textTable(
    ['bench', 'variant', 'shape', 'median', 'min–max', 'runs', 'result', '÷ generated', 'target', 'verdict'],
    report.rows.map((r) => [
      r.title,
      r.variant,
      r.shape,
      fmtNs(r.medianNs),
      `${fmtNs(r.minNs)}–${fmtNs(r.maxNs)}`,
      String(r.runs),
      r.valueText,
      r.vsGenerated ? `${r.vsGenerated.toFixed(2)}×` : '',
      r.variant === 'generated' ? r.target : '(reference)',
      !r.correct ? 'WRONG' : r.pass === null ? '—' : r.pass ? 'pass' : 'FAIL',
    ]),
  );
  const ceiling = report.mmaCeilingGflops
    ? `\nSubgroup-matrix ceiling (register-only subgroupMatrixMultiplyAccumulate loop, f16→f32): ${Object.entries(report.mmaCeilingGflops).map(([c, g]) => `${c} ${fmtGflops(g)}`).join(', ')}.`
    : '';
  const peer = report.peerMethod ? `\nPeer timing: ${report.peerMethod}; same process, same Dawn GPU object, its own device; inputs uniform in [-1, 1), f32.` : '';
  return `${header}\n${table}\nTimes: GPU timestamps, serialized latency (one compute pass per run), median over runs; resolution ${fmtNs(report.rows[0]?.resolutionNs ?? null)}. "÷ generated": the row's median over the generated row's (> 1: generated is faster).${ceiling}${peer}`;
}
