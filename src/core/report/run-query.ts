// A Level 1 run as query parameters, both ways: `?op=MUL_MAT&shape=256x256x256&layout=…&
// schedule={…}&params=eps=1e-5&repeat=3&run=1` opens the Kernel tab on that request (and, with
// run=1, runs it), and a result gives back the query that repeats it. Pure: the page reads
// location.search through it; tests pin both directions.
import { opByName } from '../ops/registry';
import { dimsLabel, formatParam, parseDims, parseParamAssignments, parseParams } from '../ops/types';
import { parseCount } from '../input/counts';
import type { Level1Request, VariantRequest } from '../requests';
import type { LaneRequest } from '../results';
import type { ResultJson } from './json';
import { stableJson } from '../schedule/stable-json';

/** What the query names, as the Kernel form's texts (a bad value shows in the form, by name). */
export interface RunQuery {
  readonly op: string;
  readonly shape: string | null;
  readonly layout: string | null;
  /** 'auto' unless `schedule` (JSON) or `variant=native` is given. */
  readonly variant: 'auto' | 'native' | 'schedule';
  readonly scheduleText: string | null;
  /** name → value text. */
  readonly params: Readonly<Record<string, string>>;
  /** The timed runs' minimum (Level 1's --min-runs), or null for the default. */
  readonly repeat: number | null;
  /** run=1: start the run as soon as the page is ready. */
  readonly run: boolean;
}

export class RunQueryError extends Error {
  override name = 'RunQueryError';
}

/** A value as an error quotes it: a 14 KB schedule is not repeated whole. */
const short = (t: string) => (t.length > 80 ? `${t.slice(0, 80)}… (${t.length} characters)` : t);

/** null when the query names no op (the page opens as usual). */
export function parseRunQuery(search: string): RunQuery | null {
  const q = new URLSearchParams(search);
  const opText = q.get('op');
  if (!opText) return null;
  let op: string;
  try {
    op = opByName(opText).name;
  } catch (e) {
    throw new RunQueryError(`?op=${opText}: ${(e as Error).message}`);
  }
  const params: Record<string, string> = {};
  const paramsText = q.get('params');
  if (paramsText) {
    try {
      const given = parseParamAssignments(paramsText);
      // Checked against the op here, as the CLI's --param is: the form has a field per declared
      // param only, so an undeclared one (eps on ADD) would otherwise be dropped without a word.
      parseParams(op, opByName(op).params, given);
      for (const [k, v] of Object.entries(given)) params[k] = formatParam(v);
    } catch (e) {
      throw new RunQueryError(`?params=${short(paramsText)}: ${(e as Error).message}`);
    }
  }
  const repeatText = q.get('repeat');
  let repeat: number | null = null;
  try {
    // The same cap as --min-runs: a count past it is refused, never run with fewer.
    repeat = repeatText === null ? null : parseCount(repeatText, 'minRuns', '?repeat=');
  } catch (e) {
    throw new RunQueryError((e as Error).message);
  }
  const schedule = q.get('schedule');
  const variantText = q.get('variant');
  if (variantText !== null && !['auto', 'native', 'schedule'].includes(variantText)) throw new RunQueryError(`?variant=${variantText} must be auto, native or schedule`);
  const variant = schedule ? 'schedule' : ((variantText as RunQuery['variant'] | null) ?? 'auto');
  return { op, shape: q.get('shape'), layout: q.get('layout'), variant, scheduleText: schedule, params, repeat, run: q.get('run') === '1' };
}

/** The query that repeats a request (run=1 included when asked): "?op=ADD&shape=64x4&run=1". */
export function runQueryFor(req: Pick<Level1Request, 'op' | 'dims' | 'layout' | 'params' | 'variant'> & { repeat?: number }, run = true): string {
  const q = new URLSearchParams();
  q.set('op', req.op);
  q.set('shape', dimsLabel(req.dims));
  if (req.layout) q.set('layout', req.layout);
  const params = Object.entries(req.params ?? {});
  if (params.length) q.set('params', params.map(([k, v]) => `${k}=${formatParam(v)}`).join(','));
  if (req.variant.kind === 'native') q.set('variant', 'native');
  if (req.variant.kind === 'schedule') q.set('schedule', typeof req.variant.schedule === 'string' ? req.variant.schedule : stableJson(req.variant.schedule));
  if (req.repeat) q.set('repeat', String(req.repeat));
  if (run) q.set('run', '1');
  return `?${q}`;
}

/** A schedule key ('elementwise{"vectorWidth":4,…}') back to its schedule, or null if it is not one. */
function scheduleFromKey(key: string): Record<string, unknown> | null {
  const i = key.indexOf('{');
  if (i <= 0) return null;
  try {
    const knobs = JSON.parse(key.slice(i)) as unknown;
    return knobs && typeof knobs === 'object' && !Array.isArray(knobs) ? { family: key.slice(0, i), ...(knobs as Record<string, unknown>) } : null;
  } catch {
    return null;
  }
}

/** A result's dims: its own (results since caseId), else read from an older result's shape text ('4096x512 inplace' → [4096, 512]). */
function dimsOf(r: { shape: string; dims?: readonly number[] }): number[] {
  return r.dims ? [...r.dims] : parseDims(r.shape.split(' ')[0]);
}

/**
 * The request that repeats a shared result here ("run this on my GPU"): the same op, case and
 * kernel — the exact schedule it ran, not this adapter's pick — or, for a lane, the same pairs,
 * shapes and statistics settings. null for kinds that do not re-run from a link (sweep,
 * calibration: their own tabs run them whole).
 */
export function rerunRequest(r: ResultJson): { kind: 'level1'; request: Level1Request } | { kind: 'lane'; request: LaneRequest } | null {
  if (r.kind === 'level1') {
    const schedule = r.schedule ?? (r.scheduleKey ? scheduleFromKey(r.scheduleKey) : null);
    const variant: VariantRequest = r.variant === 'generated' && schedule ? { kind: 'schedule', schedule } : { kind: 'native' };
    return { kind: 'level1', request: { op: r.op, dims: dimsOf(r), layout: r.layout, ...(r.params ? { params: { ...r.params } } : {}), variant } };
  }
  if (r.kind === 'lane') {
    const shapes = r.pairs.flatMap((p) => p.shapes.map((s) => ({ op: p.op, dims: dimsOf(s), layout: s.layout, ...(s.params ? { params: { ...s.params } } : {}) })));
    const s = r.settings;
    return { kind: 'lane', request: { ops: r.pairs.map((p) => p.op), shapes, repeat: s.repeat, tolerance: s.tolerance, seed: s.seed, prefer: [...s.prefer], undeclare: [...s.undeclare] } };
  }
  return null;
}
