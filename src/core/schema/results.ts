// The one definition of every result the lab stores, exports, shares and imports: Level 1, the
// lane, the sweep, a calibration and a formats run. From it come the JSON types (src/core/report/json.ts), the
// projection the CLI and the page write (json.ts) and the validation of results from outside
// (src/core/report/validate.ts); the engine's in-memory results (src/core/results.ts) extend
// these records, so the compiler holds them to it. Caps come from src/core/input/caps.ts;
// fields that belong together are checked together, so nothing half-built reaches a renderer.
// Fields marked optional are absent from results stored before they existed.
import type { AdapterDescriptor } from '../adapter';
import { FORMATS_CAPS, LANE_CAPS, LEVEL1_CAPS, MAX_NAME_CHARS, MAX_TEXT_CHARS, SWEEP_CAPS } from '../input/caps';
import { isIsoTimestamp } from '../input/iso-date';
import type { PromotionState } from '../ops/promotion';
import type { Schedule } from '../schedule/schedule';
import type { ShapeVerdict } from '../stats/verdict';
import { any, bool, count, fail, leaf, list, nonNegative, nullable, num, obj, oneOf, optional, record, str, typed, type Infer, type ObjectOf, type Schema } from './schema';

/** Statistics controls: the generated side replaced by the native kernel itself (A/A), the same
 * kernel doing 3× the work (slow) or 200× (stall: the watchdog's too-slow), or one that skips
 * half its output (wrong and fast); `slow:F` plants a slowdown (F in (1, 3]): the native kernel
 * with a calibrated chain of ALU work inside its own dispatch, measured at F× within ±1 point
 * before the passes, with identical output (src/core/lane/plant.ts). */
export type LaneControl = 'aa' | 'slow' | 'stall' | 'wrong' | `slow:${number}`;

/** Names: op, shape, layout, keys, codes. */
const name = str(MAX_NAME_CHARS);
/** Sentences: reasons, notes, evidence. */
const text = str(MAX_TEXT_CHARS);
const names = <T>(value: Schema<T>, maxKeys: number) => record(value, maxKeys, MAX_NAME_CHARS);

/** A case's dims: 1 to 8 positive whole numbers (the op's makeCase checks them again on a re-run). */
const caseDims = leaf<readonly number[]>((v, p) => {
  if (!Array.isArray(v) || v.length < 1 || v.length > 8) return fail(p, 'a list of 1 to 8 dims', v);
  const bad = v.findIndex((d) => !Number.isSafeInteger(d) || d < 1);
  return bad < 0 ? null : fail(`${p}[${bad}]`, 'a whole number ≥ 1', v[bad]);
});

/** ISO-8601 timestamps only, strictly: the history orders and plots runs by them. */
const isoTime = leaf<string>((v, p) => (isIsoTimestamp(v) ? null : `${fail(p, 'an ISO date', v)} (YYYY-MM-DDThh:mm:ss[.sss]Z)`));

function literal<const K extends string>(k: K): Schema<K> {
  return leaf((v, p) => (v === k ? null : fail(p, `'${k}'`, v)));
}

const adapterFields = obj({
  vendor: name,
  architecture: name,
  device: name,
  description: text,
  isFallbackAdapter: bool,
  runtime: oneOf(['browser', 'node']),
  features: list(name, 256),
  limits: names(num, 256),
  subgroupMinSize: optional(num),
  subgroupMaxSize: optional(num),
});
/** The adapter a result was measured on (its limits as the adapter reported them). */
export const adapter = typed<AdapterDescriptor>(adapterFields);

/** Schema version and the code that produced a result (so results of older code show stale). */
const stamps = {
  schemaVersion: num,
  labVersion: optional(name),
  codeHash: optional(name),
};
export type Stamps = ObjectOf<typeof stamps>;

const fallback = nullable(obj({ code: name, reason: text }));
const declaredFallback = nullable(obj({ code: name, reason: text, declared: bool }));

const bottleneck = oneOf(['compute-bound', 'memory-bound', 'launch-bound', 'latency-bound']);

/** Roofline metrics (absent from results made before metrics existed). */
const metricsFields = obj({
  latencyMinUs: num,
  latencyMedianUs: num,
  gbps: num,
  gflops: nullable(num),
  arithmeticIntensity: nullable(num),
  pctPeakBw: nullable(num),
  pctPeakFlops: nullable(num),
  bottleneck: nullable(bottleneck),
  peakSource: nullable(oneOf(['spec', 'measured'])),
});
const metrics = optional(nullable(metricsFields));

