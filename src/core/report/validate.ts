// Structural validation of a result JSON that came from outside this page (a share link, an
// imported file): every field a view reads is checked, own properties only (an inherited name
// such as 'hasOwnProperty' is never a kind, a field or a key), with caps on list lengths,
// string lengths, nesting and the cells a view would draw (src/core/input/caps.ts); fields
// that belong together are checked together, so nothing half-built reaches a renderer. An
// error names the path and what was wrong. Extra fields are allowed: a newer lab of the same
// schema version may add some.
import { LabError } from '../errors';
import { describeBounded, INHERITED_NAMES, isOwnKey, jsonBoundsProblem, ownValue } from '../input/bounded-json';
import { LANE_CAPS, LEVEL1_CAPS, MAX_NAME_CHARS, MAX_TEXT_CHARS, RESULT_BOUNDS, SWEEP_CAPS } from '../input/caps';
import { isIsoTimestamp } from '../input/iso-date';
import { RESULT_SCHEMA_VERSION, RUN_KINDS, type ResultJson } from './json';

export class ResultShapeError extends LabError {
  override name = 'ResultShapeError';
}

/** A check returns null when the value fits, else what is wrong (the path is added by the caller). */
type Check = (v: unknown, path: string) => string | null;

function describe(v: unknown): string {
  if (typeof v === 'string') return `'${v.length > 40 ? `${v.slice(0, 40)}…` : v}'`;
  if (v === null || Array.isArray(v) || typeof v === 'object' || v === undefined) return v === undefined ? 'nothing' : v === null ? 'null' : Array.isArray(v) ? 'a list' : 'an object';
  return `${typeof v} ${describeBounded(v)}`;
}

const fail = (path: string, want: string, v: unknown) => `${path}: expected ${want}, got ${describe(v)}`;

function strOf(maxChars: number): Check {
  return (v, p) => (typeof v !== 'string' ? fail(p, 'a string', v) : v.length > maxChars ? `${p}: ${v.length} characters, over the ${maxChars}-character cap` : null);
}
/** Names: op, shape, layout, keys, codes. */
const name = strOf(MAX_NAME_CHARS);
/** Sentences: reasons, notes, evidence. */
const text = strOf(MAX_TEXT_CHARS);
const bool: Check = (v, p) => (typeof v === 'boolean' ? null : fail(p, 'true or false', v));
/** JSON has no NaN or Infinity: a number here is always finite. */
const num: Check = (v, p) => (typeof v === 'number' && Number.isFinite(v) ? null : fail(p, 'a finite number', v));
const nonNegative: Check = (v, p) => num(v, p) ?? ((v as number) >= 0 ? null : fail(p, 'a number ≥ 0', v));
const count: Check = (v, p) => (Number.isSafeInteger(v) && (v as number) >= 0 ? null : fail(p, 'a whole number ≥ 0', v));
/** Any JSON within the result's bounds (checked once for the whole result, before the schema). */
const any: Check = () => null;

/** A case's dims: 1 to 8 positive whole numbers (the op's makeCase checks them again on a re-run). */
const caseDims: Check = (v, p) => {
  if (!Array.isArray(v) || v.length < 1 || v.length > 8) return fail(p, 'a list of 1 to 8 dims', v);
  const bad = v.findIndex((d) => !Number.isSafeInteger(d) || d < 1);
  return bad < 0 ? null : fail(`${p}[${bad}]`, 'a whole number ≥ 1', v[bad]);
};

function nullable(c: Check): Check {
  return (v, p) => (v === null ? null : c(v, p));
}

function optional(c: Check): Check {
  return (v, p) => (v === undefined ? null : c(v, p));
}

function oneOf(values: readonly string[]): Check {
  return (v, p) => (typeof v === 'string' && values.includes(v) ? null : fail(p, `one of ${values.join(', ')}`, v));
}

