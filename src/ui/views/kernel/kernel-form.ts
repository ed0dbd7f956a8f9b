// The Kernel view's form: which op, shape, layout and variant, as signals, and what they mean
// (the case or its error, the registry's pick, the parsed schedule or its error). Pure core
// code answers everything here; only Run and Show WGSL go to the worker.
import { createMemo, createSignal, type Accessor } from 'solid-js';
import type { AdapterDescriptor } from '../../../core/adapter';
import { opByName, OPS, schedulesFor } from '../../../core/ops/registry';
import { caseLabel, dimsLabel, parseDims, type MatrixEntry, type OpCase, type OpDef, type Rejection } from '../../../core/ops/types';
import { parseSchedule, scheduleKey, SPACES, type Family, type Schedule } from '../../../core/schedule/schedule';
import type { Level1Request } from '../../../gpu/level1';
import { errorInfo } from '../../errors';
import { createUserKernelState } from './user-kernel-state';

export type VariantKind = 'auto' | 'native' | 'schedule' | 'user';

export type CaseOrError = { readonly ok: OpCase; readonly dims: number[] } | { readonly error: string };

export type AutoPick = { readonly schedule: Schedule; readonly key: string } | { readonly fallback: Rejection };

type Limits = Pick<AdapterDescriptor, 'limits' | 'features'>;

function elementCount(e: MatrixEntry): number {
  return e.dims.reduce((a, b) => a * b, 1);
}

/**
 * The page's default shape: the op's cheapest matrix entry in its default layout (any layout
 * when none has it), so a first Run is quick even on a software adapter.
 */
export function defaultEntry(op: OpDef): MatrixEntry {
  const plain = op.matrix.filter((e) => e.layout === op.layouts[0].name);
  const pool = plain.length ? plain : op.matrix;
  return pool.reduce((best, e) => (elementCount(e) < elementCount(best) ? e : best), pool[0]);
}

/** "4096x512 inplace": how the page and the results name a matrix entry. */
export function entryLabel(op: OpDef, e: MatrixEntry): string {
  return caseLabel(e.dims, e.layout, op.layouts[0].name);
}

export function buildCaseOrError(op: OpDef, dimsText: string, layout: string): CaseOrError {
  try {
    const dims = parseDims(dimsText);
    return { ok: op.makeCase(dims, layout), dims };
  } catch (e) {
    return { error: errorInfo(e).message };
  }
}

/** What 'auto' runs, decided exactly as the worker's resolveKernel decides it. */
export function autoPick(op: OpDef, c: OpCase, adapter: Limits): AutoPick {
  const rejection = op.require(c, adapter);
  if (rejection) return { fallback: rejection };
  const schedule = schedulesFor(op.name, c, adapter);
  if (!schedule) return { fallback: { code: 'no-schedule', reason: `no shape rule of ${op.name} takes ${c.label} on this adapter` } };
  return { schedule, key: scheduleKey(schedule) };
}

/** The first value of every knob: a valid starting point when the registry picks nothing. */
export function firstOfSpace(family: Family): Schedule {
  const out: Record<string, unknown> = { family };
  for (const [knob, spec] of Object.entries(SPACES[family])) out[knob] = spec.values[0];
  return out as unknown as Schedule;
}

export function scheduleJson(s: Schedule): string {
  return JSON.stringify(s, null, 2);
}

export function createKernelForm(adapter: Accessor<AdapterDescriptor>) {
  const first = OPS[0];
  const [opName, setOpName] = createSignal(first.name);
  const op = createMemo(() => opByName(opName()));
  const [dimsText, setDimsText] = createSignal(dimsLabel(defaultEntry(first).dims));
  const [layout, setLayout] = createSignal(defaultEntry(first).layout);
  /** True after the user picked "custom…": the shape select stays there while they type. */
  const [customShape, setCustomShape] = createSignal(false);
  const [variant, setVariant] = createSignal<VariantKind>('auto');
  const [scheduleText, setScheduleText] = createSignal('');

  const caseOrError = createMemo(() => buildCaseOrError(op(), dimsText(), layout()));
  const pick = createMemo((): AutoPick | null => {
    const c = caseOrError();
    return 'ok' in c ? autoPick(op(), c.ok, adapter()) : null;
  });
  const parsedSchedule = createMemo((): { ok: Schedule } | { error: string } => {
    try {
      return { ok: parseSchedule(scheduleText(), op().family) };
    } catch (e) {
      return { error: errorInfo(e).message };
    }
  });
  /** Index of the matrix entry the current shape and layout are, or null for a custom shape. */
  const matrixIndex = createMemo(() => {
    const c = caseOrError();
    if (!('ok' in c)) return null;
    const i = op().matrix.findIndex((e) => dimsLabel(e.dims) === dimsLabel(c.dims) && e.layout === layout());
    return i < 0 ? null : i;
  });

  /** The schedule editor's starting text: the registry's pick, else the family's first schedule. */
  const resetSchedule = () => {
    const p = pick();
    setScheduleText(scheduleJson(p && 'schedule' in p ? p.schedule : firstOfSpace(op().family)));
  };

  const selectOp = (name: string) => {
    const next = opByName(name);
    const entry = defaultEntry(next);
    setOpName(next.name);
    setDimsText(dimsLabel(entry.dims));
    setLayout(entry.layout);
    setCustomShape(false);
    resetSchedule();
  };

  const selectEntry = (index: number) => {
    const e = op().matrix[index];
    setDimsText(dimsLabel(e.dims));
    setLayout(e.layout);
    setCustomShape(false);
  };

  /** "Your kernel": a manifest and its WGSL; loading one moves the form to its op. */
  const user = createUserKernelState(caseOrError, adapter, () => opName(), selectOp);

  /** The request Run and Show WGSL send, or the reason there is none. */
  const request = createMemo((): { ok: Level1Request } | { error: string } => {
    const c = caseOrError();
    if (!('ok' in c)) return { error: c.error };
    const base = { op: op().name, dims: c.dims, layout: layout() };
    const v = variant();
    if (v === 'user') return { ok: { ...base, variant: { kind: 'user', ...user.source() } } };
    if (v !== 'schedule') return { ok: { ...base, variant: { kind: v } } };
    const s = parsedSchedule();
    if (!('ok' in s)) return { error: s.error };
    return { ok: { ...base, variant: { kind: 'schedule', schedule: s.ok } } };
  });

  resetSchedule();

  return {
    op,
    dimsText,
    setDimsText,
    layout,
    setLayout,
    customShape,
    setCustomShape,
    variant,
    setVariant,
    scheduleText,
    setScheduleText,
    caseOrError,
    pick,
    parsedSchedule,
    matrixIndex,
    selectOp,
    selectEntry,
    resetSchedule,
    request,
    user,
  };
}

export type KernelForm = ReturnType<typeof createKernelForm>;