const SHAPE_VERDICTS = [
  'faster',
  'parity',
  'within-tolerance',
  'undecided',
  'slower',
  'too-slow',
  'wrong',
  'declared-fallback',
  'undeclared-fallback',
  'device-rejection',
] as const satisfies readonly ShapeVerdict[];
const shapeVerdict = oneOf<ShapeVerdict>(SHAPE_VERDICTS);
const PROMOTION_STATES = ['native-only', 'observe', 'prefer', 'retired'] as const satisfies readonly PromotionState[];
const promotionState = oneOf<PromotionState>(PROMOTION_STATES);

/** min ≤ median ≤ max, each read as a number (already type-checked). */
function ordered(v: Record<string, unknown>, p: string, lo: string, mid: string, hi: string): string | null {
  const [a, b, c] = [v[lo], v[mid], v[hi]] as number[];
  return a <= b && b <= c ? null : `${p}${lo} ≤ ${mid} ≤ ${hi} does not hold (${a}, ${b}, ${c})`;
}

const timing = nullable(
  obj(
    {
      runs: count,
      minNs: nonNegative,
      medianNs: nonNegative,
      maxNs: nonNegative,
      p20Ns: optional(nonNegative),
      p80Ns: optional(nonNegative),
      noisy: optional(bool),
      resolutionNs: nonNegative,
      method: oneOf(['timestamp', 'timestamp-grouped', 'wallclock']),
      spanNs: optional(nonNegative),
      spanShort: bool,
      note: text,
    },
    (v, p) => ordered(v, p, 'minNs', 'medianNs', 'maxNs'),
  ),
);

/** A user kernel's identity: its manifest's and each WGSL file's SHA-256. */
const userKernel = obj({
  name,
  id: name,
  manifestSha256: name,
  wgsl: list(obj({ file: name, sha256: name }), 100),
  variant: optional(name),
  compute: optional(oneOf(['f16-staged', 'f16-accumulate'])),
  numerics: optional(text),
});

const correctness = obj({
  worstRatio: nullable(num),
  elements: nonNegative,
  checked: optional(nonNegative),
  outOfBound: nonNegative,
  nonFinite: nonNegative,
  guardViolations: nonNegative,
  failures: list(text, LEVEL1_CAPS.failures),
});

/** A Level 1 result's stored fields (the kernel's WGSL stays in memory). */
export const level1Fields = {
  op: name,
  shape: name,
  dims: optional(caseDims),
  caseId: optional(name),
  layout: name,
  label: optional(name),
  params: optional(names(num, 64)),
  variant: oneOf(['native', 'generated', 'user']),
  scheduleKey: nullable(name),
  schedule: optional(nullable(typed<Schedule>(names(any, 32)))),
  userKernel: optional(nullable(userKernel), (k) => k === null),
  fallback,
  correct: bool,
  maxErr: nullable(num),
  bound: nullable(num),
  correctness,
  timing,
  flops: nullable(nonNegative),
  readBytes: nonNegative,
  writeBytes: nonNegative,
  metrics,
  dispatch: list(count, 3),
  workgroupSize: optional(list(count, 3)),
  adapter,
  startedAt: isoTime,
};
export type Level1Record = ObjectOf<typeof level1Fields>;

export const level1 = obj({ kind: literal('level1'), ...stamps, ...level1Fields }, (v, p) => {
  if ((v.dispatch as unknown[]).length !== 3) return `${p}dispatch: expected 3 workgroup counts, got ${(v.dispatch as unknown[]).length}`;
  if (v.correct === false && v.timing !== null) return `${p}timing: a wrong kernel is never timed, but this result carries a timing`;
  if (v.metrics && v.timing === null) return `${p}metrics: metrics without a timing`;
  return null;
});

