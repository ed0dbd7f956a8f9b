// `lab formats`: one row per weight format for one op (GEMV, GEMM, DEQUANT, GET_ROWS), the fastest
// precision first — bits per weight, time, GB/s of the weights as stored, GFLOP/s, roofline
// percentages, bottleneck, and the quantization error against the f32 weights they were made
// from (NMSE as ggml's test-backend-ops measures it, max relative error). Pure: cases, errors,
// sorting and tables; the CLI runs the cases through Level 1.
import type { Level1Result } from '../results';
import type { FormatRow, FormatsJson, FormatsOp } from '../schema/results';
import { QuantFormatError, UsageError } from '../errors';
import { inputSeed } from '../inputs';
import { opByName } from '../ops/registry';
import { parseDims } from '../ops/types';
import { benchmarkWeights, decodeWeights, knownWeightFormatNames, quantError, weightBits, weightFormat, WEIGHT_DISTRIBUTION, WEIGHT_FORMATS, weightStoredBytes } from '../quant/weights';
import { MAX_TEXT_CHARS } from '../input/caps';
import { fmtExp, fmtGBps, fmtGflops, fmtNs, textTable } from './format';

export type { FormatRow, FormatsOp };

interface OpPlan {
  readonly op: string;
  readonly defaultShape: string;
  readonly param: 'type0' | 'format';
  /** f32/f16 weights as reference rows (ids 0, 1) where the op takes them. */
  readonly plain: readonly number[];
  /** The weight matrix's rows and columns from the dims. */
  readonly matrix: (dims: readonly number[]) => { rows: number; cols: number };
}

const MNK = (d: readonly number[]) => ({ rows: d[0], cols: d[2] });
const KR = (d: readonly number[]) => ({ rows: d[1], cols: d[0] });

export const FORMATS_OPS: Readonly<Record<FormatsOp, OpPlan>> = {
  gemv: { op: 'MUL_MAT', defaultShape: '4096x1x4096', param: 'type0', plain: [1, 0], matrix: MNK },
  gemm: { op: 'MUL_MAT', defaultShape: '4096x512x4096', param: 'type0', plain: [1, 0], matrix: MNK },
  dequant: { op: 'DEQUANT', defaultShape: '4096x4096', param: 'format', plain: [], matrix: KR },
  get_rows: { op: 'GET_ROWS', defaultShape: '4096x1024x64', param: 'type0', plain: [0], matrix: KR },
};

/** The seed formats runs use: the weights of row r are the same in the error column and on the device. */
export const FORMATS_SEED = 1;
/** The error column measures at most this many weights (the first rows of the same seeded matrix). */
export const ERROR_MAX_WEIGHTS = 1 << 22;

export interface FormatCase {
  readonly name: string;
  readonly id: number;
  readonly bitsPerWeight: number;
  readonly params: Readonly<Record<string, number>>;
  /** Why the case cannot be built (a ragged K the format forbids…): the row's reason, no GPU work. */
  readonly problem: string | null;
  readonly weightBytes: number;
}

export interface FormatsPlan {
  readonly op: FormatsOp;
  readonly ggmlOp: string;
  readonly dims: readonly number[];
  readonly cases: readonly FormatCase[];
}

