// Shared pieces of the row ops (SOFT_MAX, SOFT_MAX_BACK, SUM_ROWS, REPEAT_BACK, ARGMAX,
// COUNT_EQUAL): declared params checked by name and range, dims padded to ggml's four, layout
// errors, and the one-source WGSL variant step their native kernels use (in place, mask kinds).
import { OpCaseError } from './types';

/** One op parameter as ggml keeps it in op_params. */
export interface ParamSpec {
  readonly name: string;
  readonly type: 'f32';
  readonly default: number;
  /** Allowed closed range. */
  readonly min: number;
  readonly max: number;
  readonly doc: string;
}

/** Checks params against their declaration: unknown names and values out of range are errors. */
export function checkParams(op: string, specs: readonly ParamSpec[], params: Readonly<Record<string, number>>): Readonly<Record<string, number>> {
  const known = specs.map((s) => s.name);
  const unknown = Object.keys(params).filter((k) => !known.includes(k));
  if (unknown.length) {
    throw new OpCaseError(`${op} has no param ${unknown.join(', ')} (params: ${known.length ? known.join(', ') : 'none'})`);
  }
  const out: Record<string, number> = {};
  for (const s of specs) {
    const v = params[s.name] ?? s.default;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < s.min || v > s.max) {
      const range = s.min === s.max ? `only ${s.min}` : `[${s.min}, ${s.max}]`;
      throw new OpCaseError(`${op}: param ${s.name} must be a finite number in ${range}, got ${v}`);
    }
    out[s.name] = v;
  }
  return Object.freeze(out);
}

/** 1 to 4 dims padded with ones to ggml's ne[4]. */
export function dims4(op: string, dims: readonly number[], syntax: string): [number, number, number, number] {
  if (dims.length < 1 || dims.length > 4) throw new OpCaseError(`${op} takes 1 to 4 dims (${syntax}), got ${dims.length}`);
  const [a, b = 1, c = 1, d = 1] = dims;
  return [a, b, c, d];
}

export function layoutError(op: string, layout: string, layouts: readonly { name: string }[], why = ''): OpCaseError {
  return new OpCaseError(`${op} has no layout '${layout}'${why ? `: ${why}` : ''} (layouts: ${layouts.map((l) => l.name).join(', ')})`);
}

/**
 * One WGSL source, several kernels: a line ending in `// @if(NAME)` is kept only when flag NAME
 * is set, one ending in `// @if(!NAME)` only when it is not (the marker is removed). Every
 * flag a source names must be given, so a misspelt flag is an error, not a silent variant.
 */
export function wgslVariant(source: string, flags: Readonly<Record<string, boolean>>): string {
  const marker = /\s*\/\/ @if\((!?)([A-Z_][A-Z0-9_]*)\)\s*$/;
  return source
    .split('\n')
    .flatMap((line) => {
      const m = marker.exec(line);
      if (!m) return [line];
      const [, not, name] = m;
      if (!(name in flags)) throw new Error(`WGSL variant flag ${name} is not given (given: ${Object.keys(flags).join(', ') || 'none'})`);
      return flags[name] !== (not === '!') ? [line.slice(0, m.index)] : [];
    })
    .join('\n');
}
