// One plan per case: the case a request names is built, validated and judged against the adapter's
// limits ONCE, and that frozen plan is what Level 1, the lane, the sweep, the bench and the page
// read. Nothing downstream calls makeCase, the limit rule or an op's native/generate again for the
// same case: the plan memoizes them. Plans are memoized per request too, so the CLI's validation
// and the engine's run (one process under the Node runtime) share one plan.
import type { AdapterDescriptor } from '../adapter';
import { limitRefusal, ShapeContractError, type LimitFinding } from '../input/case-contract';
import type { KernelSpec } from '../kernel';
import { opByName } from '../ops/registry';
import { formatParam, type OpCase, type OpDef, type Rejection } from '../ops/types';
import type { Schedule } from '../schedule/schedule';

/** One case as requests name it: a matrix entry, a lane or sweep shape, Level 1's fields. */
export interface CaseRef {
  readonly op: string;
  readonly dims: readonly number[];
  /** Default: the op's first layout. */
  readonly layout?: string;
  /** Default: each param's declared default. */
  readonly params?: Readonly<Record<string, number>>;
}

/**
 * A case's stable id: `OP:DIMS:LAYOUT[:k=v,…]` with the layout always named and every param of
 * the case in declaration (insertion) order — the lane's `--shape` syntax, so a stored result's
 * id re-runs as it is (parseCaseSpec reads it back).
 */
export function caseId(op: string, dims: readonly number[], layout: string, params?: Readonly<Record<string, number>>): string {
  const p = Object.entries(params ?? {}).map(([k, v]) => `${k}=${formatParam(v)}`);
  return [op, dims.join('x'), layout, ...(p.length ? [p.join(',')] : [])].join(':');
}

export interface CasePlan {
  readonly op: OpDef;
  readonly c: OpCase;
  /** caseId of the built case (canonical op name, layout, every param). */
  readonly id: string;
  /** The first limit no kernel can pass on `limits` (native included), or null; null also when no limits were given. */
  limitRefusal(adapter: { readonly limits: AdapterDescriptor['limits'] }): LimitFinding | null;
  /** The generated path's contract on this adapter (op.require), memoized per adapter's limits. */
  contract(adapter: Pick<AdapterDescriptor, 'limits' | 'features'>): Rejection | null;
  /** The native kernel, built once. */
  native(): KernelSpec;
  /** The generated kernel of a schedule, built once per schedule object. */
  generate(s: Schedule): KernelSpec;
}

/** The plans' memo: a request's key → its plan (bounded; the oldest plan goes first). */
const MAX_PLANS = 512;
const plans = new Map<string, CasePlan>();

function requestKey(ref: CaseRef): string {
  return JSON.stringify([ref.op.toUpperCase(), ref.dims, ref.layout ?? null, ref.params ?? null]);
}

/**
 * The plan of a case; throws the op's usage error (unknown op, malformed dims, layout or params)
 * exactly as makeCase does. With an adapter, a case past its limits is refused here (a
 * ShapeContractError, exit 2), before any input, oracle or GPU work.
 */
export function planCase(ref: CaseRef, adapter?: { readonly limits: AdapterDescriptor['limits'] }): CasePlan {
  const key = requestKey(ref);
  let plan = plans.get(key);
  if (!plan) {
    plan = buildPlan(ref);
    if (plans.size >= MAX_PLANS) plans.delete(plans.keys().next().value!);
    plans.set(key, plan);
  }
  if (adapter) refuseOutsideLimits(plan, adapter);
  return plan;
}

/** The plan of a case of an op already looked up (a matrix entry, a shape of the lane). */
export function planOf(op: OpDef, e: Omit<CaseRef, 'op'>): CasePlan {
  return planCase({ ...e, op: op.name });
}

function buildPlan(ref: CaseRef): CasePlan {
  const op = opByName(ref.op);
  return planFromCase(op, op.makeCase(ref.dims, ref.layout ?? op.layouts[0].name, ref.params));
}

/**
 * The plan of a case built elsewhere (a training graph's node: its tensors are the graph's views,
 * not a layout's): not memoized, since such a case has no request to key it by.
 */
export function planFromCase(op: OpDef, c: OpCase): CasePlan {
  const contracts = new Map<string, Rejection | null>();
  let native: KernelSpec | null = null;
  const generated = new WeakMap<Schedule, KernelSpec>();
  return Object.freeze({
    op,
    c,
    id: caseId(op.name, c.dims, c.layout, c.params),
    limitRefusal: (adapter: { readonly limits: AdapterDescriptor['limits'] }) => limitRefusal(c, adapter),
    contract(adapter: Pick<AdapterDescriptor, 'limits' | 'features'>) {
      const key = JSON.stringify([adapter.limits, [...adapter.features].sort()]);
      if (!contracts.has(key)) contracts.set(key, op.require(c, adapter));
      return contracts.get(key)!;
    },
    native: () => (native ??= op.native(c)),
    generate(s: Schedule) {
      let k = generated.get(s);
      if (!k) generated.set(s, (k = op.generate(s, c)));
      return k;
    },
  });
}

/** Throws a ShapeContractError (a usage error) when no kernel can run the plan's case on this adapter. */
export function refuseOutsideLimits(plan: CasePlan, adapter: { readonly limits: AdapterDescriptor['limits'] }): void {
  const f = plan.limitRefusal(adapter);
  if (f) throw new ShapeContractError(`${plan.op.name} ${plan.c.label} is refused before any GPU work: ${f.code} — ${f.reason} (${f.tensor})`);
}
