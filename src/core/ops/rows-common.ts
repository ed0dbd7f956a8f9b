// Shared pieces of the row ops (SOFT_MAX, SOFT_MAX_BACK, SUM_ROWS, REPEAT_BACK, ARGMAX,
// COUNT_EQUAL): dims padded to ggml's four and layout errors.
import { OpCaseError } from './types';

/** 1 to 4 dims padded with ones to ggml's ne[4]. */
export function dims4(op: string, dims: readonly number[], syntax: string): [number, number, number, number] {
  if (dims.length < 1 || dims.length > 4) throw new OpCaseError(`${op} takes 1 to 4 dims (${syntax}), got ${dims.length}`);
  const [a, b = 1, c = 1, d = 1] = dims;
  return [a, b, c, d];
}

export function layoutError(op: string, layout: string, layouts: readonly { name: string }[], why = ''): OpCaseError {
  return new OpCaseError(`${op} has no layout '${layout}'${why ? `: ${why}` : ''} (layouts: ${layouts.map((l) => l.name).join(', ')})`);
}
