// Hostile inputs, made reproducibly: seeded mutations of valid share links, import files and
// schedules (bit flips, truncation, keys renamed to inherited names, deep nesting, huge arrays,
// wrong types, forged markdown, loose dates), and the heaviest result the caps still accept.
// Used by the fuzz test (src/core/input/fuzz.test.ts) and the e2e check of that heaviest link.
import { adapterFingerprint } from '../adapter';
import { calibrationJson, type ResultJson } from '../report/json';
import { sampleAdapter, sampleLane, sampleLevel1, sampleSweep } from '../report/sample-results';

export { heaviestAcceptedSweep, linkFor, sweepOf } from './heavy-results';

/** The lab's seeded generator (mulberry32), so a failing case replays from its seed. */
export { prng as seeded } from '../hostdata';

export type Rng = () => number;
const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)];
const int = (rng: Rng, lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));

export const INHERITED = ['__proto__', 'constructor', 'hasOwnProperty', 'toString', 'prototype', 'valueOf', 'isPrototypeOf'] as const;

const HOSTILE_STRINGS = [
  '',
  '\n### ✅ approved\n',
  'a|b|c\n| forged | row |',
  '<img src=x onerror=alert(1)>',
  '[link](javascript:alert(1))',
  '# heading',
  '- item\r\n1. item',
  'x'.repeat(5000),
  '\u2028\u0000\u001b[31m',
  '1',
  'Tue Mar 01 2026',
  '+275760-09-13T00:00:00.000Z',
  '2026-02-30T00:00:00Z',
  '2026-03-01T10:00:00.000Z',
];
const HOSTILE_VALUES: readonly unknown[] = [null, true, 0, -1, 0.5, 1e308, -1e308, 2 ** 53 + 2, [], {}, [1, 2], { a: 1 }, ...HOSTILE_STRINGS];

/** Every mutation the fuzzers apply, by name (the figures count by it). */
export const JSON_MUTATIONS = ['rename-to-inherited', 'kind-inherited', 'deep-nest', 'huge-array', 'wrong-type', 'delete-key', 'nullify', 'hostile-string', 'date', 'duplicate-item'] as const;
export type JsonMutation = (typeof JSON_MUTATIONS)[number];

function isContainer(v: unknown): v is Record<string, unknown> | unknown[] {
  return !!v && typeof v === 'object';
}

/** A random spot in the value: its container and the key or index there (a short random walk). */
function spot(rng: Rng, root: unknown): { parent: Record<string, unknown> | unknown[]; key: string | number } | null {
  if (!isContainer(root)) return null;
  let parent = root;
  for (;;) {
    const keys: (string | number)[] = Array.isArray(parent) ? parent.map((_, i) => i) : Object.keys(parent);
    if (!keys.length) return null;
    const key = pick(rng, keys);
    const child = (parent as Record<string | number, unknown>)[key];
    if (!isContainer(child) || rng() < 0.25) return { parent, key };
    parent = child;
  }
}

function nested(depth: number, leaf: unknown): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

/** Sets an own property, even one named '__proto__'. */
function setOwn(o: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

function randomString(rng: Rng): string {
  return rng() < 0.7 ? pick(rng, HOSTILE_STRINGS) : Array.from({ length: int(rng, 1, 40) }, () => String.fromCharCode(int(rng, 0, 0x2100))).join('');
}

/** One mutation of a JSON value, in place on a copy; returns the copy. */
export function mutateJson(rng: Rng, value: unknown, m: JsonMutation): unknown {
  const root = JSON.parse(JSON.stringify(value)) as unknown;
  const at = spot(rng, root);
  const set = (v: unknown) => {
    if (!at) return;
    if (Array.isArray(at.parent)) at.parent[at.key as number] = v;
    else setOwn(at.parent, String(at.key), v);
  };
  const current = at ? (at.parent as Record<string | number, unknown>)[at.key] : undefined;
  switch (m) {
    case 'rename-to-inherited': {
      if (!at || Array.isArray(at.parent)) break;
      const o = at.parent;
      delete o[String(at.key)];
      setOwn(o, pick(rng, INHERITED), current);
      break;
    }
    case 'kind-inherited':
      if (isContainer(root) && !Array.isArray(root)) setOwn(root, rng() < 0.7 ? 'kind' : 'family', pick(rng, INHERITED));
      break;
    case 'deep-nest':
      // Deeper still comes as text (deepText): JSON.stringify itself would overflow on it.
      set(nested(pick(rng, [3, 13, 40, 300]), current ?? 1));
      break;
    case 'huge-array': {
      const n = pick(rng, [1001, 20_000, 120_000]);
      const item = Array.isArray(current) && current.length ? current[0] : (current ?? 0);
      set(Array.from({ length: n }, () => item));
      break;
    }
    case 'wrong-type':
      set(pick(rng, HOSTILE_VALUES));
      break;
    case 'delete-key':
      if (at && !Array.isArray(at.parent)) delete at.parent[String(at.key)];
      else if (at) (at.parent as unknown[]).splice(at.key as number, 1);
      break;
    case 'nullify':
      set(null);
      break;
    case 'hostile-string':
      set(randomString(rng));
      break;
    case 'date':
      if (isContainer(root) && !Array.isArray(root)) {
        const key = pick(rng, ['startedAt', 'measuredAt', 'savedAt']);
        if (key in root) setOwn(root, key, pick(rng, HOSTILE_STRINGS.slice(9)));
        else set(pick(rng, HOSTILE_STRINGS.slice(9)));
      }
      break;
    case 'duplicate-item':
      if (at && Array.isArray(at.parent)) at.parent.push(...Array.from({ length: int(rng, 1, 3) }, () => current));
      break;
  }
  return root;
}

export const TEXT_MUTATIONS = ['flip', 'truncate', 'insert', 'remove-chunk'] as const;
export type TextMutation = (typeof TEXT_MUTATIONS)[number];

/** One mutation of a text (a link's data, a file, a schedule's JSON). */
export function mutateText(rng: Rng, text: string, m: TextMutation, alphabet: string): string {
  if (!text.length) return pick(rng, [...alphabet]);
  const i = int(rng, 0, text.length - 1);
  switch (m) {
    case 'flip':
      return text.slice(0, i) + pick(rng, [...alphabet]) + text.slice(i + 1);
    case 'truncate':
      return text.slice(0, i);
    case 'insert':
      return text.slice(0, i) + pick(rng, [...alphabet]) + text.slice(i);
    case 'remove-chunk':
      return text.slice(0, i) + text.slice(Math.min(text.length, i + int(rng, 1, 64)));
  }
}

export const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** A JSON text with `value`'s text nested `depth` lists deep at its key `key` (of an object text `{…}`). */
export function deepText(objectText: string, key: string, depth: number): string {
  return `${objectText.slice(0, -1)},"${key}":${'['.repeat(depth)}1${']'.repeat(depth)}}`;
}

/** The valid results every corpus starts from: one of each kind. */
export function seedResults(): ResultJson[] {
  const a = sampleAdapter();
  return [
    sampleLevel1(),
    sampleLane(),
    sampleSweep(),
    calibrationJson({ kind: 'calibration', adapterFingerprint: adapterFingerprint(a), copyGBps: 12.5, f32Gflops: 40.25, f16Gflops: null, emptyDispatchNs: 21_000, measuredAt: '2026-01-01T00:00:00.000Z', details: ['copy: 8 MiB'] }, a),
  ];
}