/** A speedup is whole or absent: median, min, max, both sides' medians and the passes together. */
function speedupComplete(v: Record<string, unknown>, p: string): string | null {
  const parts = ['speedupMedian', 'speedupMin', 'speedupMax', 'nativeMedianNs', 'generatedMedianNs'];
  const present = v.speedupMedian !== null;
  const speedups = v.speedups as number[];
  if (!present) {
    const stray = ['speedupMin', 'speedupMax'].find((k) => v[k] !== null);
    return stray ? `${p}${stray}: set while speedupMedian is null (a half-built speedup)` : null;
  }
  const missing = parts.find((k) => v[k] === null);
  if (missing) return `${p}${missing}: null while speedupMedian is set (a half-built speedup)`;
  if (!speedups.length) return `${p}speedups: empty while speedupMedian is set (a half-built speedup)`;
  return ordered(v, p, 'speedupMin', 'speedupMedian', 'speedupMax');
}

const plantRecordFields = {
  askedFactor: nonNegative,
  measuredFactor: nullable(nonNegative),
  iterations: nullable(count),
  attempts: count,
  refused: nullable(text),
  smallestFactor: nullable(nonNegative),
};
/** What a planted `slow:F` control measured (src/core/lane/plant.ts). */
export const plantRecord = obj(plantRecordFields);

/** A user kernel's column in a lane shape. */
export const laneUserColumn = obj({
  kernel: userKernel,
  verdict: shapeVerdict,
  refusal: declaredFallback,
  correct: nullable(bool),
  maxErrRatio: optional(nullable(num)),
  medianNs: nullable(nonNegative),
  speedups: list(nonNegative, LANE_CAPS.speedupsPerShape),
  speedupMedian: nullable(nonNegative),
  speedupMin: nullable(nonNegative),
  speedupMax: nullable(nonNegative),
  metrics,
  note: nullable(text),
});

const laneShapeFields = {
  shape: name,
  dims: optional(caseDims),
  caseId: optional(name),
  layout: name,
  params: optional(names(num, 64)),
  scheduleKey: nullable(name),
  nativeMedianNs: nullable(nonNegative),
  generatedMedianNs: nullable(nonNegative),
  speedupMedian: nullable(nonNegative),
  speedupMin: nullable(nonNegative),
  speedupMax: nullable(nonNegative),
  speedups: list(nonNegative, LANE_CAPS.speedupsPerShape),
  effectFloor: optional(nonNegative),
  plantedRatio: optional(nonNegative),
  plant: optional(plantRecord),
  passes: optional(count),
  remeasuredPasses: optional(count, (n) => n === 0),
  verdict: shapeVerdict,
  fallback: declaredFallback,
  note: nullable(text),
  nativeMetrics: metrics,
  generatedMetrics: metrics,
  users: optional(list(laneUserColumn, 16), (u) => u.length === 0),
};
export type LaneShapeRecord = ObjectOf<typeof laneShapeFields>;
const laneShape = obj(laneShapeFields, speedupComplete);

const lanePairFields = {
  op: name,
  state: promotionState,
  registryState: promotionState,
  gating: bool,
  counters: obj({ generatedDispatches: nonNegative, nativeFallbacks: names(nonNegative, 256), undeclaredFallbacks: optional(nonNegative), deviceRejections: nonNegative }),
  shapes: list(laneShape, LANE_CAPS.shapesPerPair),
  checklist: list(obj({ id: name, title: text, pass: bool, evidence: text }), LANE_CAPS.checklist),
  verdict: oneOf(['green', 'gate-failed', 'lane-failed', 'work-items']),
};
export type LanePairRecord = ObjectOf<typeof lanePairFields>;

/** `--repeat auto`: passes are added until the median's interval is at most `targetWidth` of the median, up to `maxPasses`. */
const repeatAuto = obj({ targetWidth: nonNegative, maxPasses: count });
export type RepeatAuto = Infer<typeof repeatAuto>;

/** An op the lane skipped, or one shape refused as a planted control (`plant` says what was measured). */
const laneSkip = obj({ op: name, reason: text, plant: optional(obj({ shape: name, ...plantRecordFields })) });
export type LaneSkip = Infer<typeof laneSkip>;

export const laneFields = {
  adapter,
  settings: obj({
    repeat: nonNegative,
    tolerance: nonNegative,
    seed: num,
    prefer: list(name, 100),
    control: optional(nullable(typed<LaneControl>(name))),
    undeclare: list(name, 100),
    wallBoundMs: optional(nonNegative),
    proposalRules: optional(count),
    allowUndecided: optional(bool),
    repeatAuto: optional(repeatAuto),
  }),
  pairs: list(obj(lanePairFields), LANE_CAPS.pairs),
  skipped: list(laneSkip, LANE_CAPS.shapes),
  green: bool,
  startedAt: isoTime,
  durationMs: nonNegative,
  host: optional(obj({ buildMs: nonNegative, checkMs: nonNegative })),
};
export type LaneRecord = ObjectOf<typeof laneFields>;

