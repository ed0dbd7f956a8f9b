// The results the engine produces, as plain data: the lane's, the sweep's and Level 1's.
// They live in core so the reports (JSON, text, markdown, share links) and the page can read
// them without depending on the GPU layer that fills them in.
import type { AdapterDescriptor } from './adapter';
import type { PlantRecord } from './lane/plant';
import type { LaneUserColumn, UserKernelRef, UserKernelSource } from './manifest/source';
import type { Metrics } from './metrics/roofline';
import type { PromotionState } from './ops/registry';
import type { Schedule } from './schedule/schedule';
import type { Condition } from './schedule/shape-rules';
import type { CorrectnessReport } from './stats/correctness';
import type { ProposalEntry } from './stats/sweep-rules';
import type { TimingSummary } from './stats/timing';
import type { ShapeVerdict } from './stats/verdict';

export interface Level1Result {
  readonly kind: 'level1';
  readonly op: string;
  readonly shape: string;
  /** The case's dims and stable id; absent in results stored before they existed. */
  readonly dims?: readonly number[];
  readonly caseId?: string;
  readonly layout: string;
  readonly label: string;
  /** The case's params, every declared one (defaults included); {} for an op without params. */
  readonly params?: Readonly<Record<string, number>>;
  readonly variant: 'native' | 'generated' | 'user';
  readonly scheduleKey: string | null;
  readonly schedule: Schedule | null;
  /** For variant 'user': which kernel (name, manifest and WGSL hashes). */
  readonly userKernel?: UserKernelRef | null;
  /** Why 'auto' ran native: a contract rejection, 'no-schedule', or the op's state ('native-only', 'retired'). */
  readonly fallback: { code: string; reason: string } | null;
  readonly correct: boolean;
  readonly maxErr: number;
  readonly bound: number;
  readonly correctness: CorrectnessReport;
  /** null when the output was wrong: a wrong kernel's time is never read. */
  readonly timing: TimingSummary | null;
  readonly flops: number | null;
  readonly readBytes: number;
  readonly writeBytes: number;
  /** Roofline metrics of the timed result (null when untimed). */
  readonly metrics: Metrics | null;
  readonly adapter: AdapterDescriptor;
  readonly wgsl: string;
  readonly dispatch: readonly [number, number, number];
  /** The first pass's workgroup size, where the lab did not choose it (a user kernel's manifest). */
  readonly workgroupSize?: readonly [number, number, number];
  readonly startedAt: string;
}

/** An op the lane skipped, or one shape refused as a planted control (`plant` says what was measured). */
export interface LaneSkip {
  readonly op: string;
  readonly reason: string;
  readonly plant?: PlantRecord & { readonly shape: string };
}

/** `--repeat auto`: passes are added until the median's interval is at most `targetWidth` of the median, up to `maxPasses`. */
export interface RepeatAuto {
  readonly targetWidth: number;
  readonly maxPasses: number;
}

/** Statistics controls: the generated side replaced by the native kernel itself (A/A), the same
 * kernel doing 3× the work (slow) or 200× (stall: the watchdog's too-slow), or one that skips
 * half its output (wrong and fast); `slow:F` plants a slowdown (F in (1, 3]): the native kernel
 * with a calibrated chain of ALU work inside its own dispatch, measured at F× within ±1 point
 * before the passes, with identical output (src/core/lane/plant.ts). */
export type LaneControl = 'aa' | 'slow' | 'stall' | 'wrong' | `slow:${number}`;

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