function list(item: Check, maxItems: number): Check {
  return (v, p) => {
    if (!Array.isArray(v)) return fail(p, 'a list', v);
    if (v.length > maxItems) return `${p}: ${v.length} items, over the cap of ${maxItems}`;
    for (let i = 0; i < v.length; i++) {
      const e = item(v[i], `${p}[${i}]`);
      if (e) return e;
    }
    return null;
  };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

function record(value: Check, maxKeys: number): Check {
  return (v, p) => {
    if (!isPlainObject(v)) return fail(p, 'an object', v);
    const keys = Object.keys(v);
    if (keys.length > maxKeys) return `${p}: ${keys.length} keys, over the cap of ${maxKeys}`;
    for (const k of keys) {
      if (INHERITED_NAMES.has(k)) return `${p}: key '${k}' names an inherited object member, not data`;
      if (k.length > MAX_NAME_CHARS) return `${p}: a key of ${k.length} characters, over the ${MAX_NAME_CHARS}-character cap`;
      const e = value(v[k], `${p}.${k}`);
      if (e) return e;
    }
    return null;
  };
}

/** Fields read as own properties only; `also` checks what the fields mean together. */
function obj(fields: Record<string, Check>, also?: (v: Record<string, unknown>, p: string) => string | null): Check {
  return (v, p) => {
    if (!isPlainObject(v)) return fail(p || 'the result', 'an object', v);
    for (const [k, c] of Object.entries(fields)) {
      const e = c(ownValue(v, k), p ? `${p}.${k}` : k);
      if (e) return e;
    }
    return also ? also(v, p ? `${p}.` : '') : null;
  };
}

const adapter = obj({
  vendor: name,
  architecture: name,
  device: name,
  description: text,
  isFallbackAdapter: bool,
  runtime: oneOf(['browser', 'node']),
  features: list(name, 256),
  limits: record(num, 256),
});

/** ISO-8601 timestamps only, strictly: the history orders and plots runs by them. */
const isoTime: Check = (v, p) => (isIsoTimestamp(v) ? null : `${fail(p, 'an ISO date', v)} (YYYY-MM-DDThh:mm:ss[.sss]Z)`);

const stamps = {
  schemaVersion: num,
  labVersion: optional(name),
  codeHash: optional(name),
};

const fallback = nullable(obj({ code: name, reason: text }));

/** Roofline metrics (absent from results made before metrics existed). */
const metrics = optional(
  nullable(
    obj({
      latencyMinUs: num,
      latencyMedianUs: num,
      gbps: num,
      gflops: nullable(num),
      arithmeticIntensity: nullable(num),
      pctPeakBw: nullable(num),
      pctPeakFlops: nullable(num),
      bottleneck: nullable(oneOf(['compute-bound', 'memory-bound', 'launch-bound', 'latency-bound'])),
      peakSource: nullable(oneOf(['spec', 'measured'])),
    }),
  ),
);

const SHAPE_VERDICTS = ['faster', 'parity', 'within-tolerance', 'undecided', 'slower', 'too-slow', 'wrong', 'declared-fallback', 'undeclared-fallback', 'device-rejection'];
const PROMOTION_STATES = ['native-only', 'observe', 'prefer', 'retired'];

/** min ≤ median ≤ max, each read as a number (already type-checked). */
function ordered(v: Record<string, unknown>, p: string, lo: string, mid: string, hi: string): string | null {
  const [a, b, c] = [v[lo], v[mid], v[hi]] as number[];
  return a <= b && b <= c ? null : `${p}${lo} ≤ ${mid} ≤ ${hi} does not hold (${a}, ${b}, ${c})`;
}

const timing = nullable(
  obj(
    { runs: count, minNs: nonNegative, medianNs: nonNegative, maxNs: nonNegative, p20Ns: optional(nonNegative), p80Ns: optional(nonNegative), noisy: optional(bool), resolutionNs: nonNegative, method: oneOf(['timestamp', 'timestamp-grouped', 'wallclock']), spanShort: bool, note: text },
    (v, p) => ordered(v, p, 'minNs', 'medianNs', 'maxNs'),
  ),
);

/** A user kernel's identity: its manifest's and each WGSL file's SHA-256. */
const userKernel = obj({ name, id: name, manifestSha256: name, wgsl: list(obj({ file: name, sha256: name }), 100), variant: optional(name), compute: optional(oneOf(['f16-staged', 'f16-accumulate'])), numerics: optional(text) });

const level1 = obj(
  {
    ...stamps,
    op: name,
    shape: name,
    dims: optional(caseDims),
    caseId: optional(name),
    layout: name,
    label: optional(name),
    params: optional(record(num, 64)),
    variant: oneOf(['native', 'generated', 'user']),
    scheduleKey: nullable(name),
    userKernel: optional(nullable(userKernel)),
    schedule: optional(nullable(record(any, 32))),
    fallback,
    correct: bool,
    maxErr: nullable(num),
    bound: nullable(num),
    correctness: obj({ worstRatio: nullable(num), elements: nonNegative, outOfBound: nonNegative, nonFinite: nonNegative, guardViolations: nonNegative, failures: list(text, LEVEL1_CAPS.failures) }),
    timing,
    flops: nullable(nonNegative),
    readBytes: nonNegative,
    writeBytes: nonNegative,
    metrics,
    dispatch: list(count, 3),
    workgroupSize: optional(list(count, 3)),
    adapter,
    startedAt: isoTime,
  },
  (v, p) => {
    if ((v.dispatch as unknown[]).length !== 3) return `${p}dispatch: expected 3 workgroup counts, got ${(v.dispatch as unknown[]).length}`;
    if (v.correct === false && v.timing !== null) return `${p}timing: a wrong kernel is never timed, but this result carries a timing`;
    if (v.metrics && v.timing === null) return `${p}metrics: metrics without a timing`;
    return null;
  },
);

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

const plantRecord = obj({
  askedFactor: nonNegative,
  measuredFactor: nullable(nonNegative),
  iterations: nullable(count),
  attempts: count,
  refused: nullable(text),
  smallestFactor: nullable(nonNegative),
});

const laneShape = obj(
  {
    shape: name,
    dims: optional(caseDims),
    caseId: optional(name),
    layout: name,
    params: optional(record(num, 64)),
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
    remeasuredPasses: optional(count),
    verdict: oneOf(SHAPE_VERDICTS),
    fallback: nullable(obj({ code: name, reason: text, declared: bool })),
    note: nullable(text),
    nativeMetrics: metrics,
    generatedMetrics: metrics,
    users: optional(
      list(
        obj({
          kernel: userKernel,
          verdict: oneOf(SHAPE_VERDICTS),
          refusal: nullable(obj({ code: name, reason: text, declared: bool })),
          correct: nullable(bool),
          medianNs: nullable(nonNegative),
          speedups: list(nonNegative, LANE_CAPS.speedupsPerShape),
          speedupMedian: nullable(nonNegative),
          speedupMin: nullable(nonNegative),
          speedupMax: nullable(nonNegative),
          metrics,
          note: nullable(text),
        }),
        16,
      ),
    ),
  },
  speedupComplete,
);

const lane = obj(
  {
    ...stamps,
    adapter,
    settings: obj({ repeat: nonNegative, tolerance: nonNegative, seed: num, prefer: list(name, 100), undeclare: list(name, 100), control: optional(nullable(name)), allowUndecided: optional(bool), repeatAuto: optional(obj({ targetWidth: nonNegative, maxPasses: count })) }),
    pairs: list(
      obj({
        op: name,
        state: oneOf(PROMOTION_STATES),
        registryState: oneOf(PROMOTION_STATES),
        gating: bool,
        counters: obj({ generatedDispatches: nonNegative, nativeFallbacks: record(nonNegative, 256), deviceRejections: nonNegative }),
        shapes: list(laneShape, LANE_CAPS.shapesPerPair),
        checklist: list(obj({ id: name, title: text, pass: bool, evidence: text }), LANE_CAPS.checklist),
        verdict: oneOf(['green', 'gate-failed', 'lane-failed', 'work-items']),
      }),
      LANE_CAPS.pairs,
    ),
    skipped: list(obj({ op: name, reason: text, plant: optional(obj({ shape: name }, (v, p) => plantRecord(v, p.slice(0, -1)))) }), LANE_CAPS.shapes),
    green: bool,
    startedAt: isoTime,
    durationMs: nonNegative,
    host: optional(obj({ buildMs: nonNegative, checkMs: nonNegative })),
  },
  (v, p) => {
    const shapes = (v.pairs as { shapes: { speedups: unknown[] }[] }[]).flatMap((x) => x.shapes);
    if (shapes.length > LANE_CAPS.shapes) return `${p}pairs: ${shapes.length} shapes in all, over the cap of ${LANE_CAPS.shapes}`;
    const speedups = shapes.reduce((n, s) => n + s.speedups.length, 0);
    return speedups > LANE_CAPS.speedups ? `${p}pairs: ${speedups} speedups in all, over the cap of ${LANE_CAPS.speedups}` : null;
  },
);

const condition = obj({ feature: name, min: optional(num), max: optional(num), multipleOf: optional(num) });
const knobValue: Check = (v, p) => (typeof v === 'number' ? num(v, p) : name(v, p));

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

const sweep = obj(
  {
    ...stamps,
    op: name,
    adapter,
    settings: obj({ reps: nonNegative, seed: num, space: record(list(knobValue, SWEEP_CAPS.spaceValues), 32) }),
    shapes: list(name, SWEEP_CAPS.shapes),
    excludedShapes: list(obj({ shape: name, reason: text }), SWEEP_CAPS.shapes),
    reference: list(obj({ shape: name, variant: name, medianNs: nonNegative, spread: nonNegative }), SWEEP_CAPS.shapes * 4),
    candidates: list(
      obj({
        key: name,
        schedule: record(knobValue, 32),
        status: oneOf(['accepted', 'noise', 'slower', 'no-rule', 'wrong', 'too-slow', 'invalid', 'device-rejection']),
        reason: text,
        shapes: list(sweepCell, SWEEP_CAPS.shapes),
        rule: nullable(list(condition, SWEEP_CAPS.conditions)),
        meanWinGain: nullable(num),
      }),
      SWEEP_CAPS.candidates,
    ),
    proposal: list(obj({ schedule: record(knobValue, 32), when: list(condition, SWEEP_CAPS.conditions), covers: list(name, SWEEP_CAPS.shapes), meanWinGain: num }), SWEEP_CAPS.proposal),
    startedAt: isoTime,
    durationMs: nonNegative,
  },
  sweepCells,
);

const calibration = obj({
  ...stamps,
  adapter,
  adapterFingerprint: text,
  copyGBps: nonNegative,
  f32Gflops: nonNegative,
  f16Gflops: nullable(nonNegative),
  int8Gops: optional(nullable(nonNegative)),
  mmaGflops: optional(record(nonNegative, 8)),
  copySpread: optional(nonNegative),
  emptyDispatchNs: nonNegative,
  measuredAt: isoTime,
  details: list(text, 1000),
});

const BY_KIND: Readonly<Record<string, Check>> = Object.freeze(Object.assign(Object.create(null) as Record<string, Check>, { level1, lane, sweep, calibration }));

/** A future schema version: this page cannot read it (the caller says "use a newer lab"). */
export function isFutureSchema(v: unknown): boolean {
  const version = isPlainObject(v) ? ownValue(v, 'schemaVersion') : undefined;
  return typeof version === 'number' && version > RESULT_SCHEMA_VERSION;
}

/** The result, typed, or a ResultShapeError naming the first field that is wrong. */
export function validateResult(v: unknown): ResultJson {
  if (!isPlainObject(v)) throw new ResultShapeError(fail('the result', 'an object', v));
  const kind = ownValue(v, 'kind');
  if (!isOwnKey(BY_KIND, kind)) throw new ResultShapeError(fail('kind', `one of ${RUN_KINDS.join(', ')}`, kind));
  const version = ownValue(v, 'schemaVersion');
  if (!Number.isInteger(version) || (version as number) < 1) throw new ResultShapeError(fail('schemaVersion', 'a positive integer', version));
  if ((version as number) > RESULT_SCHEMA_VERSION) throw new ResultShapeError(`schemaVersion ${version} is newer than this lab reads (${RESULT_SCHEMA_VERSION}): open it with a newer kernel-lab`);
  const bounds = jsonBoundsProblem(v, RESULT_BOUNDS, `${kind} result`);
  if (bounds) throw new ResultShapeError(bounds);
  const error = BY_KIND[kind](v, '');
  if (error) throw new ResultShapeError(`${kind} result: ${error}`);
  return v as unknown as ResultJson;
}

/** What is wrong with an adapter descriptor (null when it fits): for runs stored without a result. */
export function checkAdapter(v: unknown, path: string): string | null {
  return jsonBoundsProblem(v, RESULT_BOUNDS, path) ?? adapter(v, path);
}
