// The formats run (`lab formats`, the page's Formats view): every weight format of one op through
// Level 1 — checked against the oracle of the dequantized weights, then timed — one row each,
// fastest first, with the quantization error beside the time. The one measuring path of both: the
// Engine serves it as LabApi.formats (the CLI's runtimes and the page's worker alike). A format
// that cannot run here (a K its block does not divide, a feature the adapter lacks, a device
// refusal) is a row with the reason; a cancelled run or a lost device ends the whole run.
import { adapterName, type AdapterDescriptor } from '../core/adapter';
import { ProgressTracker, type ProgressFn } from '../core/progress';
import type { FormatsRun } from '../core/report/cross-adapter';
import { FORMATS_SEED, formatError, formatRowOf, planFormatsRequest, refusedFormatRow, sortFormatRows, WEIGHT_DISTRIBUTION, type FormatRow, type FormatsRequest } from '../core/report/formats';
import { CODE_HASH, LAB_VERSION, RESULT_SCHEMA_VERSION } from '../core/report/json';
import type { Level1Request } from '../core/requests';
import type { Level1Result } from '../core/results';

/** Errors that end the run instead of becoming a format's row: the user stopped it, or the device is gone. */
const ENDS_THE_RUN = new Set(['RunCancelled', 'DeviceLostError']);

export async function runFormats(time: (req: Level1Request) => Promise<Level1Result>, adapter: AdapterDescriptor, req: FormatsRequest, onProgress?: ProgressFn): Promise<FormatsRun> {
  const plan = planFormatsRequest(req); // usage errors before any device work
  const startedAt = new Date().toISOString();
  const progress = new ProgressTracker(plan.cases.length, onProgress, () => performance.now());
  const rows: FormatRow[] = [];
  for (const c of plan.cases) {
    progress.tick(`${plan.op} ${plan.dims.join('x')} ${c.name}`);
    const err = formatError(plan, c);
    if (c.problem) {
      rows.push(refusedFormatRow(c, err, c.problem));
    } else {
      try {
        const r = await time({ op: plan.ggmlOp, dims: [...plan.dims], params: c.params, variant: req.native ? { kind: 'native' } : { kind: 'auto' }, seed: FORMATS_SEED, timing: { minRuns: req.minRuns } });
        rows.push(formatRowOf(c, err, r));
      } catch (e) {
        const { name, message } = e as Error;
        if (ENDS_THE_RUN.has(name)) throw e;
        // A feature the adapter lacks, a device refusal: the format's row says so; the rest run.
        rows.push(refusedFormatRow(c, err, `${name}: ${message}`));
      }
    }
    progress.advance();
  }
  progress.finish();
  return { kind: 'formats', op: plan.op, ggmlOp: plan.ggmlOp, shape: plan.dims.join('x'), adapter: adapterName(adapter), distribution: WEIGHT_DISTRIBUTION, rows: sortFormatRows(rows), adapterDescriptor: adapter, schemaVersion: RESULT_SCHEMA_VERSION, labVersion: LAB_VERSION, codeHash: CODE_HASH, startedAt };
}
