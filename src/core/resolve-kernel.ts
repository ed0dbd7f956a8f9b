// What a request runs: the case it names, and the kernel — native, a given schedule, or the
// registry's pick ('auto'), falling back to native with the contract's reason. Pure: Level 1,
// the lane and the engine's codegen preview all decide here.
import type { AdapterDescriptor } from './adapter';
import { ScheduleRefusal, UsageError } from './errors';
import { editedNative, type KernelSpec } from './kernel';
import { variantForState, type AdapterIdentity } from './ops/promotion';
import { registryEntry, registryStateFor, schedulesFor, type PromotionState, type ShapeRule } from './ops/registry';
import { opFamilies } from './ops/types';
import { planCase, planOf, type CasePlan, type CaseRef } from './plan/plan';
import type { OpCase, OpDef } from './ops/types';
import type { VariantRequest } from './requests';
import { parseSchedule, scheduleKey, validateSchedule, type Schedule } from './schedule/schedule';

export interface ResolvedKernel {
  readonly variant: 'native' | 'generated';
  readonly schedule: Schedule | null;
  readonly scheduleKey: string | null;
  readonly kernel: KernelSpec;
  /**
   * Why 'auto' ran native: the contract's rejection, no rule taking the case ('no-schedule'), or
   * the op's promotion state ('native-only', 'retired').
   */
  readonly fallback: { code: string; reason: string } | null;
}

/** The adapter as the decision reads it; without vendor and architecture (a codegen preview
 * before any device opened) the registry's default state applies. */
export type ResolveAdapter = Pick<AdapterDescriptor, 'limits' | 'features'> & Partial<AdapterIdentity>;

export interface ResolveOptions {
  /** Rules tried before the registry's (a sweep's proposal in the lane). */
  rulesBefore?: readonly ShapeRule[];
  /** The state 'auto' follows (default: the registry's for this adapter; the lane passes 'prefer' under --prefer). */
  state?: PromotionState;
}

/** The promotion state 'auto' follows on this adapter. */
export function autoState(op: string, adapter: ResolveAdapter): PromotionState {
  const { vendor, architecture } = adapter;
  return vendor !== undefined && architecture !== undefined ? registryStateFor(op, { vendor, architecture }).state : registryEntry(op).state;
}

/** One case as requests name it, its op known (a matrix entry, a lane or sweep shape). */
export type CaseRequest = Omit<CaseRef, 'op'>;

/** The case of the op's plan (built once per request: see src/core/plan/plan.ts). */
export function caseOf(op: OpDef, e: CaseRequest): OpCase {
  return planOf(op, e).c;
}

/** The op and case a request names (its plan's). */
export function buildCase(req: CaseRef): { op: OpDef; c: OpCase } {
  const { op, c } = planCase(req);
  return { op, c };
}

/** Resolves the kernel a request names; refusals name the knob and the limit. */
export function resolveKernel(plan: CasePlan, variant: VariantRequest, adapter: ResolveAdapter, opts: ResolveOptions = {}): ResolvedKernel {
  const { op, c } = plan;
  if (variant.kind === 'user') throw new UsageError('a user kernel resolves through resolveUserKernel (src/core/manifest/source.ts): it needs the device and its hashes');
  if (variant.kind === 'native') {
    const native = plan.native();
    const kernel = variant.wgsl === undefined ? native : editedNative(native, variant.wgsl);
    return { variant: 'native', schedule: null, scheduleKey: null, kernel, fallback: null };
  }
  const rejection = plan.contract(adapter);
  if (variant.kind === 'auto') {
    const state = opts.state ?? autoState(op.name, adapter);
    const byState = variantForState(state);
    if (byState.variant === 'native') return { variant: 'native', schedule: null, scheduleKey: null, kernel: plan.native(), fallback: { code: state, reason: byState.reason ?? state } };
    if (rejection) return { variant: 'native', schedule: null, scheduleKey: null, kernel: plan.native(), fallback: rejection };
    const picked = schedulesFor(op.name, c, adapter, opts.rulesBefore ?? []);
    if (!picked) return { variant: 'native', schedule: null, scheduleKey: null, kernel: plan.native(), fallback: { code: 'no-schedule', reason: `no shape rule of ${op.name} takes ${c.label} on this adapter` } };
    return { variant: 'generated', schedule: picked, scheduleKey: scheduleKey(picked), kernel: plan.generate(picked), fallback: null };
  }
  if (op.noGeneratedPath) throw new ScheduleRefusal(`${op.name} has no generated kernel: ${op.noGeneratedPath}`);
  const schedule = parseSchedule(variant.schedule, opFamilies(op));
  if (rejection) throw new ScheduleRefusal(`${op.name} ${c.label} is outside the generated contract: ${rejection.code}: ${rejection.reason}`);
  const reasons = [...validateSchedule(schedule, adapter), ...op.fits(schedule, c, adapter.limits)];
  if (reasons.length) throw new ScheduleRefusal(`schedule ${scheduleKey(schedule)} refused: ${reasons.join('; ')}`);
  return { variant: 'generated', schedule, scheduleKey: scheduleKey(schedule), kernel: plan.generate(schedule), fallback: null };
}
