// Op params as declarations (name, type, default, range or enum, doc) and the one check that
// reads a params record against them: unknown names and out-of-range values are OpCaseErrors
// naming the param and what it allows. (Phase 1 of issue 9: Part 1 makes this the real API.)
import { OpCaseError } from './types';

export interface ParamSpec {
  readonly name: string;
  /** f32: any finite number in range (ggml stores it as a float); i32: an integer; enum: one of `values`. */
  readonly type: 'f32' | 'i32' | 'enum';
  readonly default: number;
  readonly min?: number;
  readonly max?: number;
  /** min/max exclusive (freq_scale > 0). */
  readonly exclusiveMin?: boolean;
  readonly values?: readonly number[];
  readonly doc: string;
}

function rangeText(s: ParamSpec): string {
  if (s.type === 'enum') return `one of ${s.values!.join(', ')}`;
  const kind = s.type === 'i32' ? 'an integer' : 'a finite number';
  const lo = s.min === undefined ? '' : ` ${s.exclusiveMin ? '>' : '≥'} ${s.min}`;
  const hi = s.max === undefined ? '' : `${lo ? ' and' : ''} ≤ ${s.max}`;
  return `${kind}${lo}${hi}`;
}

/** The params with defaults filled in; throws naming an unknown param or a value out of range. */
export function checkParams(op: string, specs: readonly ParamSpec[], params: Readonly<Record<string, number>>): Record<string, number> {
  const unknown = Object.keys(params).filter((k) => !specs.some((s) => s.name === k));
  if (unknown.length) throw new OpCaseError(`${op} has no param ${unknown.join(', ')} (params: ${specs.map((s) => s.name).join(', ')})`);
  const out: Record<string, number> = {};
  for (const s of specs) {
    const v = params[s.name] ?? s.default;
    const ok =
      typeof v === 'number' &&
      Number.isFinite(v) &&
      (s.type !== 'i32' || Number.isInteger(v)) &&
      (s.type !== 'enum' || s.values!.includes(v)) &&
      (s.min === undefined || (s.exclusiveMin ? v > s.min : v >= s.min)) &&
      (s.max === undefined || v <= s.max);
    if (!ok) throw new OpCaseError(`${op}: ${s.name} must be ${rangeText(s)}, got ${v}`);
    out[s.name] = v;
  }
  return out;
}
