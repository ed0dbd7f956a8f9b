// Schedules: frozen plain data per family, a space that enumerates them, validation that
// returns reasons, and a key derived from the data (never assembled by hand).
import type { AdapterDescriptor } from '../adapter';
import { checkScheduleInput, checkSpaceInput } from '../input/schedule-input';
import { stableJson } from './stable-json';

export interface ElementwiseSchedule {
  readonly family: 'elementwise';
  readonly workgroupSize: number;
  /** Consecutive vectors each thread handles, a grid-stride apart (so loads stay coalesced). */
  readonly elementsPerThread: number;
  /** 1, 2 or 4: elements per load/store. */
  readonly vectorWidth: number;
}

export interface NormSchedule {
  readonly family: 'norm';
  /** Threads per row (one workgroup per row); a power of two. */
  readonly workgroupSize: number;
  readonly vectorWidth: number;
  /** How the row's partial sums meet: a shared-memory tree, or subgroupAdd then a shared step. */
  readonly reduction: 'shared' | 'subgroup';
  /** Independent loads in flight per loop iteration. */
  readonly unroll: number;
}

export interface MatmulSchedule {
  readonly family: 'matmul';
  /** Output tile per workgroup along M (dst ne0) and N (dst ne1). */
  readonly tileM: number;
  readonly tileN: number;
  /** K slice staged in workgroup memory per step. */
  readonly tileK: number;
  /** Register block per thread. */
  readonly threadM: number;
  readonly threadN: number;
  /** 1 or 4: vec4 loads along K and vec4 accumulators along M. */
  readonly vectorWidth: number;
  /**
   * How K tiles reach workgroup memory: 'single' loads, stores, computes; 'prefetch' issues the
   * next tile's global loads into registers before computing the current one (hides their
   * latency, no extra memory); 'double' also stores them into a second buffer (one barrier
   * per tile, twice the workgroup memory).
   */
  readonly staging: 'single' | 'prefetch' | 'double';
}

export type Schedule = ElementwiseSchedule | NormSchedule | MatmulSchedule;
export type Family = Schedule['family'];

export class ScheduleError extends Error {
  override name = 'ScheduleError';
}

interface KnobSpec {
  readonly values: readonly (number | string)[];
  readonly doc: string;
  /** For a knob added later: what schedules written before it (saved results, links) meant. */
  readonly default?: number | string;
}

/** The knobs of each family and the values the sweep enumerates. */
export const SPACES: Readonly<Record<Family, Readonly<Record<string, KnobSpec>>>> = Object.freeze({
  elementwise: {
    workgroupSize: { values: [64, 128, 256, 512], doc: 'threads per workgroup' },
    elementsPerThread: { values: [1, 2, 4, 8], doc: 'vectors per thread, a grid-stride apart' },
    vectorWidth: { values: [1, 2, 4], doc: 'elements per load and store' },
  },
  norm: {
    workgroupSize: { values: [32, 64, 128, 256, 512, 1024], doc: 'threads per row (power of two)' },
    vectorWidth: { values: [1, 4], doc: 'elements per load and store' },
    reduction: { values: ['shared', 'subgroup'], doc: 'shared-memory tree, or subgroupAdd then shared' },
    unroll: { values: [1, 2], doc: 'independent loads per loop iteration' },
  },
  matmul: {
    tileM: { values: [32, 64, 128], doc: 'output tile along M per workgroup' },
    tileN: { values: [32, 64, 128], doc: 'output tile along N per workgroup' },
    tileK: { values: [8, 16, 32], doc: 'K slice staged in workgroup memory' },
    threadM: { values: [4, 8], doc: 'register block along M per thread' },
    threadN: { values: [4, 8], doc: 'register block along N per thread' },
    vectorWidth: { values: [1, 4], doc: 'vec4 loads along K and vec4 accumulators along M' },
    staging: { values: ['single', 'prefetch', 'double'], doc: 'K-tile staging: single buffer, register prefetch, or double-buffered workgroup memory', default: 'single' },
  },
});

export const FAMILIES = Object.keys(SPACES) as Family[];

/** The derived, stable identity of a schedule: 'matmul{"threadM":8,…}'. */
export function scheduleKey(s: Schedule): string {
  const { family, ...knobs } = s;
  return `${family}${stableJson(knobs)}`;
}

/**
 * Checks a value from JSON (the page's editor, the CLI's --schedule) knob by knob and
 * returns a frozen schedule, or throws naming the first thing that is wrong.
 */
