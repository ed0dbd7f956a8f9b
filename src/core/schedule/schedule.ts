// Schedules: frozen plain data per family, a space that enumerates them, validation that
// returns reasons, and a key derived from the data (never assembled by hand).
import { DEFAULT_LIMITS, type DeviceLimits } from '../adapter';
import { familyDef, FAMILY_DEFS, type Family, type Schedule } from '../families/index';
import type { KnobSpec, LimitsView } from '../families/types';
import { checkScheduleInput, checkSpaceInput, type InputCheck } from '../input/schedule-input';

export type { ElementwiseSchedule } from '../families/elementwise';
export type { NormSchedule } from '../families/norm';
export type { MatmulSchedule } from '../families/matmul';
export type { GemvSchedule } from '../families/gemv';
export type { SgmatrixSchedule } from '../families/sgmatrix';
export type { Family, Schedule } from '../families/index';
export { scheduleKey } from '../families/types';
export type { KnobSpec } from '../families/types';

export class ScheduleError extends Error {
  override name = 'ScheduleError';
}

/** The knobs of each family and the values the sweep enumerates (from the family files). */
export const SPACES: Readonly<Record<Family, Readonly<Record<string, KnobSpec>>>> = Object.freeze(
  Object.fromEntries(Object.entries(FAMILY_DEFS).map(([name, def]) => [name, def.space])) as Record<Family, Readonly<Record<string, KnobSpec>>>,
);

export const FAMILIES = Object.keys(FAMILY_DEFS) as Family[];

/**
 * The object a checked schedule or space input holds (JSON text parsed), or the ScheduleError
 * naming what is wrong: the check's error, text that is not JSON, or JSON that is no object.
 */
