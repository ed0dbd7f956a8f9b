// The formats run (`lab formats`, the page's Formats view): every weight format of one op through
// Level 1 — checked against the oracle of the dequantized weights, then timed — one row each,
// fastest first, with the quantization error beside the time. The one measuring path of both: the
// Engine serves it as LabApi.formats (the CLI's runtimes and the page's worker alike). A format
// that cannot run here (a K its block does not divide, a feature the adapter lacks, a device
// refusal) is a row with the reason; a cancelled run or a lost device ends the whole run.
import { adapterName, type AdapterDescriptor } from '../core/adapter';
import { ProgressTracker, type ProgressFn } from '../core/progress';
import { FORMATS_SEED, formatError, formatRowOf, planFormatsRequest, refusedFormatRow, sortFormatRows, WEIGHT_DISTRIBUTION, type FormatCase, type FormatRow, type FormatsPlan, type FormatsRequest } from '../core/report/formats';
import { formatsJson, type FormatsJson } from '../core/report/json';
import { DOT4_WGSL_FEATURE } from '../core/families/mmvq';
import type { LimitsView } from '../core/families/types';
import { opByName, schedulesFor } from '../core/ops/registry';
import type { Schedule } from '../core/schedule/schedule';
import { hasIntegerBlockDecode } from '../core/quant/block-wgsl';
import type { Level1Request } from '../core/requests';
import type { Level1Result } from '../core/results';

/** Errors that end the run instead of becoming a format's row: the user stopped it, or the device is gone. */
const ENDS_THE_RUN = new Set(['RunCancelled', 'DeviceLostError']);

export async function runFormats(time: (req: Level1Request) => Promise<Level1Result>, adapter: AdapterDescriptor, req: FormatsRequest, onProgress?: ProgressFn): Promise<FormatsJson> {
  const plan = planFormatsRequest(req); // usage errors before any device work
  const startedAt = new Date().toISOString();
  const base: Level1Request['variant'] = req.native ? { kind: 'native' } : { kind: 'auto' };
  // Each case once with the registry's pick (or native); with mmvq the integer-dot formats (hasIntegerBlockDecode) again on the other GEMV path.
  const runs = plan.cases.flatMap((c) => {
    const other = req.mmvq && !c.problem && c.id > 1 && hasIntegerBlockDecode(c.id) ? otherGemvSchedule(plan, c, adapter, req.native === true) : null;
    return [{ c, variant: base }, ...(other ? [{ c, variant: { kind: 'schedule', schedule: other } as const }] : [])];
  });
  // A format's error column (up to 4M weights encoded and decoded) is the same for its mmvq row: once per format.
  const errors = new Map(plan.cases.map((c) => [c, formatError(plan, c)] as const));
  const progress = new ProgressTracker(runs.length, onProgress, () => performance.now());
  const rows: FormatRow[] = [];
  for (const { c, variant } of runs) {
    progress.tick(`${plan.op} ${plan.dims.join('x')} ${c.name}${variant.kind === 'schedule' ? ` (${variant.schedule.family})` : ''}`);
    const err = errors.get(c) ?? null;
    if (c.problem) {
      rows.push(refusedFormatRow(c, err, c.problem));
    } else {
      try {
        const r = await time({ op: plan.ggmlOp, dims: [...plan.dims], params: c.params, variant, seed: FORMATS_SEED, timing: { minRuns: req.minRuns } });
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
  return formatsJson({ kind: 'formats', op: plan.op, ggmlOp: plan.ggmlOp, shape: plan.dims.join('x'), adapter: adapterName(adapter), distribution: WEIGHT_DISTRIBUTION, rows: sortFormatRows(rows), adapterDescriptor: adapter, startedAt });
}

/**
 * The --mmvq row's schedule for an integer-dot format: the other GEMV path than the base row's —
 * the registry's pick as if WGSL lacked dot4I8Packed (the block-decode gemv) where the registry
 * picks mmvq, else its pick as if WGSL offered it (the mmvq rule; refused by name where it does not);
 * null where mmvq does not take the shape even then.
 */
export function otherGemvSchedule(plan: FormatsPlan, c: FormatCase, adapter: LimitsView, native: boolean): Schedule | null {
  const kase = opByName(plan.ggmlOp).makeCase([...plan.dims], 'contiguous', c.params);
  const without = (adapter.wgslFeatures ?? []).filter((f) => f !== DOT4_WGSL_FEATURE);
  const pickWith = (wgslFeatures: readonly string[]) => schedulesFor(plan.ggmlOp, kase, { ...adapter, wgslFeatures });
  const withDot4 = pickWith([...without, DOT4_WGSL_FEATURE]);
  // mmvq does not take this shape (a Track-1 row of K % 32 ≠ 0): no second path, so no second row.
  if (withDot4?.family !== 'mmvq') return null;
  return !native && pickWith(adapter.wgslFeatures ?? [])?.family === 'mmvq' ? pickWith(without) : withDot4;
}
