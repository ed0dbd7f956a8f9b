// Structural validation of a result JSON that came from outside this page (a share link, an
// imported file): every field a view reads is checked, and an error names the path and what
// was wrong. Extra fields are allowed: a newer lab of the same schema version may add some.
import { LabError } from '../errors';
import { RESULT_SCHEMA_VERSION, RUN_KINDS, type ResultJson } from './json';

export class ResultShapeError extends LabError {
  override name = 'ResultShapeError';
}

/** A check returns null when the value fits, else what is wrong (the path is added by the caller). */
type Check = (v: unknown, path: string) => string | null;

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'string') return `'${v.length > 40 ? `${v.slice(0, 40)}…` : v}'`;
  return typeof v === 'object' ? 'an object' : `${typeof v} ${String(v)}`;
}

const fail = (path: string, want: string, v: unknown) => `${path}: expected ${want}, got ${describe(v)}`;

const str: Check = (v, p) => (typeof v === 'string' ? null : fail(p, 'a string', v));
const bool: Check = (v, p) => (typeof v === 'boolean' ? null : fail(p, 'true or false', v));
/** JSON has no NaN or Infinity: a number here is always finite. */
const num: Check = (v, p) => (typeof v === 'number' && Number.isFinite(v) ? null : fail(p, 'a finite number', v));
const nonNegative: Check = (v, p) => num(v, p) ?? ((v as number) >= 0 ? null : fail(p, 'a number ≥ 0', v));
const any: Check = () => null;

function nullable(c: Check): Check {
  return (v, p) => (v === null ? null : c(v, p));
}

function optional(c: Check): Check {
  return (v, p) => (v === undefined ? null : c(v, p));
}

function oneOf(values: readonly string[]): Check {
  return (v, p) => (typeof v === 'string' && values.includes(v) ? null : fail(p, `one of ${values.join(', ')}`, v));
}

function list(item: Check, maxItems = 100_000): Check {
  return (v, p) => {
    if (!Array.isArray(v)) return fail(p, 'a list', v);
    if (v.length > maxItems) return `${p}: more than ${maxItems} items`;
    for (let i = 0; i < v.length; i++) {
      const e = item(v[i], `${p}[${i}]`);
      if (e) return e;
    }
    return null;
  };
}

function record(value: Check): Check {
  return (v, p) => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return fail(p, 'an object', v);
    for (const [k, x] of Object.entries(v)) {
      const e = value(x, `${p}.${k}`);
      if (e) return e;
    }
    return null;
  };
}

function obj(fields: Record<string, Check>): Check {
  return (v, p) => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return fail(p, 'an object', v);
    for (const [k, c] of Object.entries(fields)) {
      const e = c((v as Record<string, unknown>)[k], p ? `${p}.${k}` : k);
      if (e) return e;
    }
    return null;
  };
}

const adapter = obj({
  vendor: str,
  architecture: str,
  device: str,
  description: str,
  isFallbackAdapter: bool,
  runtime: oneOf(['browser', 'node']),
  features: list(str, 256),
  limits: record(num),
});

/** ISO-8601 timestamps only: the history orders runs by them. */
const isoTime: Check = (v, p) => str(v, p) ?? (Number.isFinite(Date.parse(v as string)) ? null : fail(p, 'an ISO date', v));

const stamps = {
  schemaVersion: num,
  labVersion: optional(str),
  codeHash: optional(str),
};

const fallback = nullable(obj({ code: str, reason: str }));

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

const SHAPE_VERDICTS = ['faster', 'parity', 'within-tolerance', 'slower', 'too-slow', 'wrong', 'declared-fallback', 'undeclared-fallback', 'device-rejection'];
const PROMOTION_STATES = ['native-only', 'observe', 'prefer', 'retired'];

const level1 = obj({
  ...stamps,
  op: str,
  shape: str,
  layout: str,
  label: optional(str),
  params: optional(record(num)),
  variant: oneOf(['native', 'generated']),
  scheduleKey: nullable(str),
  fallback,
  correct: bool,
  maxErr: nullable(num),
  bound: nullable(num),
  correctness: obj({ worstRatio: nullable(num), elements: nonNegative, outOfBound: nonNegative, nonFinite: nonNegative, guardViolations: nonNegative, failures: list(str, 1000) }),
  timing: nullable(obj({ runs: nonNegative, minNs: nonNegative, medianNs: nonNegative, maxNs: nonNegative, resolutionNs: nonNegative, method: oneOf(['timestamp', 'timestamp-grouped', 'wallclock']), spanShort: bool, note: str })),
  flops: nullable(nonNegative),
  readBytes: nonNegative,
  writeBytes: nonNegative,
  metrics,
  dispatch: list(nonNegative, 3),
  adapter,
  startedAt: isoTime,
});

