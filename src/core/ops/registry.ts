// The registry: every op the lab knows, its promotion state, the contract rejections it
// declares, and schedulesFor's ordered shape rules. Promotion is a reviewed edit of this file.
import type { AdapterDescriptor } from '../adapter';
import { UsageError } from '../errors';
import { validateSchedule, type Schedule } from '../schedule/schedule';
import { allHold, type Condition } from '../schedule/shape-rules';
import { ADD } from './add';
import type { OpCase, OpDef } from './types';

export type PromotionState = 'native-only' | 'observe' | 'prefer' | 'retired';

export interface ShapeRule {
  readonly when: readonly Condition[];
  readonly schedule: Schedule;
  /** Why this rule exists (the sweep or lane run that justified it). */
  readonly note?: string;
}

export interface RegistryEntry {
  readonly op: string;
  readonly state: PromotionState;
  /** Contract rejection codes that may send a shape to the native kernel without failing the lane. */
  readonly declaredRejections: readonly string[];
  /** First rule whose conditions hold and whose schedule fits the case wins. */
  readonly rules: readonly ShapeRule[];
  /** The evidence behind the state. */
  readonly evidence: string;
}

export const OPS: readonly OpDef[] = Object.freeze([ADD]);

const freezeSchedule = <S extends Schedule>(s: S): S => Object.freeze(s);

export const REGISTRY: readonly RegistryEntry[] = Object.freeze([
  {
    op: 'ADD',
    state: 'observe',
    declaredRejections: ['src1-rows-not-contiguous'],
    rules: [
      { when: [{ feature: 'ne0', multipleOf: 4 }], schedule: freezeSchedule({ family: 'elementwise', workgroupSize: 256, elementsPerThread: 4, vectorWidth: 4 }) },
      { when: [], schedule: freezeSchedule({ family: 'elementwise', workgroupSize: 256, elementsPerThread: 4, vectorWidth: 1 }) },
    ],
    evidence: 'not yet measured',
  },
] satisfies RegistryEntry[]);

export function opByName(name: string): OpDef {
  const op = OPS.find((o) => o.name === name.toUpperCase());
  if (!op) throw new UsageError(`unknown op '${name}' (ops: ${OPS.map((o) => o.name).join(', ')})`);
  return op;
}

export function registryEntry(op: string): RegistryEntry {
  const entry = REGISTRY.find((e) => e.op === op);
  if (!entry) throw new UsageError(`op '${op}' has no registry entry`);
  return entry;
}

/** The schedule the generated path uses for a case, or null when no rule takes it here. */
export function schedulesFor(op: string, c: OpCase, adapter: Pick<AdapterDescriptor, 'limits' | 'features'>): Schedule | null {
  const def = opByName(op);
  const features = def.features(c);
  for (const rule of registryEntry(def.name).rules) {
    if (!allHold(rule.when, features)) continue;
    if (validateSchedule(rule.schedule, adapter).length) continue;
    if (def.fits(rule.schedule, c).length) continue;
    return rule.schedule;
  }
  return null;
}
