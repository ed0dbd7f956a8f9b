// What a schedule family is: one file declaring its knob space, its checks against adapter
// limits, what a schedule launches (threads, workgroup bytes), and codegen that takes an op's
// snippet. schedule.ts is generic over these definitions; nothing else switches on family names.
import type { AdapterDescriptor, DeviceLimits } from '../adapter';
import type { KernelSpec } from '../kernel';
import { OpCaseError, type OpCase } from '../ops/case';
import { stableJson } from '../schedule/stable-json';

export interface KnobSpec {
  /** The values offered (a string knob takes only these; numeric knobs accept any positive integer in a parsed schedule). */
  readonly values: readonly (number | string)[];
  /**
   * What an unrestricted sweep enumerates, when not all of `values` (a value measured to lose
   * everywhere stays parseable and sweepable on request, without multiplying every sweep).
   */
  readonly sweep?: readonly (number | string)[];
  readonly doc: string;
  /** For a knob added later: what schedules written before it (saved results, links) meant. */
  readonly default?: number | string;
  /**
   * The knob stays out of a schedule (and so out of its key) while it has its default value: a knob
   * added after schedules were saved, recorded and snapshotted leaves their keys as they were. The
   * family reads an absent value as the default.
   */
  readonly omitDefault?: boolean;
  /** A numeric knob's least value (absent: 1); 0 where 0 means off. */
  readonly min?: number;
}

export type LimitsView = Pick<AdapterDescriptor, 'limits' | 'features' | 'wgslFeatures'>;

/** A schedule: frozen plain data, its family's name and one value per knob. */
export interface ScheduleBase {
  readonly family: string;
}

/** What a kernel's header and label name: 'ADD' and '4096x512 inplace'. */
export interface CaseName {
  readonly op: string;
  readonly label: string;
}

export interface FamilyDef<S extends ScheduleBase = ScheduleBase, Snippet = unknown> {
  readonly name: S['family'];
  readonly doc: string;
  readonly space: Readonly<Record<string, KnobSpec>>;
  /** Threads per workgroup the schedule launches. */
  threads(s: S): number;
  /** Threads along x where the workgroup is 1-D and may pass 256 (checked against maxComputeWorkgroupSizeX); absent: the family checks its own. */
  threadsX?(s: S): number;
  /** Workgroup memory the schedule declares at most, in bytes. */
  workgroupBytes(s: S): number;
  /** How to say the thread count in a reason ("workgroupSize 512", "(tileM/threadM)·(tileN/threadN) = 512 threads"). */
  threadsText(s: S): string;
  /** The family's own reasons against the adapter (the shared ones — threads, workgroup bytes, vectorWidth — are schedule.ts's). */
  validate(s: S, adapter: LimitsView): string[];
  /**
   * Why this schedule cannot take this snippet's tensors (empty when it can). `limits`, where the
   * caller has an adapter: a family whose workgroup memory grows with the case (mmvq's 'shared'
   * activations) checks it here; without them that check is left to the device.
   */
  fits(s: S, snippet: Snippet, limits?: DeviceLimits): string[];
  /** Pure codegen; called only when fits() is empty. `c` names the op and case for the WGSL header and the kernel label. */
  generate(s: S, snippet: Snippet, c: CaseName): KernelSpec;
}

/** The derived, stable identity of a schedule: 'matmul{"threadM":8,…}'. */
export function scheduleKey(s: ScheduleBase): string {
  const { family, ...knobs } = s;
  return `${family}${stableJson(knobs)}`;
}

/**
 * An op's generated path from its family and its snippet: what OpDef needs (`family`, `fits`,
 * `generate`). A schedule of another family is a reason, never a crash.
 */
export function generatedPath<S extends ScheduleBase, Snippet>(family: FamilyDef<S, Snippet>, snippetOf: (c: OpCase) => Snippet) {
  const fits = (s: ScheduleBase, c: OpCase, limits?: DeviceLimits): string[] =>
    s.family !== family.name ? [`${c.op} takes a ${family.name} schedule, not ${s.family}`] : family.fits(s as S, snippetOf(c), limits);
  return {
    family: family.name,
    fits,
    generate(s: ScheduleBase, c: OpCase): KernelSpec {
      const why = fits(s, c);
      if (why.length) throw new OpCaseError(`schedule ${scheduleKey(s)} cannot take ${c.op} ${c.label}: ${why.join('; ')}`);
      return family.generate(s as S, snippetOf(c), { op: c.op, label: c.label });
    },
  };
}