const laneShape = obj({
  shape: str,
  layout: str,
  params: optional(record(num)),
  scheduleKey: nullable(str),
  nativeMedianNs: nullable(nonNegative),
  generatedMedianNs: nullable(nonNegative),
  speedupMedian: nullable(nonNegative),
  speedupMin: nullable(nonNegative),
  speedupMax: nullable(nonNegative),
  speedups: list(nonNegative, 10_000),
  verdict: oneOf(SHAPE_VERDICTS),
  fallback: nullable(obj({ code: str, reason: str, declared: bool })),
  note: nullable(str),
  nativeMetrics: metrics,
  generatedMetrics: metrics,
});

const lane = obj({
  ...stamps,
  adapter,
  settings: obj({ repeat: nonNegative, tolerance: nonNegative, seed: num, prefer: list(str, 100), undeclare: list(str, 100), control: optional(nullable(str)) }),
  pairs: list(
    obj({
      op: str,
      state: oneOf(PROMOTION_STATES),
      registryState: oneOf(PROMOTION_STATES),
      gating: bool,
      counters: obj({ generatedDispatches: nonNegative, nativeFallbacks: record(nonNegative), deviceRejections: nonNegative }),
      shapes: list(laneShape, 1000),
      checklist: list(obj({ id: str, title: str, pass: bool, evidence: str }), 100),
      verdict: oneOf(['green', 'gate-failed', 'lane-failed', 'work-items']),
    }),
    100,
  ),
  skipped: list(obj({ op: str, reason: str }), 100),
  green: bool,
  startedAt: isoTime,
  durationMs: nonNegative,
});

const sweep = obj({
  ...stamps,
  op: str,
  adapter,
  settings: obj({ reps: nonNegative, seed: num, space: record(list(any)) }),
  shapes: list(str, 1000),
  excludedShapes: list(obj({ shape: str, reason: str }), 1000),
  reference: list(obj({ shape: str, variant: str, medianNs: nonNegative, spread: nonNegative }), 1000),
  candidates: list(
    obj({
      key: str,
      schedule: record(any),
      status: oneOf(['accepted', 'noise', 'slower', 'no-rule', 'wrong', 'too-slow', 'invalid', 'device-rejection']),
      reason: str,
      shapes: list(obj({ shape: str, medianNs: nullable(nonNegative), spread: nullable(nonNegative), gain: nullable(num), outcome: nullable(oneOf(['win', 'lose', 'noise', 'unfit'])), metrics })),
      rule: nullable(list(record(any))),
      meanWinGain: nullable(num),
    }),
  ),
  proposal: list(obj({ schedule: record(any), when: list(record(any)), covers: list(str), meanWinGain: num })),
  startedAt: isoTime,
  durationMs: nonNegative,
});

const calibration = obj({
  ...stamps,
  adapter,
  adapterFingerprint: str,
  copyGBps: nonNegative,
  f32Gflops: nonNegative,
  f16Gflops: nullable(nonNegative),
  int8Gops: optional(nullable(nonNegative)),
  copySpread: optional(nonNegative),
  emptyDispatchNs: nonNegative,
  measuredAt: isoTime,
  details: list(str, 1000),
});

const BY_KIND: Record<string, Check> = { level1, lane, sweep, calibration };

/** A future schema version: this page cannot read it (the caller says "use a newer lab"). */
export function isFutureSchema(v: unknown): boolean {
  const version = (v as { schemaVersion?: unknown } | null)?.schemaVersion;
  return typeof version === 'number' && version > RESULT_SCHEMA_VERSION;
}

/** The result, typed, or a ResultShapeError naming the first field that is wrong. */
export function validateResult(v: unknown): ResultJson {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new ResultShapeError(fail('the result', 'an object', v));
  const kind = (v as { kind?: unknown }).kind;
  if (typeof kind !== 'string' || !BY_KIND[kind]) throw new ResultShapeError(fail('kind', `one of ${RUN_KINDS.join(', ')}`, kind));
  const version = (v as { schemaVersion?: unknown }).schemaVersion;
  if (!Number.isInteger(version) || (version as number) < 1) throw new ResultShapeError(fail('schemaVersion', 'a positive integer', version));
  if ((version as number) > RESULT_SCHEMA_VERSION) throw new ResultShapeError(`schemaVersion ${version} is newer than this lab reads (${RESULT_SCHEMA_VERSION}): open it with a newer kernel-lab`);
  const error = BY_KIND[kind](v, '');
  if (error) throw new ResultShapeError(`${kind} result: ${error}`);
  return v as ResultJson;
}

/** What is wrong with an adapter descriptor (null when it fits): for runs stored without a result. */
export function checkAdapter(v: unknown, path: string): string | null {
  return adapter(v, path);
}
