// The results the engine produces, as plain data: the lane's, the sweep's and Level 1's.
// They live in core so the reports (JSON, text, markdown, share links) and the page can read
// them without depending on the GPU layer that fills them in.
import type { PlantRecord } from './lane/plant';
import type { LaneUserColumn, UserKernelRef, UserKernelSource } from './manifest/source';
import type { Metrics } from './metrics/roofline';
import type { PromotionState } from './ops/registry';
import type { Schedule } from './schedule/schedule';
import type { Condition } from './schedule/shape-rules';
import type { CorrectnessReport } from './stats/correctness';
import type { ProposalEntry } from './stats/sweep-rules';
import type { TimingSummary } from './stats/timing';
import type { LaneControl, LanePairRecord, LaneRecord, LaneShapeRecord, Level1Record, RepeatAuto, SweepCellRecord, SweepRecord } from './schema/results';

/** A Level 1 result: its stored fields (src/core/schema/results.ts) and the kernel's WGSL. */
export interface Level1Result extends Level1Record {
  readonly kind: 'level1';
  readonly label: string;
  /** For variant 'user': which kernel (name, manifest and WGSL hashes). */
  readonly userKernel?: UserKernelRef | null;
  readonly maxErr: number;
  readonly bound: number;
  readonly correctness: CorrectnessReport;
  /** null when the output was wrong: a wrong kernel's time is never read. */
  readonly timing: TimingSummary | null;
  /** Roofline metrics of the timed result (null when untimed). */
  readonly metrics: Metrics | null;
  readonly wgsl: string;
  readonly dispatch: readonly [number, number, number];
  /** The first pass's workgroup size, where the lab did not choose it (a user kernel's manifest). */
  readonly workgroupSize?: readonly [number, number, number];
}

export type { LaneControl, LaneSkip, RepeatAuto } from './schema/results';

export interface LaneRequest {
  /** Pairs to run (default: every op not native-only). */
  ops?: string[];
  repeat?: number;
  tolerance?: number;
  seed?: number;
  /** Treat these ops as `prefer` for this run only (their verdicts gate). */
  prefer?: string[];
  /** A `prefer` gate passes `undecided` shapes (noise above the tolerance) instead of failing on them. */
  allowUndecided?: boolean;
  /** Instead of a fixed `repeat`: passes until the median's interval is narrow enough (capped). */
  repeatAuto?: RepeatAuto;
  control?: LaneControl;
  /** Treat these rejection codes as undeclared for this run (what-if). */
  undeclare?: string[];
  /** Replace the ops' matrices with these cases. */
  shapes?: { op: string; dims: number[]; layout?: string; params?: Record<string, number> }[];
  /**
   * Rules tried before the registry's for this run: a sweep's proposal taken through the lane
   * before anyone pastes it into the registry.
   */
  proposal?: { op: string; when: Condition[]; schedule: unknown }[];
  /** Watchdog's wall bound for one timed batch (default 10 s). */
  wallBoundMs?: number;
  /** The watchdog's hard wall bound on one GPU wait, ms: past it the device is given up (src/gpu/watchdog.ts; default 30 000). */
  watchdogMs?: number;
  minRuns?: number;
  /** User kernels timed as further columns beside native and generated, on their op's shapes. */
  kernels?: UserKernelSource[];
}

/** One shape of a lane pair: its stored fields (src/core/schema/results.ts) and what the run kept beside them. */
export interface LaneShape extends LaneShapeRecord {
  /** Under a planted `slow:F` control: the factor asked, the factor measured, the chain that planted it. */
  readonly plant?: PlantRecord;
  readonly nativeCorrect: boolean;
  readonly generatedCorrect: boolean | null;
  readonly generatedMaxErrRatio: number | null;
  readonly flops: number | null;
  readonly readBytes: number;
  readonly writeBytes: number;
  readonly resolutionNs: number | null;
  readonly runsPerPass: number | null;
  /** Roofline metrics of each side's median over the passes (min: the smallest pass median). */
  readonly nativeMetrics: Metrics | null;
  readonly generatedMetrics: Metrics | null;
  /** One column per user kernel of this op (absent without --kernel). */
  readonly users?: readonly LaneUserColumn[];
}

export interface LaneCounters {
  generatedDispatches: number;
  nativeFallbacks: Record<string, number>;
  undeclaredFallbacks: number;
  deviceRejections: number;
}

export interface ChecklistItem {
  readonly id: 'semantics' | 'lane-green' | 'no-slower' | 'device-parity' | 'contract-clean';
  readonly title: string;
  readonly pass: boolean;
  readonly evidence: string;
}

export interface LanePair extends LanePairRecord {
  /** The registry's state when --prefer raised it for this run. */
  readonly registryState: PromotionState;
  readonly counters: LaneCounters;
  readonly shapes: readonly LaneShape[];
  readonly checklist: readonly ChecklistItem[];
}

export interface LaneResult extends LaneRecord {
  readonly kind: 'lane';
  readonly settings: { repeat: number; tolerance: number; seed: number; prefer: string[]; control: LaneControl | null; undeclare: string[]; wallBoundMs: number; proposalRules: number; allowUndecided?: boolean; repeatAuto?: RepeatAuto };
  readonly pairs: readonly LanePair[];
  /** Host time in this lane: inputs and oracles built (a replay reuses them: ≈ 0), outputs checked. */
  readonly host?: { readonly buildMs: number; readonly checkMs: number };
}

export interface SweepRequest {
  op: string;
  reps?: number;
  /** Shapes to sweep (default: the op's matrix less what its `sweeps` leaves out, less the shapes its contract rejects). */
  shapes?: { dims: number[]; layout?: string; params?: Record<string, number> }[];
  /** Restrict knobs to these values (default: the family's whole space). */
  space?: Record<string, (number | string)[]>;
  seed?: number;
  wallBoundMs?: number;
  minRuns?: number;
}

export type CandidateStatus = SweepCandidate['status'];

/** One candidate on one shape: its stored fields, metrics always set in memory (null when untimed). */
export interface SweepShapeCell extends SweepCellRecord {
  /** Roofline metrics of the candidate on this shape (min: its fastest rep). */
  readonly metrics: Metrics | null;
}

export interface SweepCandidate extends Omit<SweepRecord['candidates'][number], 'shapes'> {
  readonly shapes: readonly SweepShapeCell[];
}

export type SweepReference = SweepRecord['reference'][number];

/** A sweep: its stored fields (src/core/schema/results.ts); in memory, every cell's metrics and every proposal's key are set. */
export interface SweepResult extends SweepRecord {
  readonly kind: 'sweep';
  readonly candidates: readonly SweepCandidate[];
  readonly proposal: readonly ProposalEntry<Schedule>[];
}
