// `lab formats`: every weight format (or --format a,b,…) of one op through Level 1 — checked
// against the oracle of the dequantized weights, then timed — one row each, fastest first, with
// the quantization error beside the time (src/core/report/formats.ts). A format that cannot run
// here (a K its block does not divide, a feature the adapter lacks, a wrong output) is a row with
// the reason. Registered in main.ts; the runtime, output and option parsing come from there.
import { writeFileSync } from 'node:fs';
import { adapterName } from '../core/adapter';
import { FORMATS_SEED, formatError, formatsMarkdown, formatsText, planFormats, sortFormatRows, WEIGHT_DISTRIBUTION, type FormatRow, type FormatsReport } from '../core/report/formats';
import type { LabApi } from '../worker/api';
import { UsageError } from '../core/errors';
import { hasIntegerBlockDecode } from '../core/quant/block-wgsl';
import type { AdapterDescriptor } from '../core/adapter';
import { CODE_HASH, LAB_VERSION, RESULT_SCHEMA_VERSION } from '../core/report/json';

export const FORMATS_HELP = `  formats [--op gemv|gemm|dequant|get_rows] [--shape DIMS] [--format a,b,…] [--native]
          [--mmvq] [--min-runs N] [--json FILE|-] [--markdown FILE]
                              one row per weight format (ggml q4_0…q6_k, mxfp4, the Track-1
                              set; f32/f16 for gemv/gemm): bits/weight, median µs [p20–p80],
                              GB/s of the weights as stored, GFLOP/s, %BW, %FLOP, bottleneck,
                              NMSE and max relative error vs the f32 weights; fastest first.
                              Shapes: gemv/gemm MxNxK (gemv N ≤ 8), dequant KxROWS, get_rows
                              KxTABLEROWSxNIDX. Unknown formats exit 2 listing the known ones.
                              --mmvq (gemv): a second row for each integer block format (q4_0…q8_0),
                              ggml's MMVQ — activations to q8_1, then dot4I8Packed — timed as the
                              sum of both passes
`;

export interface FormatsDeps {
  parse(argv: string[], options: Record<string, { type: 'string' | 'boolean' }>): Record<string, unknown>;
  openRuntime(runtime: string): Promise<LabApi & { close(): Promise<void> }>;
  output(json: string | undefined): { text(s: string): void; json(v: unknown): void };
}

export async function cmdFormats(argv: string[], deps: FormatsDeps): Promise<number> {
  const v = deps.parse(argv, { op: { type: 'string' }, shape: { type: 'string' }, format: { type: 'string' }, native: { type: 'boolean' }, mmvq: { type: 'boolean' }, 'min-runs': { type: 'string' }, markdown: { type: 'string' } });
  const plan = planFormats(v.op as string | undefined, v.shape as string | undefined, v.format as string | undefined); // usage errors before any device work
  if (v.mmvq && plan.op !== 'gemv') throw new UsageError(`--mmvq: the integer-dot schedule is a GEMV's (--op gemv), not ${plan.op}'s`);
  const minRuns = v['min-runs'] === undefined ? undefined : Number(v['min-runs']);
  const out = deps.output(v.json as string | undefined);
  const lab = await deps.openRuntime(v.runtime as string);
  try {
    const adapter = await lab.adapter();
    const startedAt = new Date().toISOString();
    const rows: FormatRow[] = [];
    // Each case once with the registry's pick (or native); with --mmvq the integer block formats again on the mmvq schedule.
    const runs = plan.cases.flatMap((c) => [{ c, variant: v.native ? ({ kind: 'native' } as const) : ({ kind: 'auto' } as const) }, ...(v.mmvq && !c.problem && c.id > 1 && hasIntegerBlockDecode(c.id) ? [{ c, variant: { kind: 'schedule' as const, schedule: mmvqScheduleFor(adapter) } }] : [])]);
    for (const { c, variant } of runs) {
      const base = { format: c.name, bitsPerWeight: c.bitsPerWeight, weightBytes: c.weightBytes };
      const err = formatError(plan, c);
      const errCols = { nmse: err?.nmse ?? null, maxRelError: err?.maxRelError ?? null };
      const empty = { variant: null, scheduleKey: null, correct: null, medianNs: null, p20Ns: null, p80Ns: null, weightGBps: null, gflops: null, pctPeakBw: null, pctPeakFlops: null, bottleneck: null };
      if (c.problem) {
        rows.push({ ...base, ...empty, ...errCols, reason: c.problem });
        continue;
      }
      process.stderr.write(`formats: ${plan.op} ${c.name}${variant.kind === 'schedule' ? ' (mmvq)' : ''}…\n`);
      try {
        const r = await lab.time({ op: plan.ggmlOp, dims: [...plan.dims], params: c.params, variant, seed: FORMATS_SEED, timing: { minRuns } });
        const t = r.timing;
        rows.push({
          ...base,
          ...errCols,
          variant: r.variant + (r.fallback ? ` (fallback: ${r.fallback.code})` : ''),
          scheduleKey: r.scheduleKey,
          correct: r.correct,
          medianNs: r.correct && t ? t.medianNs : null,
          p20Ns: t?.p20Ns ?? null,
          p80Ns: t?.p80Ns ?? null,
          weightGBps: r.correct && t ? c.weightBytes / t.medianNs : null, // bytes per ns = GB/s
          gflops: r.metrics?.gflops ?? null,
          pctPeakBw: r.metrics?.pctPeakBw ?? null,
          pctPeakFlops: r.metrics?.pctPeakFlops ?? null,
          bottleneck: r.metrics?.bottleneck ?? null,
          reason: r.correct ? null : `wrong: maxErr ${r.maxErr.toExponential(2)} over bound ${r.bound.toExponential(2)}`,
        });
      } catch (e) {
        // A feature the adapter lacks, a device refusal: the format's row says so; the rest run.
        rows.push({ ...base, ...empty, ...errCols, reason: `${(e as Error).name}: ${(e as Error).message}` });
      }
    }
    const report: FormatsReport = { kind: 'formats', op: plan.op, ggmlOp: plan.ggmlOp, shape: plan.dims.join('x'), adapter: adapterName(adapter), distribution: WEIGHT_DISTRIBUTION, rows: sortFormatRows(rows), adapterDescriptor: adapter, schemaVersion: RESULT_SCHEMA_VERSION, labVersion: LAB_VERSION, codeHash: CODE_HASH, startedAt };
    out.text(formatsText(report));
    out.json(report);
    if (v.markdown) writeFileSync(v.markdown as string, formatsMarkdown(report));
    return rows.some((r) => r.correct === false) ? 1 : 0;
  } finally {
    await lab.close();
  }
}

/** The mmvq schedule `--mmvq` runs: 4 rows × 64 threads per workgroup, subgroup reduction where offered. */
export function mmvqScheduleFor(adapter: Pick<AdapterDescriptor, 'features'>) {
  return { family: 'mmvq', workgroupSize: 256, rowsPerWorkgroup: 4, reduction: adapter.features.includes('subgroups') ? 'subgroup' : 'shared' } as const;
}

