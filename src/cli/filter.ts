// --filter REGEX: which cases a many-case command runs (time over many ops, lane, sweep), matched
// against "OP DIMS LAYOUT[ PARAMS]" — e.g. 'MUL_MAT', '4096x', 'inplace', '^ADD .* broadcast'.
import { UsageError } from '../core/errors';
import { dimsLabel, paramsLabel, type OpDef } from '../core/ops/types';

export function parseFilter(text: string | undefined): RegExp | null {
  if (text === undefined) return null;
  try {
    return new RegExp(text);
  } catch (e) {
    throw new UsageError(`--filter '${text}' is not a regular expression: ${(e as Error).message}`);
  }
}

/** What --filter is matched against: "ADD 4096x512 inplace", "RMS_NORM 4096x64 rows eps=1e-05". */
export function filterSubject(op: OpDef, e: { dims: readonly number[]; layout?: string; params?: Readonly<Record<string, number>> }): string {
  const params = e.params ? paramsLabel(op.params, e.params) : '';
  return [op.name, dimsLabel(e.dims), e.layout ?? op.layouts[0].name, params].filter(Boolean).join(' ');
}

export function keepMatching<E extends { dims: readonly number[]; layout?: string; params?: Readonly<Record<string, number>> }>(op: OpDef, entries: readonly E[], filter: RegExp | null): E[] {
  return filter ? entries.filter((e) => filter.test(filterSubject(op, e))) : [...entries];
}
