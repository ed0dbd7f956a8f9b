// An op outside the unary/binary/copy kits whose generated path is the elementwise family fed its
// snippet (ACC, GLU, SILU_BACK, OPT_STEP_ADAMW, REPEAT_BACK, GET_ROWS, DEQUANT): the OpDef parts
// such ops share come from here — the generated path, the common contract, and the defaults
// flops none (memory-only), bytes each element once, row features — so the op file declares only
// what is its own.
import { ELEMENTWISE, type ElementwiseSnippet } from '../families/elementwise';
import { generatedPath } from '../families/types';
import type { Schedule } from '../schedule/schedule';
import { commonRejection } from './contract';
import { eachElementOnce, rowFeatures, type OpCase, type OpDef, type Rejection } from './types';

type Given = 'family' | 'fits' | 'generate' | 'require' | 'flops' | 'bytes' | 'features';

export interface ElementwiseOpSpec extends Omit<OpDef, Given>, Partial<Pick<OpDef, 'flops' | 'bytes' | 'features'>> {
  /** The op's snippet for the elementwise family. */
  readonly snippet: (c: OpCase) => ElementwiseSnippet;
  /** A contract rejection of the op's own, checked before the common ones (sizes, u32 indices). */
  readonly require?: (c: OpCase) => Rejection | null;
  /** Reasons of the op's own why a schedule cannot take a case, before the family's. */
  readonly fits?: (s: Schedule, c: OpCase) => string[];
}

export function defineElementwiseOp(spec: ElementwiseOpSpec): OpDef {
  const { snippet, require, fits, ...rest } = spec;
  const generated = generatedPath(ELEMENTWISE, snippet);
  return {
    flops: () => null,
    bytes: eachElementOnce,
    features: rowFeatures,
    ...rest,
    family: generated.family,
    require: (c, adapter) => require?.(c) ?? commonRejection(c, adapter),
    fits: fits ? (s, c) => [...fits(s, c), ...generated.fits(s, c)] : generated.fits,
    generate: generated.generate,
  };
}