function jsonObject(checked: InputCheck, what: string, notObject: string): Record<string, unknown> {
  if ('error' in checked) throw new ScheduleError(checked.error);
  let value: unknown = checked.value;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch (e) {
      throw new ScheduleError(`${what} is not valid JSON: ${(e as Error).message}`);
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ScheduleError(notObject);
  return value as Record<string, unknown>;
}

/** Whether `v` is a whole number a numeric knob takes (at least its `min`, else 1), and how to say what it takes. */
const numericOk = (spec: KnobSpec, v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= (spec.min ?? 1);
const numericWants = (spec: KnobSpec) => ((spec.min ?? 1) === 1 ? 'a positive integer' : `an integer ≥ ${spec.min}`);

/**
 * Checks a value from JSON (the page's editor, the CLI's --schedule) knob by knob and
 * returns a frozen schedule, or throws naming the first thing that is wrong.
 */
export function parseSchedule(input: unknown, expectFamily?: Family | readonly Family[]): Schedule {
  // own keys only, bounded, not empty
  const obj = jsonObject(checkScheduleInput(input, SPACES), 'schedule', 'a schedule is a JSON object such as {"family":"elementwise",…}');
  const family = obj.family;
  if (typeof family !== 'string' || !(family in SPACES)) {
    throw new ScheduleError(`schedule family ${JSON.stringify(family)} is not one of ${FAMILIES.join(', ')}`);
  }
  const expected = expectFamily === undefined ? [] : typeof expectFamily === 'string' ? [expectFamily] : expectFamily;
  if (expected.length && !expected.includes(family as Family)) throw new ScheduleError(`this op takes a ${expected.map((f) => `'${f}'`).join(' or ')} schedule, not '${family}'`);
  const space = SPACES[family as Family];
  for (const key of Object.keys(obj)) {
    if (key !== 'family' && !(key in space)) throw new ScheduleError(`unknown knob '${key}' for family ${family} (knobs: ${Object.keys(space).join(', ')})`);
  }
  const out: Record<string, unknown> = { family };
  for (const [knob, spec] of Object.entries(space)) {
    const v = obj[knob] ?? spec.default;
    if (v === undefined) throw new ScheduleError(`schedule is missing '${knob}' (${spec.doc}; e.g. ${spec.values.join(', ')})`);
    if (typeof spec.values[0] === 'number') {
      if (!numericOk(spec, v)) throw new ScheduleError(`'${knob}' must be ${numericWants(spec)}, got ${JSON.stringify(v)}`);
    } else if (!spec.values.includes(v as string)) {
      throw new ScheduleError(`'${knob}' must be one of ${spec.values.map((x) => JSON.stringify(x)).join(', ')}, got ${JSON.stringify(v)}`);
    }
    if (!(spec.omitDefault && v === spec.default)) out[knob] = v;
  }
  return Object.freeze(out) as unknown as Schedule;
}

/** Knob → the values to try: a restriction of a family's space. */
export type SpaceRestriction = Record<string, (number | string)[]>;

/**
 * Every combination of the family's knob values — each knob's `sweep` subset where it has one —
 * (valid or not: validate() sorts them); knobs in `restrict` take its values instead (the sweep's --space).
 */
export function enumerateSpace(family: Family, restrict: SpaceRestriction = {}): Schedule[] {
  let combos: Record<string, unknown>[] = [{ family }];
  for (const [knob, spec] of Object.entries(SPACES[family])) {
    combos = combos.flatMap((c) => (restrict[knob] ?? spec.sweep ?? spec.values).map((v) => (spec.omitDefault && v === spec.default ? c : { ...c, [knob]: v })));
  }
  return combos.map((c) => Object.freeze(c) as unknown as Schedule);
}

/** The family's space as an unrestricted sweep enumerates it, as JSON text, one knob per line (the editors' starting point). */
export function spaceText(family: Family): string {
  const lines = Object.entries(SPACES[family]).map(([knob, spec]) => `  ${JSON.stringify(knob)}: ${JSON.stringify(spec.sweep ?? spec.values)}`);
  return `{\n${lines.join(',\n')}\n}`;
}

/** A space restriction from JSON (text or parsed), checked knob by knob and value by value. */
export function parseSpace(input: unknown, family: Family): SpaceRestriction {
  // own keys only, bounded, not empty
  const value = jsonObject(checkSpaceInput(input, SPACES[family], family), 'space', 'space is a JSON object of knob → list of values, e.g. {"workgroupSize": [64, 256]}');
  const full = SPACES[family];
  for (const [knob, values] of Object.entries(value)) {
    if (!(knob in full)) throw new ScheduleError(`unknown knob '${knob}' for family ${family} (knobs: ${Object.keys(full).join(', ')})`);
    if (!Array.isArray(values) || !values.length) throw new ScheduleError(`space.${knob} must be a non-empty list`);
    const numeric = typeof full[knob].values[0] === 'number';
    for (const v of values) {
      if (numeric ? !numericOk(full[knob], v) : !full[knob].values.includes(v as string)) {
        throw new ScheduleError(`space.${knob}: ${JSON.stringify(v)} is not ${numeric ? numericWants(full[knob]) : `one of ${full[knob].values.map((x) => JSON.stringify(x)).join(', ')}`}`);
      }
    }
  }
  return value as SpaceRestriction;
}

/**
 * A space for an op that takes several families: an optional `"family": "gemv"` picks which
 * (default: the first), the other knobs are that family's. The restriction keeps the family as
 * `family: [name]`.
 */
export function parseOpSpace(input: unknown, families: readonly Family[]): { family: Family; restrict: SpaceRestriction } {
  let value = input ?? {};
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch (e) {
      throw new ScheduleError(`space is not valid JSON: ${(e as Error).message}`);
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { family: families[0], restrict: parseSpace(value, families[0]) };
  const { family: given, ...rest } = value as Record<string, unknown>;
  const name = Array.isArray(given) && given.length === 1 ? given[0] : given;
  if (name !== undefined && !families.includes(name as Family)) throw new ScheduleError(`space.family ${JSON.stringify(given)} is not one this op takes (${families.join(', ')})`);
  const family = (name as Family | undefined) ?? families[0];
  const restrict = parseSpace(rest, family);
  return { family, restrict: family === families[0] ? restrict : { family: [family], ...restrict } };
}

/** Threads per workgroup a schedule launches. */
export function threadsPerWorkgroup(s: Schedule): number {
  return familyDef(s.family).threads(s);
}

/** Workgroup memory a schedule declares, in bytes. */
export function workgroupStorageBytes(s: Schedule): number {
  return familyDef(s.family).workgroupBytes(s);
}

/**
 * Reasons this schedule cannot run on this adapter (empty when it can). Each reason names
 * the knob and the limit, so a refusal says what to change. The shared checks are here; each
 * family adds its own.
 */
/**
 * The limits a schedule needs above WebGPU's defaults (what a shape rule declares in `limits`):
 * its threads per workgroup and its workgroup memory, where they exceed DEFAULT_LIMITS.
 */
export function limitsNeeded(s: Schedule): Partial<DeviceLimits> {
  const def = familyDef(s.family);
  const out: { -readonly [K in keyof DeviceLimits]?: number } = {};
  const threads = def.threads(s);
  if (threads > DEFAULT_LIMITS.maxComputeInvocationsPerWorkgroup) out.maxComputeInvocationsPerWorkgroup = threads;
  const x = def.threadsX?.(s) ?? 0;
  if (x > DEFAULT_LIMITS.maxComputeWorkgroupSizeX) out.maxComputeWorkgroupSizeX = x;
  const bytes = def.workgroupBytes(s);
  if (bytes > DEFAULT_LIMITS.maxComputeWorkgroupStorageSize) out.maxComputeWorkgroupStorageSize = bytes;
  return out;
}

export function validateSchedule(s: Schedule, adapter: LimitsView): string[] {
  const def = familyDef(s.family);
  const reasons: string[] = [];
  const { limits } = adapter;
  const threads = def.threads(s);
  const vw = (s as { vectorWidth?: number }).vectorWidth;
  if (vw !== undefined && ![1, 2, 4].includes(vw)) reasons.push(`vectorWidth ${vw} is not 1, 2 or 4 (WGSL vectors)`);
  if (threads > limits.maxComputeInvocationsPerWorkgroup) reasons.push(`${def.threadsText(s)} exceeds maxComputeInvocationsPerWorkgroup ${limits.maxComputeInvocationsPerWorkgroup}`);
  const x = def.threadsX?.(s) ?? 0;
  if (x > limits.maxComputeWorkgroupSizeX) reasons.push(`${def.threadsText(s)} exceeds maxComputeWorkgroupSizeX ${limits.maxComputeWorkgroupSizeX}`);
  const storage = def.workgroupBytes(s);
  if (storage > limits.maxComputeWorkgroupStorageSize) reasons.push(`workgroup memory ${storage} B exceeds maxComputeWorkgroupStorageSize ${limits.maxComputeWorkgroupStorageSize}`);
  return [...reasons, ...def.validate(s, adapter)];
}
