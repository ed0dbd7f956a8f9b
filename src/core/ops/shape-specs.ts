// Shape lists as people type them — the CLI's --shape/--shapes and the page's fields — checked
// against the op before any device work. Errors name the first bad entry.
import { planCase, planOf } from '../plan/plan';
import { OpCaseError, parseDims, parseParamAssignments, type OpDef } from './types';

export interface CaseSpec {
  readonly op: string;
  readonly dims: number[];
  readonly layout?: string;
  readonly params?: Record<string, number>;
}

/** After DIMS: an optional layout, then optional params (`k=v,…`), each its own ':' part. */
function layoutAndParams(parts: readonly string[], spec: string, form: string): { layout?: string; params?: Record<string, number> } {
  const out: { layout?: string; params?: Record<string, number> } = {};
  const rest = [...parts];
  if (rest.length && !rest[0].includes('=')) out.layout = rest.shift();
  if (rest.length) out.params = parseParamAssignments(rest.shift()!);
  if (rest.length || out.layout === '') throw new OpCaseError(`'${spec}' is not ${form}`);
  return out;
}

/** "ADD:4096x512[:inplace]" or "RMS_NORM:4096x8[:contiguous][:eps=1e-5]" → a case of any op (the lane's shapes). */
export function parseCaseSpec(spec: string): CaseSpec {
  const [opName, dimsText, ...tail] = spec.trim().split(':');
  const form = 'OP:DIMS[:LAYOUT][:k=v,…] (e.g. ADD:256x16, ADD:256x16:inplace or RMS_NORM:256x16:eps=1e-5)';
  if (!opName || !dimsText) throw new OpCaseError(`'${spec}' is not ${form}`);
  const dims = parseDims(dimsText);
  const { layout, params } = layoutAndParams(tail, spec, form);
  // The case's plan (built once: the lane runs this same plan).
  const { op } = planCase({ op: opName, dims, ...(layout ? { layout } : {}), ...(params ? { params } : {}) });
  return { op: op.name, dims, ...(layout ? { layout } : {}), ...(params ? { params } : {}) };
}

/** "256x16, 128x8:inplace" → shapes of one op (the sweep's); empty text → []. */
export function parseShapeList(text: string, op: OpDef): { dims: number[]; layout?: string; params?: Record<string, number> }[] {
  return text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)
    .map((t) => {
      const [dimsText, ...tail] = t.split(':');
      // Params inside a comma-separated list are joined by ';' ("256x16:eps=1e-5;…" is rare: one param is the usual case).
      const { layout, params } = layoutAndParams(tail.map((x) => x.replace(/;/g, ',')), t, 'DIMS[:LAYOUT][:k=v;…]');
      const dims = parseDims(dimsText);
      planOf(op, { dims, ...(layout ? { layout } : {}), ...(params ? { params } : {}) });
      return { dims, ...(layout ? { layout } : {}), ...(params ? { params } : {}) };
    });
}