export const lane = obj({ kind: literal('lane'), ...stamps, ...laneFields }, (v, p) => {
  const shapes = (v.pairs as { shapes: { speedups: unknown[] }[] }[]).flatMap((x) => x.shapes);
  if (shapes.length > LANE_CAPS.shapes) return `${p}pairs: ${shapes.length} shapes in all, over the cap of ${LANE_CAPS.shapes}`;
  const speedups = shapes.reduce((n, s) => n + s.speedups.length, 0);
  return speedups > LANE_CAPS.speedups ? `${p}pairs: ${speedups} speedups in all, over the cap of ${LANE_CAPS.speedups}` : null;
});

const condition = obj({ feature: name, min: optional(num), max: optional(num), multipleOf: optional(num) });
const knobValue = leaf<number | string>((v, p) => (typeof v === 'number' ? num.check(v, p) : name.check(v, p)));
const knobs = typed<Schedule>(names(knobValue, 32));

const sweepCell = obj({ shape: name, medianNs: nullable(nonNegative), spread: nullable(nonNegative), gain: nullable(num), outcome: nullable(oneOf(['win', 'lose', 'noise', 'unfit'])), metrics });

/**
 * Every cell names one of the sweep's shapes, at most once per candidate; and the table the
 * page draws — every candidate against every shape, filled or not — is capped, since drawing
 * it is the work (1000 shapes × 300 empty candidates: a 5.5 K-character link, 300 000 cells).
 */
function sweepCells(v: Record<string, unknown>, p: string): string | null {
  const shapes = new Set(v.shapes as string[]);
  if (shapes.size !== (v.shapes as string[]).length) return `${p}shapes: a shape is listed twice`;
  const candidates = v.candidates as { shapes: { shape: string }[] }[];
  const table = candidates.length * shapes.size;
  if (table > SWEEP_CAPS.cells) return `${p}candidates: ${candidates.length} candidates × ${shapes.size} shapes = ${table} table cells, over the cap of ${SWEEP_CAPS.cells} (the work of drawing its table)`;
  for (let i = 0; i < candidates.length; i++) {
    const seen = new Set<string>();
    for (const [j, cell] of candidates[i].shapes.entries()) {
      if (!shapes.has(cell.shape) || seen.has(cell.shape)) return `${p}candidates[${i}].shapes[${j}].shape: '${cell.shape.slice(0, 40)}' is not one of the sweep's shapes, or is listed twice`;
      seen.add(cell.shape);
    }
  }
  for (const [i, e] of (v.proposal as { covers: string[] }[]).entries()) {
    const bad = e.covers.find((s) => !shapes.has(s));
    if (bad !== undefined) return `${p}proposal[${i}].covers: '${bad.slice(0, 40)}' is not one of the sweep's shapes`;
  }
  return null;
}

export type SweepCellRecord = Infer<typeof sweepCell>;

export const sweepCandidate = obj({
  key: name,
  schedule: knobs,
  status: oneOf(['accepted', 'noise', 'slower', 'no-rule', 'wrong', 'too-slow', 'invalid', 'device-rejection']),
  reason: text,
  shapes: list(sweepCell, SWEEP_CAPS.shapes),
  rule: nullable(list(condition, SWEEP_CAPS.conditions)),
  meanWinGain: nullable(num),
});

export const sweepFields = {
  op: name,
  adapter,
  settings: obj({ reps: nonNegative, seed: num, space: names(list(knobValue, SWEEP_CAPS.spaceValues), 32) }),
  shapes: list(name, SWEEP_CAPS.shapes),
  excludedShapes: list(obj({ shape: name, reason: text }), SWEEP_CAPS.shapes),
  reference: list(obj({ shape: name, variant: name, medianNs: nonNegative, spread: nonNegative }), SWEEP_CAPS.shapes * 4),
  candidates: list(sweepCandidate, SWEEP_CAPS.candidates),
  proposal: list(obj({ key: optional(name), schedule: knobs, when: list(condition, SWEEP_CAPS.conditions), covers: list(name, SWEEP_CAPS.shapes), meanWinGain: num }), SWEEP_CAPS.proposal),
  startedAt: isoTime,
  durationMs: nonNegative,
};
export type SweepRecord = ObjectOf<typeof sweepFields>;

