// The Kernel view's form: which op, shape, layout and variant, as signals, and what they mean
// (the case or its error, the registry's pick, the parsed schedule or its error). Pure core
// code answers everything here; only Run and Show WGSL go to the worker.
import { createMemo, createSignal, type Accessor } from 'solid-js';
import type { AdapterDescriptor } from '../../../core/adapter';
import { limitRefusal } from '../../../core/ops/contract';
import { variantForState } from '../../../core/ops/promotion';
import { opByName, OPS, registryStateFor, schedulesFor } from '../../../core/ops/registry';
import { caseLabel, dimsLabel, opFamilies, formatParam, OpCaseError, paramsLabel, parseDims, type MatrixEntry, type OpCase, type OpDef, type Rejection } from '../../../core/ops/types';
import { parseSchedule, scheduleKey, SPACES, type Family, type Schedule } from '../../../core/schedule/schedule';
import type { Level1Request } from '../../../core/requests';
import type { RunQuery } from '../../../core/report/run-query';
import { errorInfo } from '../../errors';
import { createUserKernelState } from './user-kernel-state';
import { planOf } from '../../../core/plan/plan';

export type VariantKind = 'auto' | 'native' | 'schedule' | 'user';

export type CaseOrError = { readonly ok: OpCase; readonly dims: number[] } | { readonly error: string };

export type AutoPick = { readonly schedule: Schedule; readonly key: string } | { readonly fallback: Rejection };

type Limits = Pick<AdapterDescriptor, 'limits' | 'features' | 'vendor' | 'architecture'>;

/** Param name → the text in its field; an empty field means the declared default. */
export type ParamTexts = Readonly<Record<string, string>>;

function elementCount(e: MatrixEntry): number {
  return e.dims.reduce((a, b) => a * b, 1);
}

/**
 * The page's default shape: the op's cheapest matrix entry in its default layout with every
 * param at its default (MUL_MAT's f32, not a weight format), else in its default layout, else any;
 * so a first Run is quick even on a software adapter and is the op's plain case.
 */
export function defaultEntry(op: OpDef): MatrixEntry {
  const inLayout = op.matrix.filter((e) => e.layout === op.layouts[0].name);
  const plain = inLayout.filter((e) => !e.params || Object.keys(e.params).length === 0);
  const pool = plain.length ? plain : inLayout.length ? inLayout : op.matrix;
  return pool.reduce((best, e) => (elementCount(e) < elementCount(best) ? e : best), pool[0]);
}

/** "4096x512 inplace eps=1e-5": how the page and the results name a matrix entry. */
export function entryLabel(op: OpDef, e: MatrixEntry): string {
  return caseLabel(e.dims, e.layout, op.layouts[0].name, paramsLabel(op.params, e.params ?? {}));
}

/** The param fields' texts for a matrix entry: its non-default values, other fields empty. */
export function entryParamTexts(op: OpDef, e: MatrixEntry): ParamTexts {
  return Object.fromEntries(op.params.map((p) => [p.name, e.params?.[p.name] !== undefined ? formatParam(e.params[p.name]) : '']));
}

/** Field texts → params (only the filled ones); a field that is not a number throws naming it. */
export function paramsFromTexts(op: OpDef, texts: ParamTexts): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of op.params) {
    const t = (texts[p.name] ?? '').trim();
    if (!t) continue;
    const v = Number(t);
    if (!Number.isFinite(v)) throw new OpCaseError(`${op.name}: param ${p.name}: '${t}' is not a number`);
    out[p.name] = v;
  }
  return out;
}

export function buildCaseOrError(op: OpDef, dimsText: string, layout: string, paramTexts: ParamTexts = {}): CaseOrError {
  try {
    const dims = parseDims(dimsText);
    // The case's plan (src/core/plan): built once however often the form re-renders.
    return { ok: planOf(op, { dims, layout, params: paramsFromTexts(op, paramTexts) }).c, dims };
  } catch (e) {
    return { error: errorInfo(e).message };
  }
}

/**
 * What 'auto' runs, decided as the worker decides it: the adapter's promotion state first
 * (native-only and retired run native), then the contract, then the shape rules.
 */
export function autoPick(op: OpDef, c: OpCase, adapter: Limits): AutoPick {
  const state = registryStateFor(op.name, adapter).state;
  const byState = variantForState(state);
  if (byState.variant === 'native') return { fallback: { code: state, reason: byState.reason ?? state } };
  const rejection = op.require(c, adapter);
  if (rejection) return { fallback: rejection };
  const schedule = schedulesFor(op.name, c, adapter);
  if (!schedule) return { fallback: { code: 'no-schedule', reason: `no shape rule of ${op.name} takes ${c.label} on this adapter` } };
  return { schedule, key: scheduleKey(schedule) };
}

