// `bench --only ops`: every op at a llama-7B-sized case (rows of 4096, 4096 rows; vocab 32000
// for the loss), native and generated, in GB/s and % of the bandwidth spec — issue 9's targets:
// generated memory-bound kernels ≥ 70% of the 4.8 TB/s spec (elementwise ≥ 85%), and no
// generated kernel slower than its native. On a software adapter each op's first matrix case
// is timed instead and nothing is judged. Each op declares its bench case (OpDef.bench).
import type { LabApi } from '../core/lab-api';
import { OPS } from '../core/ops/registry';
import type { BenchCase } from '../core/ops/types';
import type { Level1Result } from '../core/results';
import { fmtGBps, fmtNs, textTable } from '../core/report/format';

export const SPEC_BANDWIDTH_GBPS = 4800;

export interface OpsBenchRow {
  readonly op: string;
  readonly family: string;
  readonly shape: string;
  readonly native: Level1Result | null;
  readonly generated: Level1Result | null;
  readonly error: string | null;
  /** 0.85 for elementwise ops, 0.70 for the other memory-bound ones, null for compute-bound ops. */
  readonly targetFraction: number | null;
}

/** `names`: only these ops (ggml names), in the registry's order; undefined: every op. */
export async function runOpsBench(lab: LabApi, full: boolean, onLine: (s: string) => void = () => undefined, names?: readonly string[]): Promise<OpsBenchRow[]> {
  const rows: OpsBenchRow[] = [];
  for (const op of OPS) {
    if (names && !names.includes(op.name)) continue;
    const c: BenchCase = full ? op.bench : op.matrix[0];
    // An op with a flop count (MUL_MAT, OUT_PROD) is judged on compute elsewhere, not on bandwidth.
    const computeBound = op.flops(op.makeCase(c.dims, c.layout, c.params)) !== null;
    const targetFraction = computeBound ? null : op.family === 'elementwise' ? 0.85 : 0.7;
    const run = async (kind: 'native' | 'auto') => lab.time({ op: op.name, dims: [...c.dims], layout: c.layout, params: c.params ? { ...c.params } : undefined, variant: { kind }, timing: { minRuns: 20 } });
    try {
      const native = await run('native');
      const auto = await run('auto');
      rows.push({ op: op.name, family: op.family, shape: native.label, native, generated: auto.variant === 'generated' ? auto : null, error: null, targetFraction });
      onLine(`ops: ${op.name} ${native.label} native ${fmtNs(native.timing?.medianNs ?? null)}, ${auto.variant} ${fmtNs(auto.timing?.medianNs ?? null)}`);
    } catch (e) {
      rows.push({ op: op.name, family: op.family, shape: c.dims.join('x'), native: null, generated: null, error: (e as Error).message, targetFraction });
      onLine(`ops: ${op.name}: ${(e as Error).message}`);
    }
  }
  return rows;
}

export function formatOpsBench(rows: readonly OpsBenchRow[], judged: boolean): string {
  const pct = (r: Level1Result | null) => (r?.metrics ? `${((100 * r.metrics.gbps) / SPEC_BANDWIDTH_GBPS).toFixed(0)}%` : '—');
  const table = textTable(
    ['op', 'family', 'shape', 'native', 'native GB/s', 'generated', 'generated GB/s', '% of 4.8 TB/s', 'gen ÷ native', 'target', 'verdict'],
    rows.map((r) => {
      const n = r.native?.timing?.medianNs ?? null;
      const g = r.generated?.timing?.medianNs ?? null;
      const ratio = n !== null && g !== null ? n / g : null;
      const bwOk = r.targetFraction === null || (r.generated?.metrics?.gbps ?? 0) >= r.targetFraction * SPEC_BANDWIDTH_GBPS;
      const verdict = r.error ? `ERROR: ${r.error}` : !r.native?.correct || (r.generated && !r.generated.correct) ? 'WRONG' : !judged ? '—' : r.generated === null ? 'native only' : bwOk && ratio !== null && ratio >= 0.95 ? 'pass' : 'FAIL';
      return [
        r.op,
        r.family,
        r.shape,
        fmtNs(n),
        fmtGBps(r.native?.metrics?.gbps ?? null),
        fmtNs(g),
        fmtGBps(r.generated?.metrics?.gbps ?? null),
        pct(r.generated),
        ratio === null ? '—' : `${ratio.toFixed(2)}×`,
        r.targetFraction === null ? 'not slower' : `≥ ${100 * r.targetFraction}% BW, not slower`,
        verdict,
      ];
    }),
  );
  return `ops at llama-sized cases — generated vs native, Level 1 medians (GB/s of the bytes each op must move)\n${table}`;
}