export interface LaneShape {
  readonly shape: string;
  readonly dims: readonly number[];
  /** The case's stable id (src/core/plan/plan.ts caseId); absent in results stored before it existed. */
  readonly caseId?: string;
  readonly layout: string;
  /** The case's params (defaults included); the label names the non-default ones. */
  readonly params?: Readonly<Record<string, number>>;
  readonly scheduleKey: string | null;
  readonly nativeMedianNs: number | null;
  readonly generatedMedianNs: number | null;
  readonly speedups: readonly number[];
  readonly speedupMedian: number | null;
  readonly speedupMin: number | null;
  readonly speedupMax: number | null;
  /** The effect floor the verdict applied (verdict.ts effectFloor): a gain at or below it is parity. */
  readonly effectFloor?: number;
  /** Under a planted `slow:F` control: the slowdown Level 1 measured (verified) for the planted kernel. */
  readonly plantedRatio?: number;
  /** Under a planted `slow:F` control: the factor asked, the factor measured, the chain that planted it. */
  readonly plant?: PlantRecord;
  /** Passes the verdict used (`--repeat auto` stops when the median's interval is narrow enough). */
  readonly passes?: number;
  /** Passes measured again because they were out of line with the others (see rounds.ts). */
  readonly remeasuredPasses?: number;
  readonly verdict: ShapeVerdict;
  readonly fallback: { code: string; reason: string; declared: boolean } | null;
  readonly nativeCorrect: boolean;
  readonly generatedCorrect: boolean | null;
  readonly generatedMaxErrRatio: number | null;
  readonly note: string | null;
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

export interface LanePair {
  readonly op: string;
  readonly state: PromotionState;
  /** The registry's state when --prefer raised it for this run. */
  readonly registryState: PromotionState;
  readonly gating: boolean;
  readonly counters: LaneCounters;
  readonly shapes: readonly LaneShape[];
  readonly checklist: readonly ChecklistItem[];
  /** 'green', 'gate-failed' (a prefer pair), 'lane-failed' (an undeclared fallback or device
   * rejection, any state), or 'work-items' (an observe pair with shapes to improve). */
  readonly verdict: 'green' | 'gate-failed' | 'lane-failed' | 'work-items';
}

export interface LaneResult {
  readonly kind: 'lane';
  readonly adapter: AdapterDescriptor;
  readonly settings: { repeat: number; tolerance: number; seed: number; prefer: string[]; control: LaneControl | null; undeclare: string[]; wallBoundMs: number; proposalRules: number; allowUndecided?: boolean; repeatAuto?: RepeatAuto };
  readonly pairs: readonly LanePair[];
  /** Ops the lane did not run, and shapes refused as a planted control (with what was measured). */
  readonly skipped: readonly LaneSkip[];
  readonly green: boolean;
  readonly startedAt: string;
  readonly durationMs: number;
  /** Host time in this lane: inputs and oracles built (a replay reuses them: ≈ 0), outputs checked. */
  readonly host?: { readonly buildMs: number; readonly checkMs: number };
}

export interface SweepRequest {
  op: string;
  reps?: number;
  /** Shapes to sweep (default: the op's matrix, less the shapes its contract rejects). */
  shapes?: { dims: number[]; layout?: string; params?: Record<string, number> }[];
  /** Restrict knobs to these values (default: the family's whole space). */
  space?: Record<string, (number | string)[]>;
  seed?: number;
  wallBoundMs?: number;
  minRuns?: number;
}

export type CandidateStatus = 'accepted' | 'noise' | 'slower' | 'no-rule' | 'wrong' | 'too-slow' | 'invalid' | 'device-rejection';

export interface SweepShapeCell {
  readonly shape: string;
  readonly medianNs: number | null;
  readonly spread: number | null;
  readonly gain: number | null;
  /** win / lose / noise; 'unfit' when the schedule cannot take the shape. */
  readonly outcome: 'win' | 'lose' | 'noise' | 'unfit' | null;
  /** Roofline metrics of the candidate on this shape (min: its fastest rep). */
  readonly metrics: Metrics | null;
}

export interface SweepCandidate {
  readonly key: string;
  readonly schedule: Schedule;
  readonly status: CandidateStatus;
  readonly reason: string;
  readonly shapes: readonly SweepShapeCell[];
  readonly rule: readonly Condition[] | null;
  readonly meanWinGain: number | null;
}

export interface SweepReference {
  readonly shape: string;
  readonly variant: string;
  readonly medianNs: number;
  readonly spread: number;
}

export interface SweepResult {
  readonly kind: 'sweep';
  readonly op: string;
  readonly adapter: AdapterDescriptor;
  readonly settings: { reps: number; seed: number; space: Record<string, (number | string)[]> };
  readonly shapes: readonly string[];
  readonly excludedShapes: readonly { shape: string; reason: string }[];
  readonly reference: readonly SweepReference[];
  readonly candidates: readonly SweepCandidate[];
  readonly proposal: readonly ProposalEntry<Schedule>[];
  readonly startedAt: string;
  readonly durationMs: number;
}
