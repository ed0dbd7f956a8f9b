// The Sweep view's options, as signals, and the SweepRequest they mean (or why there is none):
// the same choices as `npm run lab -- sweep` (--op, --reps, --shapes, --space, --seed).
import { parseCount } from '../../../core/input/counts';
import { createMemo, createSignal, type Accessor } from 'solid-js';
import type { AdapterDescriptor } from '../../../core/adapter';
import { opByName, OPS } from '../../../core/ops/registry';
import { parseShapeList } from '../../../core/ops/shape-specs';
import { caseLabel, defaultSweepShapes, type OpDef } from '../../../core/ops/types';
import { enumerateSpace, parseSpace, spaceText, validateSchedule, type SpaceRestriction } from '../../../core/schedule/schedule';
import type { SweepRequest } from '../../../core/results';
import { errorInfo } from '../../errors';

export const DEFAULT_REPS = 9;

/** The shapes a sweep without any times (the op's matrix, less what it leaves out for the table's cap). */
export function matrixLabels(op: OpDef): string[] {
  return defaultSweepShapes(op).map((e) => caseLabel(e.dims, e.layout, op.layouts[0].name));
}

export function createSweepForm(adapter: Accessor<AdapterDescriptor>) {
  const [opName, setOpName] = createSignal(OPS[0].name);
  const op = createMemo(() => opByName(opName()));
  const [repsText, setRepsText] = createSignal(String(DEFAULT_REPS));
  const [shapesText, setShapesText] = createSignal('');
  const [spaceJson, setSpaceJson] = createSignal(spaceText(OPS[0].family));
  const [seedText, setSeedText] = createSignal('1');

  const selectOp = (name: string) => {
    const next = opByName(name);
    setOpName(next.name);
    setShapesText('');
    setSpaceJson(spaceText(next.family));
  };
  const resetSpace = () => setSpaceJson(spaceText(op().family));

  const shapes = createMemo((): { ok: { dims: number[]; layout?: string }[] } | { error: string } => {
    try {
      return { ok: parseShapeList(shapesText(), op()) };
    } catch (e) {
      return { error: errorInfo(e).message };
    }
  });
  const space = createMemo((): { ok: SpaceRestriction } | { error: string } => {
    try {
      return { ok: parseSpace(spaceJson(), op().family) };
    } catch (e) {
      return { error: errorInfo(e).message };
    }
  });
  /** How many candidates the space holds, and how many this adapter's limits allow. */
  const candidateCount = createMemo(() => {
    const s = space();
    if (!('ok' in s)) return null;
    const all = enumerateSpace(op().family, s.ok);
    return { total: all.length, valid: all.filter((c) => validateSchedule(c, adapter()).length === 0).length };
  });

  const request = createMemo((): { ok: SweepRequest } | { error: string } => {
    let reps: number;
    let seed: number;
    try {
      // The CLI's caps (RUN_CAPS): a count past one is refused, never run with fewer.
      reps = parseCount(repsText(), 'reps', 'reps');
      seed = parseCount(seedText(), 'seed', 'seed');
    } catch (e) {
      return { error: (e as Error).message };
    }
    if (reps < 2) return { error: `reps must be an integer ≥ 2 (a spread needs two), got '${repsText()}'` };
    const sh = shapes();
    if ('error' in sh) return { error: `shapes: ${sh.error}` };
    const sp = space();
    if ('error' in sp) return { error: sp.error };
    return { ok: { op: op().name, reps, shapes: sh.ok.length ? sh.ok : undefined, space: sp.ok, seed } };
  });

  return { op, selectOp, repsText, setRepsText, shapesText, setShapesText, shapes, spaceJson, setSpaceJson, resetSpace, space, candidateCount, seedText, setSeedText, request };
}

export type SweepForm = ReturnType<typeof createSweepForm>;
