// A small schema combinator: one definition of a stored/shared value gives its TypeScript type
// (`Infer<typeof s>`), a validator for values from outside (`s.check(v, path)`: null, or what is
// wrong, naming the path and the rule) and its JSON projection (`s.project(v)`: the declared
// fields only, in declaration order, so in-memory extras such as a kernel's WGSL never reach a
// file or a link). Objects are read through own properties only (an inherited name such as
// 'hasOwnProperty' is never a field or a key); extra fields are allowed, since a newer lab of
// the same schema version may add some.
import { describeBounded, INHERITED_NAMES, ownValue } from '../input/bounded-json';

export interface Schema<T> {
  /** null when `v` fits, else what is wrong (prefixed with `path`). */
  readonly check: (v: unknown, path: string) => string | null;
  /** The JSON form of a value of this type: declared fields only. */
  readonly project: (v: T) => T;
  /** Type carrier only (never set). */
  readonly _type?: T;
}

/** A field that may be absent; `omit` also drops present values (an empty list, a zero) from the projection. */
export interface Optional<T> extends Schema<T> {
  readonly optional: true;
  readonly omit?: (v: T) => boolean;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySchema = Schema<any>;
export type Infer<S> = S extends Schema<infer T> ? T : never;
type Fields = Record<string, AnySchema>;
type Flat<T> = { [K in keyof T]: T[K] } & {};
/** Lists are read-only; fields are not (a JSON value is plain data its reader may adjust, as tests do). */
type OptionalKeys<F> = { [K in keyof F]: F[K] extends { readonly optional: true } ? K : never }[keyof F];
export type ObjectOf<F extends Fields> = Flat<
  { [K in Exclude<keyof F, OptionalKeys<F>>]: Infer<F[K]> } & { [K in OptionalKeys<F>]?: Infer<F[K]> }
>;

/** How a value is named in an error: a short quote of a string, the kind of anything else. */
export function describe(v: unknown): string {
  if (typeof v === 'string') return `'${v.length > 40 ? `${v.slice(0, 40)}…` : v}'`;
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${describeBounded(v)}`;
}

export const fail = (path: string, want: string, v: unknown) => `${path}: expected ${want}, got ${describe(v)}`;

const identity = <T>(v: T) => v;

/** A leaf: the value is its own projection. */
export function leaf<T>(check: (v: unknown, path: string) => string | null): Schema<T> {
  return { check, project: identity };
}

export function str(maxChars: number): Schema<string> {
  return leaf((v, p) => (typeof v !== 'string' ? fail(p, 'a string', v) : v.length > maxChars ? `${p}: ${v.length} characters, over the ${maxChars}-character cap` : null));
}

export const bool: Schema<boolean> = leaf((v, p) => (typeof v === 'boolean' ? null : fail(p, 'true or false', v)));
/** JSON has no NaN or Infinity: a number here is always finite. */
export const num: Schema<number> = leaf((v, p) => (typeof v === 'number' && Number.isFinite(v) ? null : fail(p, 'a finite number', v)));
export const nonNegative: Schema<number> = leaf((v, p) => num.check(v, p) ?? ((v as number) >= 0 ? null : fail(p, 'a number ≥ 0', v)));
export const count: Schema<number> = leaf((v, p) => (Number.isSafeInteger(v) && (v as number) >= 0 ? null : fail(p, 'a whole number ≥ 0', v)));
/** Any JSON (bounded once for the whole value, before the schema runs). */
export const any: Schema<unknown> = leaf(() => null);

export function oneOf<const V extends string>(values: readonly V[]): Schema<V> {
  return leaf((v, p) => (typeof v === 'string' && (values as readonly string[]).includes(v) ? null : fail(p, `one of ${values.join(', ')}`, v)));
}

/** A value whose type is declared elsewhere, checked structurally by `s` (a schedule: any record of knobs). */
export function typed<T>(s: AnySchema): Schema<T> {
  return s as Schema<T>;
}

export function nullable<T>(s: Schema<T>): Schema<T | null> {
  return { check: (v, p) => (v === null ? null : s.check(v, p)), project: (v) => (v === null ? null : s.project(v)) };
}

export function optional<T>(s: Schema<T>, omit?: (v: T) => boolean): Optional<T> {
  return { optional: true, omit, check: (v, p) => (v === undefined ? null : s.check(v, p)), project: s.project };
}

export function list<T>(item: Schema<T>, maxItems: number): Schema<readonly T[]> {
  return {
    check: (v, p) => {
      if (!Array.isArray(v)) return fail(p, 'a list', v);
      if (v.length > maxItems) return `${p}: ${v.length} items, over the cap of ${maxItems}`;
      for (let i = 0; i < v.length; i++) {
        const e = item.check(v[i], `${p}[${i}]`);
        if (e) return e;
      }
      return null;
    },
    project: (v) => (item.project === identity ? v : v.map((x) => item.project(x))),
  };
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/** A map from names (each at most `maxKeyChars`) to values; inherited member names are refused as keys. */
export function record<T>(value: Schema<T>, maxKeys: number, maxKeyChars: number): Schema<Readonly<Record<string, T>>> {
  return {
    check: (v, p) => {
      if (!isPlainObject(v)) return fail(p, 'an object', v);
      const keys = Object.keys(v);
      if (keys.length > maxKeys) return `${p}: ${keys.length} keys, over the cap of ${maxKeys}`;
      for (const k of keys) {
        if (INHERITED_NAMES.has(k)) return `${p}: key '${k}' names an inherited object member, not data`;
        if (k.length > maxKeyChars) return `${p}: a key of ${k.length} characters, over the ${maxKeyChars}-character cap`;
        const e = value.check(v[k], `${p}.${k}`);
        if (e) return e;
      }
      return null;
    },
    project: (v) => (value.project === identity ? v : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, value.project(x)]))),
  };
}

export interface ObjectSchema<F extends Fields> extends Schema<ObjectOf<F>> {
  readonly fields: F;
}

/**
 * An object with declared fields, checked in order (the first wrong one is named); `also` checks
 * what the fields mean together, once each is known to fit (its path prefix ends in '.' or is empty).
 */
export function obj<F extends Fields>(fields: F, also?: (v: Record<string, unknown>, prefix: string) => string | null): ObjectSchema<F> {
  const entries = Object.entries(fields);
  return {
    fields,
    check: (v, p) => {
      if (!isPlainObject(v)) return fail(p || 'the result', 'an object', v);
      for (const [k, s] of entries) {
        const e = s.check(ownValue(v, k), p ? `${p}.${k}` : k);
        if (e) return e;
      }
      return also ? also(v, p ? `${p}.` : '') : null;
    },
    project: (v) => {
      const out: Record<string, unknown> = {};
      const from = v as Record<string, unknown>;
      for (const [k, s] of entries) {
        const x = from[k];
        if ('optional' in s && (x === undefined || (s as Optional<unknown>).omit?.(x))) continue;
        out[k] = s.project(x);
      }
      return out as ObjectOf<F>;
    },
  };
}
