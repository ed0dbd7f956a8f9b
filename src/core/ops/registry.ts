// The registry: every op the lab knows, its promotion state, the contract rejections it
// declares, and schedulesFor's ordered shape rules. Promotion is a reviewed edit of this file.
import type { AdapterDescriptor } from '../adapter';
import { UsageError } from '../errors';
import { validateSchedule, type Schedule } from '../schedule/schedule';
import { allHold, type Condition } from '../schedule/shape-rules';
import { ACC } from './acc';
import { ADD } from './add';
import { GELU } from './gelu';
import { GLU } from './glu';
import { MUL } from './mul';
import { MUL_MAT } from './mul-mat';
import { RMS_NORM } from './rms-norm';
import { RMS_NORM_BACK } from './rms-norm-back';
import { SILU } from './silu';
import { SILU_BACK } from './silu-back';
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

export const OPS: readonly OpDef[] = Object.freeze([ADD, RMS_NORM, RMS_NORM_BACK, MUL_MAT, MUL, SILU, SILU_BACK, GELU, GLU, ACC]);

const freezeSchedule = <S extends Schedule>(s: S): S => Object.freeze(s);

export const REGISTRY: readonly RegistryEntry[] = Object.freeze([
  {
    op: 'ADD',
    state: 'prefer',
    declaredRejections: ['src1-rows-not-contiguous'],
    rules: [
      { when: [{ feature: 'ne0', multipleOf: 4 }], schedule: freezeSchedule({ family: 'elementwise', workgroupSize: 256, elementsPerThread: 4, vectorWidth: 4 }) },
      { when: [], schedule: freezeSchedule({ family: 'elementwise', workgroupSize: 256, elementsPerThread: 4, vectorWidth: 1 }) },
    ],
    evidence:
      'lane 2026-11-29 (docs/benchmarks.md): H200 faster on 7/7 timed shapes (1.05–1.47×), SwiftShader faster on 7/7 (2.9–6.3×), the transposed src1 a declared fallback; checklist green on both; ADD 64M 4.17 TB/s generated vs 1.42 native',
  },
  {
    op: 'RMS_NORM',
    state: 'observe',
    declaredRejections: [],
    rules: [
      { when: [{ feature: 'ne0', multipleOf: 4 }], schedule: freezeSchedule({ family: 'norm', workgroupSize: 256, vectorWidth: 4, reduction: 'shared', unroll: 4 }), note: 'unroll 4 keeps rows of up to 4096 elements in registers (1024 vec4 over 256 threads); H200 4096² at 70% of peak BW' },
      { when: [], schedule: freezeSchedule({ family: 'norm', workgroupSize: 256, vectorWidth: 1, reduction: 'shared', unroll: 4 }) },
    ],
    evidence:
      'lane 2026-11-29: H200 faster on 9/9 shapes (1.05–1.54×; 4096² 3.36 vs 2.03 TB/s), but SwiftShader only parity on 5/9 (0.89–1.03 medians): stays observed until a schedule wins on both',
  },
  {
    op: 'RMS_NORM_BACK',
    state: 'native-only',
    declaredRejections: [],
    rules: [
      { when: [{ feature: 'ne0', multipleOf: 4 }], schedule: freezeSchedule({ family: 'norm', workgroupSize: 256, vectorWidth: 4, reduction: 'shared', unroll: 4 }), note: 'unroll 4 keeps rows of up to 4096 elements in registers (1024 vec4 over 256 threads); H200 4096² at 76% of peak BW' },
      { when: [], schedule: freezeSchedule({ family: 'norm', workgroupSize: 256, vectorWidth: 1, reduction: 'shared', unroll: 4 }) },
    ],
    evidence:
      'kept native-only (the lane skips it; --prefer RMS_NORM_BACK runs it): the least settled generated path of the four — its bound needed a cancellation fix during development, three H200 sweeps on one day proposed three different schedules (gains 3–6%, docs/benchmarks.md), and SwiftShader shows parity only; the H200 lane with it observed was faster on 8/8 shapes (1.05–1.54×)',
  },
  {
    op: 'MUL_MAT',
    state: 'observe',
    declaredRejections: [],
    rules: [
      {
        when: [{ feature: 'K', multipleOf: 4 }, { feature: 'M', min: 2048 }, { feature: 'N', min: 2048 }],
        schedule: freezeSchedule({ family: 'matmul', tileM: 128, tileN: 128, tileK: 16, threadM: 8, threadN: 8, vectorWidth: 4, staging: 'prefetch' }),
        note: 'H200 sweeps 2026-11-29: fastest of 144 candidates at 4096³ (38.0 TFLOP/s); 64 accumulators per thread, 256 threads, 16 KiB',
      },
      { when: [{ feature: 'K', multipleOf: 4 }], schedule: freezeSchedule({ family: 'matmul', tileM: 64, tileN: 64, tileK: 16, threadM: 4, threadN: 4, vectorWidth: 4, staging: 'prefetch' }) },
      { when: [], schedule: freezeSchedule({ family: 'matmul', tileM: 64, tileN: 64, tileK: 16, threadM: 4, threadN: 4, vectorWidth: 1, staging: 'single' }) },
    ],
    evidence:
      'lane 2026-11-29: H200 faster on 8/8 shapes (1.10–2.65×; 4096³ 38.1 vs 14.5 TFLOP/s), but SwiftShader slower on 129x7x33 (0.95×): observed; the work item is small-N shapes (a GEMV rule)',
  },
  {
    op: 'MUL',
    state: 'native-only',
    declaredRejections: [],
    rules: [],
    evidence: 'native kernel only so far: the generated path comes as an elementwise family snippet (issue 9 Part 2)',
  },
  {
    op: 'SILU',
    state: 'native-only',
    declaredRejections: [],
    rules: [],
    evidence: 'native kernel only so far: the generated path comes as an elementwise family snippet (issue 9 Part 2)',
  },
  {
    op: 'GELU',
    state: 'native-only',
    declaredRejections: [],
    rules: [],
    evidence: 'native kernel only so far: the generated path comes as an elementwise family snippet (issue 9 Part 2)',
  },
  {
    op: 'SILU_BACK',
    state: 'native-only',
    declaredRejections: [],
    rules: [],
    evidence: 'native kernel only so far: the generated path comes as an elementwise family snippet (issue 9 Part 2)',
  },
  {
    op: 'GLU',
    state: 'native-only',
    declaredRejections: [],
    rules: [],
    evidence: 'native kernel only so far: the generated path comes as an elementwise family snippet (issue 9 Part 2)',
  },
  {
    op: 'ACC',
    state: 'native-only',
    declaredRejections: [],
    rules: [],
    evidence: 'native kernel only so far: the generated path comes as an elementwise family snippet (issue 9 Part 2)',
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

/**
 * The schedule the generated path uses for a case, or null when no rule takes it here.
 * `before` are rules tried ahead of the registry's (a sweep proposal under evaluation).
 */
export function schedulesFor(op: string, c: OpCase, adapter: Pick<AdapterDescriptor, 'limits' | 'features'>, before: readonly ShapeRule[] = []): Schedule | null {
  const def = opByName(op);
  const features = def.features(c);
  for (const rule of [...before, ...registryEntry(def.name).rules]) {
    if (!allHold(rule.when, features)) continue;
    if (validateSchedule(rule.schedule, adapter).length) continue;
    if (def.fits(rule.schedule, c).length) continue;
    return rule.schedule;
  }
  return null;
}
