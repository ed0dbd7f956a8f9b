// Shape lists as people type them — the CLI's --shape/--shapes and the page's fields — checked
// against the op before any device work. Errors name the first bad entry.
import { opByName } from './registry';
import { OpCaseError, parseDims, type OpDef } from './types';

export interface CaseSpec {
  readonly op: string;
  readonly dims: number[];
  readonly layout?: string;
}

/** "ADD:4096x512[:inplace]" → a case of any op (the lane's shapes). */
export function parseCaseSpec(spec: string): CaseSpec {
  const [opName, dimsText, layout, ...rest] = spec.trim().split(':');
  if (!opName || !dimsText || rest.length) throw new OpCaseError(`'${spec}' is not OP:DIMS[:LAYOUT] (e.g. ADD:256x16 or ADD:256x16:inplace)`);
  const op = opByName(opName);
  const dims = parseDims(dimsText);
  op.makeCase(dims, layout ?? op.layouts[0].name);
  return layout ? { op: op.name, dims, layout } : { op: op.name, dims };
}

/** "256x16, 128x8:inplace" → shapes of one op (the sweep's); empty text → []. */
export function parseShapeList(text: string, op: OpDef): { dims: number[]; layout?: string }[] {
  return text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)
    .map((t) => {
      const [dimsText, layout, ...rest] = t.split(':');
      if (rest.length) throw new OpCaseError(`'${t}' is not DIMS[:LAYOUT]`);
      const dims = parseDims(dimsText);
      op.makeCase(dims, layout ?? op.layouts[0].name);
      return layout ? { dims, layout } : { dims };
    });
}
