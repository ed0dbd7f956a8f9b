// Bounds on any JSON value that comes from outside (a link, an imported file, a --schedule or
// --proposal argument), checked iteratively before anything recurses into it: nesting depth,
// how many values it holds, how long its strings and keys are. A value past a bound is refused
// by name before a renderer, a validator or JSON.stringify could overflow the stack on it or
// spend unbounded work on it.

export interface JsonBounds {
  /** Containers inside containers: `[[1]]` has depth 2. */
  readonly maxDepth: number;
  /** Every value counts once: containers, keys' values, list items, scalars. */
  readonly maxValues: number;
  /** Characters of any one string or object key. */
  readonly maxStringChars: number;
}

/** Keys that name an inherited member of every object: never data, refused wherever they appear. */
export const INHERITED_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype', ...Object.getOwnPropertyNames(Object.prototype)]);

function describeKey(k: string): string {
  return k.length > 40 ? `'${k.slice(0, 40)}…'` : `'${k}'`;
}

/**
 * What is wrong with the value (null when it keeps the bounds). `where` names it in the
 * message; paths use `.key` and `[i]`, cut after the first few steps.
 */
export function jsonBoundsProblem(value: unknown, bounds: JsonBounds, where: string, refuseInheritedKeys = true): string | null {
  const stack: { v: unknown; depth: number; path: string }[] = [{ v: value, depth: 0, path: where }];
  let values = 0;
  while (stack.length) {
    const { v, depth, path } = stack.pop()!;
    if (++values > bounds.maxValues) return `${where}: more than ${bounds.maxValues} values (the cap on one input)`;
    if (typeof v === 'string') {
      if (v.length > bounds.maxStringChars) return `${path}: a string of ${v.length} characters, over the ${bounds.maxStringChars}-character cap`;
      continue;
    }
    if (v === null || typeof v !== 'object') {
      if (typeof v === 'number' && !Number.isFinite(v)) return `${path}: a non-finite number`;
      if (typeof v !== 'number' && typeof v !== 'boolean' && v !== null) return `${path}: ${typeof v} is not JSON`;
      continue;
    }
    if (depth + 1 > bounds.maxDepth) return `${path}: nested more than ${bounds.maxDepth} deep (the cap on one input)`;
    const shortPath = path.length > 200 ? `${path.slice(0, 200)}…` : path;
    if (Array.isArray(v)) {
      if (v.length + values > bounds.maxValues) return `${where}: more than ${bounds.maxValues} values (the cap on one input)`;
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], depth: depth + 1, path: `${shortPath}[${i}]` });
      continue;
    }
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return `${path}: not a plain JSON object`;
    const keys = Object.keys(v);
    if (keys.length + values > bounds.maxValues) return `${where}: more than ${bounds.maxValues} values (the cap on one input)`;
    for (const k of keys) {
      if (k.length > bounds.maxStringChars) return `${shortPath}: a key of ${k.length} characters, over the ${bounds.maxStringChars}-character cap`;
      if (refuseInheritedKeys && INHERITED_NAMES.has(k)) return `${shortPath}: key ${describeKey(k)} names an inherited object member, not data`;
      stack.push({ v: (v as Record<string, unknown>)[k], depth: depth + 1, path: `${shortPath}.${k}` });
    }
  }
  return null;
}

/** The own property `key` of `v` (undefined when `v` has none of its own: inherited ones never count). */
export function ownValue(v: object, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(v, key) ? (v as Record<string, unknown>)[key] : undefined;
}

/** Whether `key` is one of `table`'s own keys (not an inherited name such as 'constructor'). */
export function isOwnKey(table: object, key: unknown): key is string {
  return typeof key === 'string' && Object.prototype.hasOwnProperty.call(table, key);
}

/** A value for a message, bounded: never more than ~60 characters, never recursing without end. */
export function describeBounded(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'nothing';
  if (Array.isArray(v)) return `a list of ${v.length}`;
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === 'object') return 'an object';
  return String(v);
}