/** Checks --op, --shape and --format (names, then shapes) before any device work. */
export function planFormats(opText: string | undefined, shapeText: string | undefined, formatText: string | undefined): FormatsPlan {
  const op = (opText ?? 'gemv').toLowerCase() as FormatsOp;
  const plan = FORMATS_OPS[op];
  if (!plan) throw new UsageError(`--op ${opText}: formats ranks gemv, gemm, dequant or get_rows`);
  const dims = parseDims(shapeText ?? plan.defaultShape);
  if (plan.op === 'MUL_MAT') {
    if (dims.length !== 3) throw new UsageError(`--shape ${dimsText(dims)}: ${op} takes MxNxK`);
    if (op === 'gemv' && dims[1] > 8) throw new UsageError(`--shape ${dimsText(dims)}: gemv covers N = 1…8 (N = ${dims[1]}); use --op gemm`);
    if (op === 'gemm' && dims[1] <= 8) throw new UsageError(`--shape ${dimsText(dims)}: gemm covers N > 8 (N = ${dims[1]}); use --op gemv`);
  }
  const ids = formatText
    ? formatText.split(',').map((t) => t.trim()).filter(Boolean).map((name) => {
        if (name === 'f32' || name === 'f16') {
          const id = name === 'f32' ? 0 : 1;
          if (!plan.plain.includes(id)) throw new QuantFormatError(`--format ${name}: ${op} takes no ${name} weights (formats: ${knownWeightFormatNames()})`);
          return id;
        }
        return weightFormat(name).id;
      })
    : [...plan.plain, ...WEIGHT_FORMATS.map((f) => f.id)];
  const def = opByName(plan.op);
  const { rows, cols } = plan.matrix(dims);
  const cases = ids.map((id): FormatCase => {
    const params = { [plan.param]: id };
    const f = id > 1 ? weightFormat(id) : null;
    let problem: string | null = null;
    try {
      def.makeCase(dims, def.layouts[0].name, params);
    } catch (e) {
      problem = (e as Error).message;
    }
    return {
      name: f ? f.name : id === 1 ? 'f16' : 'f32',
      id,
      bitsPerWeight: f ? weightBits(f) : id === 1 ? 16 : 32,
      params,
      problem,
      weightBytes: f ? weightStoredBytes(f, rows, cols) : rows * cols * (id === 1 ? 2 : 4),
    };
  });
  return { op, ggmlOp: plan.op, dims, cases };
}

const dimsText = (d: readonly number[]) => d.join('x');

/** What `lab formats` and the page's Formats view ask the engine for (LabApi.formats): plain data. */
export interface FormatsRequest {
  /** gemv (default), gemm, dequant or get_rows. */
  readonly op?: string;
  /** The op's dims as text (MxNxK, KxROWS, KxTABLEROWSxNIDX); the op's default when absent. */
  readonly shape?: string;
  /** Format names (f32/f16 where the op takes them); every format when absent or empty. */
  readonly formats?: readonly string[];
  /** Time the native kernel instead of the registry's pick. */
  readonly native?: boolean;
  /** Level 1's minimum timed runs per format. */
  readonly minRuns?: number;
  /** GEMV only: each integer-dot format (hasIntegerBlockDecode: q4_0…q8_0, mxfp4, nvfp4, Track-1 E2M1/int4/int8) again on the other GEMV path (the block-decode gemv where the registry picks mmvq, mmvq where it does not). */
  readonly mmvq?: boolean;
}

/** A request's plan: the same checks as the CLI's options, before any device work. */
export function planFormatsRequest(req: FormatsRequest): FormatsPlan {
  if (req.formats !== undefined && !Array.isArray(req.formats)) throw new UsageError('formats: expected a list of format names');
  const plan = planFormats(req.op, req.shape, req.formats?.length ? req.formats.join(',') : undefined);
  if (req.mmvq && plan.op !== 'gemv') throw new UsageError(`--mmvq: the integer-dot schedule is a GEMV's (--op gemv), not ${plan.op}'s`);
  return plan;
}

const NO_TIME = { variant: null, scheduleKey: null, correct: null, medianNs: null, p20Ns: null, p80Ns: null, weightGBps: null, gflops: null, pctPeakBw: null, pctPeakFlops: null, bottleneck: null } as const;

function rowBase(c: FormatCase, err: FormatError | null) {
  return { format: c.name, bitsPerWeight: c.bitsPerWeight, weightBytes: c.weightBytes, nmse: err?.nmse ?? null, maxRelError: err?.maxRelError ?? null };
}

/** A format with no time: it cannot be built here, or the device refused it; `reason` says which. */
export function refusedFormatRow(c: FormatCase, err: FormatError | null, reason: string): FormatRow {
  // A compiler's message can be long: the row keeps its start, within what a stored result may hold.
  return { ...rowBase(c, err), ...NO_TIME, reason: reason.length > MAX_TEXT_CHARS ? `${reason.slice(0, MAX_TEXT_CHARS - 1)}…` : reason };
}