/** The first value of every knob: a valid starting point when the registry picks nothing. */
export function firstOfSpace(family: Family): Schedule {
  const out: Record<string, unknown> = { family };
  // A knob with omitDefault stays out at its default, as parseSchedule leaves it (the same key either way).
  for (const [knob, spec] of Object.entries(SPACES[family])) if (!(spec.omitDefault && spec.values[0] === spec.default)) out[knob] = spec.values[0];
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
  const [paramTexts, setParamTexts] = createSignal<ParamTexts>(entryParamTexts(first, defaultEntry(first)));
  const setParamText = (name: string, text: string) => setParamTexts({ ...paramTexts(), [name]: text });
  /** True after the user picked "custom…": the shape select stays there while they type. */
  const [customShape, setCustomShape] = createSignal(false);
  const [variant, setVariant] = createSignal<VariantKind>('auto');
  const [scheduleText, setScheduleText] = createSignal('');
  /** The timed runs' minimum (a link's ?repeat=), or null for the default. */
  const [repeat, setRepeat] = createSignal<number | null>(null);

  const caseOrError = createMemo(() => buildCaseOrError(op(), dimsText(), layout(), paramTexts()));
  const pick = createMemo((): AutoPick | null => {
    const c = caseOrError();
    return 'ok' in c ? autoPick(op(), c.ok, adapter()) : null;
  });
  const parsedSchedule = createMemo((): { ok: Schedule } | { error: string } => {
    try {
      return { ok: parseSchedule(scheduleText(), opFamilies(op())) };
    } catch (e) {
      return { error: errorInfo(e).message };
    }
  });
  /** Index of the matrix entry the current shape and layout are, or null for a custom shape. */
  const matrixIndex = createMemo(() => {
    const c = caseOrError();
    if (!('ok' in c)) return null;
    const i = op().matrix.findIndex((e) => entryLabel(op(), e) === c.ok.label);
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
    setParamTexts(entryParamTexts(next, entry));
    setCustomShape(false);
    resetSchedule();
  };

  const selectEntry = (index: number) => {
    const e = op().matrix[index];
    setDimsText(dimsLabel(e.dims));
    setLayout(e.layout);
    setParamTexts(entryParamTexts(op(), e));
    setCustomShape(false);
  };

  /** "Your kernel": a manifest and its WGSL; loading one moves the form to its op. */
  const user = createUserKernelState(caseOrError, adapter, () => opName(), selectOp);

  /** The request Run and Show WGSL send, or the reason there is none. */
  const request = createMemo((): { ok: Level1Request } | { error: string } => {
    const c = caseOrError();
    if (!('ok' in c)) return { error: c.error };
    // Refused here, as the worker would refuse it, before any allocation: Run stays disabled.
    const refusal = limitRefusal(c.ok, adapter());
    if (refusal) return { error: `${op().name} ${c.ok.label} cannot run on this adapter: ${refusal.code} — ${refusal.reason}` };
    const params = paramsFromTexts(op(), paramTexts());
    const minRuns = repeat();
    const base = { op: op().name, dims: c.dims, layout: layout(), ...(Object.keys(params).length ? { params } : {}), ...(minRuns ? { timing: { minRuns } } : {}) };
    const v = variant();
    if (v === 'user') return { ok: { ...base, variant: { kind: 'user', ...user.source() } } };
    if (v !== 'schedule') return { ok: { ...base, variant: { kind: v } } };
    const s = parsedSchedule();
    if (!('ok' in s)) return { error: s.error };
    return { ok: { ...base, variant: { kind: 'schedule', schedule: s.ok } } };
  });

  resetSchedule();

  /** A link's query (?op=…&shape=…): the form as it names it; bad values show as form errors. */
  const applyQuery = (q: RunQuery) => {
    selectOp(q.op);
    if (q.shape !== null) {
      setDimsText(q.shape);
      setCustomShape(matrixIndex() === null);
    }
    if (q.layout !== null) setLayout(q.layout);
    if (Object.keys(q.params).length) setParamTexts({ ...entryParamTexts(op(), { dims: [], layout: layout() }), ...q.params });
    setVariant(q.variant);
    if (q.scheduleText !== null) setScheduleText(q.scheduleText);
    setRepeat(q.repeat);
    if (q.shape !== null) setCustomShape(matrixIndex() === null);
  };

  return {
    repeat,
    setRepeat,
    applyQuery,
    op,
    dimsText,
    setDimsText,
    layout,
    setLayout,
    paramTexts,
    setParamText,
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