export const sweep = obj({ kind: literal('sweep'), ...stamps, ...sweepFields }, sweepCells);

export const calibrationFields = {
  adapterFingerprint: text,
  copyGBps: nonNegative,
  f32Gflops: nonNegative,
  f16Gflops: nullable(nonNegative),
  int8Gops: optional(nullable(nonNegative)),
  mmaGflops: optional(names(nonNegative, 8)),
  copySpread: optional(nonNegative),
  emptyDispatchNs: nonNegative,
  measuredAt: isoTime,
  details: list(text, 1000),
};
export type CalibrationRecord = ObjectOf<typeof calibrationFields>;

export const calibration = obj({ kind: literal('calibration'), ...stamps, ...calibrationFields, adapter });

/** The ops `lab formats` ranks (src/core/report/formats.ts plans each). */
export const FORMATS_OP_NAMES = ['gemv', 'gemm', 'dequant', 'get_rows'] as const;
export type FormatsOp = (typeof FORMATS_OP_NAMES)[number];

/**
 * One weight format's row, in the order the runner writes it: its size, its quantization error
 * against the f32 weights (null without an encoder, or for f32/f16), the kernel and its time.
 * A row without a time says why (`reason`), unless its output was wrong (`correct: false`).
 */
const formatRow = obj(
  {
    format: name,
    bitsPerWeight: nonNegative,
    weightBytes: nonNegative,
    nmse: nullable(nonNegative),
    maxRelError: nullable(nonNegative),
    variant: nullable(name),
    scheduleKey: nullable(text),
    correct: nullable(bool),
    medianNs: nullable(nonNegative),
    p20Ns: nullable(nonNegative),
    p80Ns: nullable(nonNegative),
    /** Weights as stored ÷ median time. */
    weightGBps: nullable(nonNegative),
    gflops: nullable(nonNegative),
    pctPeakBw: nullable(nonNegative),
    pctPeakFlops: nullable(nonNegative),
    bottleneck: nullable(bottleneck),
    /** Why the format has no time (cannot be built, a feature the adapter lacks, wrong output). */
    reason: nullable(text),
  },
  (v, p) => (v.medianNs === null && v.reason === null && v.correct !== false ? `${p}reason: null on a row with no time (a format without a time says why)` : null),
);
export type FormatRow = Infer<typeof formatRow>;

/** Stamps a formats run carries since `lab report` first read them: one made before is named, with the fix. */
function stamped<T>(s: Schema<T>): Schema<T> {
  return { check: (v, p) => (v === undefined ? `${p}: missing (a formats run made before formats runs were stamped: rerun lab formats --json)` : s.check(v, p)), project: s.project };
}

/** `lab formats --json` (src/gpu/formats.ts): its adapter's name in `adapter`, the descriptor in `adapterDescriptor`. */
export const formats = obj({
  kind: literal('formats'),
  op: oneOf(FORMATS_OP_NAMES),
  ggmlOp: name,
  shape: name,
  adapter: text,
  distribution: text,
  rows: list(formatRow, FORMATS_CAPS.rows),
  adapterDescriptor: stamped(adapter),
  schemaVersion: num,
  labVersion: stamped(name),
  codeHash: stamped(name),
  startedAt: stamped(isoTime),
});

export type Level1Json = Infer<typeof level1>;
export type LaneJson = Infer<typeof lane>;
export type SweepJson = Infer<typeof sweep>;
export type CalibrationJson = Infer<typeof calibration>;
export type FormatsJson = Infer<typeof formats>;
/** Every result the lab stores, exports, shares and imports: the CLI's --json shapes. */
export type ResultJson = Level1Json | LaneJson | SweepJson | CalibrationJson | FormatsJson;
export type RunKind = ResultJson['kind'];

/** Each kind's schema (a null-prototype table: an inherited name is never a kind). */
export const RESULT_SCHEMAS: Readonly<Record<RunKind, Schema<ResultJson>>> = Object.freeze(
  Object.assign(Object.create(null) as Record<RunKind, Schema<ResultJson>>, { level1, lane, sweep, calibration, formats }),
);
export const RUN_KINDS: readonly RunKind[] = ['level1', 'lane', 'sweep', 'calibration', 'formats'];