/** A format's row from its Level 1 run: a wrong output keeps no time, and says by how much it was wrong. */
export function formatRowOf(c: FormatCase, err: FormatError | null, r: Level1Result): FormatRow {
  const t = r.timing;
  return {
    ...rowBase(c, err),
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
    reason: r.watchdog ? `too-slow: ${r.watchdog.note}` : r.correct ? null : `wrong: maxErr ${fmtExp(r.maxErr)} over bound ${fmtExp(r.bound)}`,
  };
}

export interface FormatError {
  readonly nmse: number;
  readonly maxRelError: number;
  /** Rows of the weight matrix the error was measured on (the first ones). */
  readonly rowsMeasured: number;
}

/** The quantization error of the seeded weights (their first rows, up to ERROR_MAX_WEIGHTS); null without an encoder or for f32/f16. */
export function formatError(p: FormatsPlan, c: FormatCase): FormatError | null {
  if (c.id <= 1 || c.problem) return null;
  const f = weightFormat(c.id);
  if (!f.canEncode) return null;
  const { rows, cols } = FORMATS_OPS[p.op].matrix(p.dims);
  const r = Math.max(1, Math.min(rows, Math.floor(ERROR_MAX_WEIGHTS / cols)));
  const { words, source } = benchmarkWeights(f, r, cols, inputSeed(FORMATS_SEED, 0));
  return { ...quantError(source!, decodeWeights(f, words, r, cols)), rowsMeasured: r };
}

/** A format's (op, shape) key in History, as a Level 1 run of the same case is labelled: 'MUL_MAT 32x16x64 type0=q4_0'. */
export function formatRowKey(r: Pick<FormatsJson, 'op' | 'ggmlOp' | 'shape'>, format: string): string {
  return `${r.ggmlOp} ${r.shape} ${FORMATS_OPS[r.op].param}=${format}`;
}

/** Fastest first; rows without a time after, in their given order. */
export function sortFormatRows(rows: readonly FormatRow[]): FormatRow[] {
  const timed = rows.filter((r) => r.medianNs !== null).sort((a, b) => a.medianNs! - b.medianNs!);
  return [...timed, ...rows.filter((r) => r.medianNs === null)];
}

const pct = (x: number | null) => (x === null ? '—' : `${x.toFixed(0)}%`);
const sci = (x: number | null) => (x === null ? '—' : x.toExponential(2));

/** One row as the table shows it (CLI text, PR markdown and the page alike). */
export function formatCells(r: FormatRow): string[] {
  const time = r.medianNs === null ? '—' : `${fmtNs(r.medianNs)} [${fmtNs(r.p20Ns)}–${fmtNs(r.p80Ns)}]`;
  return [r.format, String(r.bitsPerWeight), time, fmtGBps(r.weightGBps), fmtGflops(r.gflops), pct(r.pctPeakBw), pct(r.pctPeakFlops), r.bottleneck ?? '—', sci(r.nmse), sci(r.maxRelError), r.reason ?? `${r.variant}${r.scheduleKey ? ` ${r.scheduleKey.split('{')[0]}` : ''}`];
}

export const FORMATS_HEADERS: readonly string[] = ['format', 'bits/w', 'median [p20–p80]', 'weights GB/s', 'GFLOP/s', '%BW', '%FLOP', 'bottleneck', 'NMSE', 'max rel', 'kernel / reason'];

export function formatsText(r: FormatsJson): string {
  return [
    `formats — ${r.op} (${r.ggmlOp} ${r.shape}) — ${r.adapter}`,
    `weights: ${r.distribution}; NMSE = Σ(w − q)² / Σw² (test-backend-ops), max rel over |w| ≥ 1% of the largest; K-quants: random valid blocks (no encoder), no error`,
    textTable(FORMATS_HEADERS, r.rows.map(formatCells)),
  ].join('\n');
}

export { WEIGHT_DISTRIBUTION };
