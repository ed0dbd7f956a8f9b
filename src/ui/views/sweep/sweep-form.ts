// The Sweep view's options, as signals, and the SweepRequest they mean (or why there is none):
// the same choices as `npm run lab -- sweep` (--op, --reps, --shapes, --space, --seed).
import { createMemo, createSignal, type Accessor } from 'solid-js';
import type { AdapterDescriptor } from '../../../core/adapter';
import { opByName, OPS } from '../../../core/ops/registry';
import { caseLabel, parseDims, type OpDef } from '../../../core/ops/types';
import { SPACES, validateSchedule, type Family, type Schedule } from '../../../core/schedule/schedule';
import type { SweepRequest } from '../../../gpu/sweep';
import { errorInfo } from '../../errors';

export const DEFAULT_REPS = 9;

type Space = Record<string, (number | string)[]>;

/** The family's whole space as the editor's starting text: one knob per line. */
export function spaceText(family: Family): string {
  const lines = Object.entries(SPACES[family]).map(([knob, spec]) => `  ${JSON.stringify(knob)}: ${JSON.stringify(spec.values)}`);
  return `{\n${lines.join(',\n')}\n}`;
}

/** The editor's JSON, checked knob by knob as the sweep will check it. */
export function parseSpace(text: string, family: Family): Space {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new Error(`space is not valid JSON: ${(e as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('space is a JSON object of knob → list of values, e.g. {"workgroupSize": [64, 256]}');
  const full = SPACES[family];
  for (const [knob, values] of Object.entries(value as Record<string, unknown>)) {
    if (!(knob in full)) throw new Error(`unknown knob '${knob}' for family ${family} (knobs: ${Object.keys(full).join(', ')})`);
    if (!Array.isArray(values) || !values.length) throw new Error(`space.${knob} must be a non-empty list`);
    const numeric = typeof full[knob].values[0] === 'number';
    for (const v of values) {
      if (numeric ? !(typeof v === 'number' && Number.isInteger(v) && v > 0) : !full[knob].values.includes(v as string)) {
        throw new Error(`space.${knob}: ${JSON.stringify(v)} is not ${numeric ? 'a positive integer' : `one of ${full[knob].values.map((x) => JSON.stringify(x)).join(', ')}`}`);
      }
    }
  }
  return value as Space;
}

/** Every schedule of the restricted space (knobs left out keep the family's values). */
export function spaceCandidates(family: Family, space: Space): Schedule[] {
  let combos: Record<string, unknown>[] = [{ family }];
  for (const [knob, spec] of Object.entries(SPACES[family])) combos = combos.flatMap((c) => (space[knob] ?? spec.values).map((v) => ({ ...c, [knob]: v })));
  return combos as unknown as Schedule[];
}

/** "256x16, 4093x37:inplace" → sweep shapes, like the CLI's --shapes; empty → the op's matrix. */
export function parseSweepShapes(text: string, op: OpDef): { dims: number[]; layout?: string }[] {
  return text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)
    .map((t) => {
      const [dimsText, layout, ...rest] = t.split(':');
      if (rest.length) throw new Error(`'${t}' is not DIMS[:LAYOUT]`);
      const dims = parseDims(dimsText);
      op.makeCase(dims, layout ?? op.layouts[0].name);
      return layout ? { dims, layout } : { dims };
    });
}

export function matrixLabels(op: OpDef): string[] {
  return op.matrix.map((e) => caseLabel(e.dims, e.layout, op.layouts[0].name));
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
      return { ok: parseSweepShapes(shapesText(), op()) };
    } catch (e) {
      return { error: errorInfo(e).message };
    }
  });
  const space = createMemo((): { ok: Space } | { error: string } => {
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
    const all = spaceCandidates(op().family, s.ok);
    return { total: all.length, valid: all.filter((c) => validateSchedule(c, adapter()).length === 0).length };
  });

  const request = createMemo((): { ok: SweepRequest } | { error: string } => {
    const reps = Number(repsText());
    if (!Number.isInteger(reps) || reps < 2) return { error: `reps must be an integer ≥ 2 (a spread needs two), got '${repsText()}'` };
    const seed = Number(seedText());
    if (!Number.isInteger(seed) || seed < 1) return { error: `seed must be a positive integer, got '${seedText()}'` };
    const sh = shapes();
    if ('error' in sh) return { error: `shapes: ${sh.error}` };
    const sp = space();
    if ('error' in sp) return { error: sp.error };
    return { ok: { op: op().name, reps, shapes: sh.ok.length ? sh.ok : undefined, space: sp.ok, seed } };
  });

  return { op, selectOp, repsText, setRepsText, shapesText, setShapesText, shapes, spaceJson, setSpaceJson, resetSpace, space, candidateCount, seedText, setSeedText, request };
}

export type SweepForm = ReturnType<typeof createSweepForm>;