export function parseSchedule(input: unknown, expectFamily?: Family): Schedule {
  const checked = checkScheduleInput(input, SPACES); // own keys only, bounded, not empty
  if ('error' in checked) throw new ScheduleError(checked.error);
  let value: unknown = checked.value;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch (e) {
      throw new ScheduleError(`schedule is not valid JSON: ${(e as Error).message}`);
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ScheduleError('a schedule is a JSON object such as {"family":"elementwise",…}');
  const obj = value as Record<string, unknown>;
  const family = obj.family;
  if (typeof family !== 'string' || !(family in SPACES)) {
    throw new ScheduleError(`schedule family ${JSON.stringify(family)} is not one of ${FAMILIES.join(', ')}`);
  }
  if (expectFamily && family !== expectFamily) throw new ScheduleError(`this op takes a '${expectFamily}' schedule, not '${family}'`);
  const space = SPACES[family as Family];
  for (const key of Object.keys(obj)) {
    if (key !== 'family' && !(key in space)) throw new ScheduleError(`unknown knob '${key}' for family ${family} (knobs: ${Object.keys(space).join(', ')})`);
  }
  const out: Record<string, unknown> = { family };
  for (const [knob, spec] of Object.entries(space)) {
    const v = obj[knob] ?? spec.default;
    if (v === undefined) throw new ScheduleError(`schedule is missing '${knob}' (${spec.doc}; e.g. ${spec.values.join(', ')})`);
    if (typeof spec.values[0] === 'number') {
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw new ScheduleError(`'${knob}' must be a positive integer, got ${JSON.stringify(v)}`);
    } else if (!spec.values.includes(v as string)) {
      throw new ScheduleError(`'${knob}' must be one of ${spec.values.map((x) => JSON.stringify(x)).join(', ')}, got ${JSON.stringify(v)}`);
    }
    out[knob] = v;
  }
  return Object.freeze(out) as unknown as Schedule;
}

/** Knob → the values to try: a restriction of a family's space. */
export type SpaceRestriction = Record<string, (number | string)[]>;

/**
 * Every combination of the family's knob values (valid or not: validate() sorts them); knobs in
 * `restrict` take its values instead (the sweep's --space).
 */
export function enumerateSpace(family: Family, restrict: SpaceRestriction = {}): Schedule[] {
  let combos: Record<string, unknown>[] = [{ family }];
  for (const [knob, spec] of Object.entries(SPACES[family])) {
    combos = combos.flatMap((c) => (restrict[knob] ?? spec.values).map((v) => ({ ...c, [knob]: v })));
  }
  return combos.map((c) => Object.freeze(c) as unknown as Schedule);
}

/** The family's whole space as JSON text, one knob per line (the editors' starting point). */
export function spaceText(family: Family): string {
  const lines = Object.entries(SPACES[family]).map(([knob, spec]) => `  ${JSON.stringify(knob)}: ${JSON.stringify(spec.values)}`);
  return `{\n${lines.join(',\n')}\n}`;
}

/** A space restriction from JSON (text or parsed), checked knob by knob and value by value. */
export function parseSpace(input: unknown, family: Family): SpaceRestriction {
  const checked = checkSpaceInput(input, SPACES[family], family); // own keys only, bounded, not empty
  if ('error' in checked) throw new ScheduleError(checked.error);
  let value: unknown = checked.value;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch (e) {
      throw new ScheduleError(`space is not valid JSON: ${(e as Error).message}`);
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ScheduleError('space is a JSON object of knob → list of values, e.g. {"workgroupSize": [64, 256]}');
  const full = SPACES[family];
  for (const [knob, values] of Object.entries(value as Record<string, unknown>)) {
    if (!(knob in full)) throw new ScheduleError(`unknown knob '${knob}' for family ${family} (knobs: ${Object.keys(full).join(', ')})`);
    if (!Array.isArray(values) || !values.length) throw new ScheduleError(`space.${knob} must be a non-empty list`);
    const numeric = typeof full[knob].values[0] === 'number';
    for (const v of values) {
      if (numeric ? !(typeof v === 'number' && Number.isInteger(v) && v > 0) : !full[knob].values.includes(v as string)) {
        throw new ScheduleError(`space.${knob}: ${JSON.stringify(v)} is not ${numeric ? 'a positive integer' : `one of ${full[knob].values.map((x) => JSON.stringify(x)).join(', ')}`}`);
      }
    }
  }
  return value as SpaceRestriction;
}

function isPow2(n: number): boolean {
  return n > 0 && (n & (n - 1)) === 0;
}

/** Threads per workgroup a schedule launches. */
export function threadsPerWorkgroup(s: Schedule): number {
  if (s.family === 'matmul') return (s.tileM / s.threadM) * (s.tileN / s.threadN);
  return s.workgroupSize;
}

/** Workgroup memory a schedule declares, in bytes. */
export function workgroupStorageBytes(s: Schedule): number {
  switch (s.family) {
    case 'elementwise':
      return 0;
    case 'norm':
      // Two f32 partials per thread (RMS_NORM_BACK reduces two sums at once).
      return s.workgroupSize * 2 * 4;
    case 'matmul':
      return (s.tileM + s.tileN) * s.tileK * 4 * (s.staging === 'double' ? 2 : 1);
  }
}

type LimitsView = Pick<AdapterDescriptor, 'limits' | 'features'>;

/**
 * Reasons this schedule cannot run on this adapter (empty when it can). Each reason names
 * the knob and the limit, so a refusal says what to change.
 */
export function validateSchedule(s: Schedule, adapter: LimitsView): string[] {
  const reasons: string[] = [];
  const { limits } = adapter;
  const threads = threadsPerWorkgroup(s);
  const vw = s.vectorWidth;
  if (![1, 2, 4].includes(vw)) reasons.push(`vectorWidth ${vw} is not 1, 2 or 4 (WGSL vectors)`);
  if (threads > limits.maxComputeInvocationsPerWorkgroup) {
    reasons.push(`${s.family === 'matmul' ? `(tileM/threadM)·(tileN/threadN) = ${threads} threads` : `workgroupSize ${threads}`} exceeds maxComputeInvocationsPerWorkgroup ${limits.maxComputeInvocationsPerWorkgroup}`);
  }
  const storage = workgroupStorageBytes(s);
  if (storage > limits.maxComputeWorkgroupStorageSize) {
    reasons.push(`workgroup memory ${storage} B exceeds maxComputeWorkgroupStorageSize ${limits.maxComputeWorkgroupStorageSize}`);
  }
  switch (s.family) {
    case 'elementwise':
      if (s.workgroupSize > limits.maxComputeWorkgroupSizeX) reasons.push(`workgroupSize ${s.workgroupSize} exceeds maxComputeWorkgroupSizeX ${limits.maxComputeWorkgroupSizeX}`);
      if (s.elementsPerThread > 64) reasons.push(`elementsPerThread ${s.elementsPerThread} exceeds 64`);
      break;
    case 'norm':
      if (!isPow2(s.workgroupSize)) reasons.push(`workgroupSize ${s.workgroupSize} is not a power of two (the tree reduction halves it)`);
      if (s.workgroupSize > limits.maxComputeWorkgroupSizeX) reasons.push(`workgroupSize ${s.workgroupSize} exceeds maxComputeWorkgroupSizeX ${limits.maxComputeWorkgroupSizeX}`);
      if (s.reduction === 'subgroup' && !adapter.features.includes('subgroups')) reasons.push(`reduction 'subgroup' needs the 'subgroups' feature, which this adapter lacks`);
      if (s.unroll > 8) reasons.push(`unroll ${s.unroll} exceeds 8`);
      break;
    case 'matmul': {
      if (s.tileM % s.threadM) reasons.push(`tileM ${s.tileM} is not a multiple of threadM ${s.threadM}`);
      if (s.tileN % s.threadN) reasons.push(`tileN ${s.tileN} is not a multiple of threadN ${s.threadN}`);
      if (vw === 2) reasons.push('vectorWidth 2 is not offered for matmul (1 or 4)');
      if (vw === 4 && s.threadM % 4) reasons.push(`vectorWidth 4 needs threadM a multiple of 4, got ${s.threadM}`);
      if (vw === 4 && s.tileK % 4) reasons.push(`vectorWidth 4 needs tileK a multiple of 4, got ${s.tileK}`);
      const tx = s.tileM / s.threadM;
      if (tx > limits.maxComputeWorkgroupSizeX) reasons.push(`tileM/threadM = ${tx} exceeds maxComputeWorkgroupSizeX ${limits.maxComputeWorkgroupSizeX}`);
      const ty = s.tileN / s.threadN;
      if (ty > limits.maxComputeWorkgroupSizeY) reasons.push(`tileN/threadN = ${ty} exceeds maxComputeWorkgroupSizeY ${limits.maxComputeWorkgroupSizeY}`);
      if (s.threadM * s.threadN > 128) reasons.push(`threadM·threadN = ${s.threadM * s.threadN} accumulators per thread exceeds 128 (registers spill)`);
      break;
    }
  }
  return reasons;
}
