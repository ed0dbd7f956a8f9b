// `lab formats`: every weight format (or --format a,b,…) of one op through Level 1 — checked
// against the oracle of the dequantized weights, then timed — one row each, fastest first, with
// the quantization error beside the time. The run is the engine's (src/gpu/formats.ts, LabApi
// formats), the same one the page's Formats view calls; the tables are src/core/report/formats.ts.
// Registered in main.ts; the runtime, output and option parsing come from there.
import { writeFileSync } from 'node:fs';
import { formatsText, planFormatsRequest } from '../core/report/formats';
import { formatsMarkdown } from '../core/report/markdown';
import type { LabApi } from '../worker/api';
import { countDeclaration, countOption, type CountDeclaration } from '../core/input/counts';

export const FORMATS_HELP = `  formats [--op gemv|gemm|dequant|get_rows] [--shape DIMS] [--format a,b,…] [--native]
          [--mmvq] [--min-runs N] [--json FILE|-] [--markdown FILE]
                              one row per weight format (ggml q4_0…q6_k, mxfp4, the Track-1
                              set; f32/f16 for gemv/gemm): bits/weight, median µs [p20–p80],
                              GB/s of the weights as stored, GFLOP/s, %BW, %FLOP, bottleneck,
                              NMSE and max relative error vs the f32 weights; fastest first.
                              Shapes: gemv/gemm MxNxK (gemv N ≤ 8), dequant KxROWS, get_rows
                              KxTABLEROWSxNIDX. Unknown formats exit 2 listing the known ones.
                              --mmvq (gemv): a second row for each integer-dot format (q4_0…q8_0,
                              mxfp4, nvfp4, Track-1 E2M1/int4/int8) on the other GEMV path: the block-decode gemv where the registry picks
                              ggml's MMVQ (q8_1 activations, dot4I8Packed: wherever WGSL offers
                              it), MMVQ (two passes, timed as their sum) where it does not
`;

export interface FormatsDeps {
  parse(argv: string[], options: Record<string, { type: 'string' | 'boolean' } & CountDeclaration>): Record<string, unknown>;
  openRuntime(runtime: string): Promise<LabApi & { close(): Promise<void> }>;
  output(json: string | undefined): { text(s: string): void; json(v: unknown): void };
}

export async function cmdFormats(argv: string[], deps: FormatsDeps): Promise<number> {
  const v = deps.parse(argv, { op: { type: 'string' }, shape: { type: 'string' }, format: { type: 'string' }, native: { type: 'boolean' }, mmvq: { type: 'boolean' }, 'min-runs': countDeclaration('minRuns'), markdown: { type: 'string' } });
  const mmvq = v.mmvq === true;
  const plan = planFormatsRequest({ op: v.op as string | undefined, shape: v.shape as string | undefined, formats: v.format === undefined ? undefined : String(v.format).split(','), mmvq }); // usage errors before any device work
  const minRuns = countOption(v, 'min-runs');
  const out = deps.output(v.json as string | undefined);
  const lab = await deps.openRuntime(v.runtime as string);
  try {
    // The engine's formats run: the page's Formats view runs the same one in its worker.
    const report = await lab.formats({ op: plan.op, shape: plan.dims.join('x'), formats: plan.cases.map((c) => c.name), native: v.native === true, mmvq, minRuns }, (p) => p.fraction < 1 && process.stderr.write(`formats: ${p.label}…\n`));
    out.text(formatsText(report));
    out.json(report);
    if (v.markdown) writeFileSync(v.markdown as string, formatsMarkdown(report));
    return report.rows.some((r) => r.correct === false) ? 1 : 0;
  } finally {
    await lab.close();
  }
}
