// The registry: every op the lab knows, its promotion state, the contract rejections it
// declares, and schedulesFor's ordered shape rules. Promotion is a reviewed edit of this file.
import type { DeviceLimits } from '../adapter';
import type { LimitsView } from '../families/types';
import { UsageError } from '../errors';
import { validateSchedule, type Schedule } from '../schedule/schedule';
import { allHold, type Condition } from '../schedule/shape-rules';
import { SGMATRIX_PLAIN } from '../families/sgmatrix';
import { weightFormat } from '../quant/weights';
import { ACC } from './acc';
import { ADD } from './add';
import { ARGMAX } from './argmax';
import { COUNT_EQUAL } from './count-equal';
import { DEQUANT } from './dequant';
import { CONT } from './cont';
import { CPY } from './cpy';
import { CROSS_ENTROPY_LOSS, CROSS_ENTROPY_LOSS_NATIVE_ONLY } from './cross-entropy-loss';
import { CROSS_ENTROPY_LOSS_BACK } from './cross-entropy-loss-back';
import { GELU } from './gelu';
import { GET_ROWS } from './get-rows';
import { GET_ROWS_BACK, GET_ROWS_BACK_NATIVE_ONLY } from './get-rows-back';
import { GLU } from './glu';
import { MUL } from './mul';
import { MUL_MAT } from './mul-mat';
import { RMS_NORM } from './rms-norm';
import { REPEAT_BACK } from './repeat-back';
import { RMS_NORM_BACK } from './rms-norm-back';
import { OPT_STEP_ADAMW } from './opt-step-adamw';
import { OUT_PROD } from './out-prod';
import { ROPE, ROPE_BACK } from './rope';
import { SOFT_MAX } from './soft-max';
import { SOFT_MAX_BACK } from './soft-max-back';
import { SUM_ROWS } from './sum-rows';
import { SCALE } from './scale';
import { SILU } from './silu';
import { SILU_BACK } from './silu-back';
import { NEG } from './neg';
import { ABS } from './abs';
import { SGN } from './sgn';
import { STEP } from './step';
import { RELU } from './relu';
import { SQR } from './sqr';
import { SQRT } from './sqrt';
import { EXP } from './exp';
import { LOG } from './log';
import { SIN } from './sin';
import { COS } from './cos';
import { TANH } from './tanh';
import { ELU } from './elu';
import { SIGMOID } from './sigmoid';
import { HARDSIGMOID } from './hardsigmoid';
import { HARDSWISH } from './hardswish';
import { GELU_QUICK } from './gelu-quick';
import { GELU_ERF } from './gelu-erf';
import { LEAKY_RELU } from './leaky-relu';
import { CLAMP } from './clamp';
import { SUB } from './sub';
import { DIV } from './div';
import { stateFor, type AdapterClass, type AdapterIdentity, type ClassState, type PromotionState, type StateEvidence } from './promotion';
import type { OpCase, OpDef } from './types';

export type { PromotionState } from './promotion';

export interface ShapeRule {
  readonly when: readonly Condition[];
  readonly schedule: Schedule;
  /** Why this rule exists (the sweep or lane run that justified it). */
  readonly note?: string;
  /**
   * Limits the schedule needs above WebGPU's defaults (DEFAULT_LIMITS). The device is opened with
   * the adapter's own limits (limitsToRequest); where an adapter offers less, validateSchedule
   * names the numbers and schedulesFor goes on to the next rule. The conformance suite checks the
   * schedule against the defaults plus exactly these.
   */
  readonly limits?: Partial<DeviceLimits>;
}

export interface RegistryEntry {
  readonly op: string;
  /** Per adapter class ('nvidia/hopper', 'apple/*', 'google/swiftshader', 'default'): the state and its evidence. */
  readonly states: Readonly<Record<AdapterClass, StateEvidence>>;
  /** states.default's state (what an adapter with no class of its own gets). */
  readonly state: PromotionState;
  /** Contract rejection codes that may send a shape to the native kernel without failing the lane. */
  readonly declaredRejections: readonly string[];
  /** First rule whose conditions hold and whose schedule fits the case wins. */
  readonly rules: readonly ShapeRule[];
  /** The evidence behind the default state. */
  readonly evidence: string;
}

/** An entry from its per-class states; state and evidence mirror 'default'. */
function entry(e: Omit<RegistryEntry, 'state' | 'evidence'>): RegistryEntry {
  const d = e.states.default;
  if (!d) throw new Error(`registry entry ${e.op} needs a 'default' state`);
  return Object.freeze({ ...e, state: d.state, evidence: d.evidence });
}

/** The element-wise ops added through the op kits (issue 19): one declaration each, no kernel file of their own. */
const KIT_OPS: readonly OpDef[] = [NEG, ABS, SGN, STEP, RELU, SQR, SQRT, EXP, LOG, SIN, COS, TANH, ELU, SIGMOID, HARDSIGMOID, HARDSWISH, GELU_QUICK, GELU_ERF, LEAKY_RELU, CLAMP, SUB, DIV];

export const OPS: readonly OpDef[] = Object.freeze([ADD, RMS_NORM, RMS_NORM_BACK, MUL_MAT, CROSS_ENTROPY_LOSS, CROSS_ENTROPY_LOSS_BACK, GET_ROWS, GET_ROWS_BACK, CPY, CONT, ROPE, ROPE_BACK, OUT_PROD, OPT_STEP_ADAMW, SOFT_MAX, SOFT_MAX_BACK, SUM_ROWS, REPEAT_BACK, ARGMAX, COUNT_EQUAL, MUL, SCALE, SILU, SILU_BACK, GELU, GLU, ACC, DEQUANT, ...KIT_OPS]);

const freezeSchedule = <S extends Schedule>(s: S): S => Object.freeze(s);

/**
 * MUL_MAT's 16x16x16 subgroup-matrix schedules: subgroups · matrices per subgroup, tileK 32, subgroups
 * of 32, plain stores — the knobs the H200 rules vary are the tiling and the staging.
 */
const sgmatrix16 = (subgroupsM: number, subgroupsN: number, matricesM: number, matricesN: number, staging: 'prefetch' | 'double') =>
  freezeSchedule({ family: 'sgmatrix', config: '16x16x16', subgroupsM, subgroupsN, matricesM, matricesN, tileK: 32, subgroupSize: 32, staging, ...SGMATRIX_PLAIN } as const);

/** The row ops' rules (SOFT_MAX, SOFT_MAX_BACK, SUM_ROWS, ARGMAX): vec4 where rows allow it; rows of up to 4096 stay in registers. */
const ROW_RULES: readonly ShapeRule[] = Object.freeze([
  { when: [{ feature: 'ne0', multipleOf: 4 }], schedule: freezeSchedule({ family: 'norm', workgroupSize: 256, vectorWidth: 4, reduction: 'shared', unroll: 4 }) },
  { when: [], schedule: freezeSchedule({ family: 'norm', workgroupSize: 256, vectorWidth: 1, reduction: 'shared', unroll: 4 }) },
]);

/** ADD's two rules (vec4 where rows allow, scalar otherwise): where a new elementwise op starts. */
const ELEMENTWISE_RULES: readonly ShapeRule[] = Object.freeze([
  { when: [{ feature: 'ne0', multipleOf: 4 }], schedule: freezeSchedule({ family: 'elementwise', workgroupSize: 256, elementsPerThread: 4, vectorWidth: 4 }) },
  { when: [], schedule: freezeSchedule({ family: 'elementwise', workgroupSize: 256, elementsPerThread: 4, vectorWidth: 1 }) },
]);

/** An 'observe' entry on every adapter: the op's evidence, its rules (default ADD's), its declared rejections (default none). */
function observed(op: string, evidence: string, rules: readonly ShapeRule[] = ELEMENTWISE_RULES, declaredRejections: readonly string[] = []): RegistryEntry {
  return entry({ op, declaredRejections, rules, states: { default: { state: 'observe', evidence } } });
}

/** f16 weights × f16 or f32 activations, N ≥ 2048, in 128×128 tiles of K 32: the persistent rule and, where it does not fit, the spread rule. */
const F16_WEIGHTS_128 = [{ feature: 'type0', min: 1, max: 1 }, { feature: 'type1', max: 1 }, { feature: 'N', min: 2048 }, { feature: 'M', multipleOf: 128 }, { feature: 'N', multipleOf: 128 }, { feature: 'K', multipleOf: 32 }] as const;

export const REGISTRY: readonly RegistryEntry[] = Object.freeze([
  entry({
    op: 'ADD',
    declaredRejections: ['src1-rows-not-contiguous'],
    rules: ELEMENTWISE_RULES,
    states: {
      'nvidia/hopper': { state: 'prefer', evidence: 'lane 2026-11-29 (docs/benchmarks.md): H200 faster on 7/7 timed shapes (1.05–1.47×), checklist green; ADD 64M 4.17 TB/s generated vs 1.42 native' },
      'google/swiftshader': { state: 'prefer', evidence: 'lane 2026-11-29: SwiftShader faster on 7/7 (2.9–6.3×), the transposed src1 a declared fallback; checklist green' },
      default: {
        state: 'prefer',
        evidence:
          'lane 2026-11-29 (docs/benchmarks.md): H200 faster on 7/7 timed shapes (1.05–1.47×), SwiftShader faster on 7/7 (2.9–6.3×), the transposed src1 a declared fallback; checklist green on both; ADD 64M 4.17 TB/s generated vs 1.42 native',
      },
    },
  }),
  entry({
    op: 'RMS_NORM',
    declaredRejections: [],
    rules: [
      { when: [{ feature: 'ne0', multipleOf: 4 }], schedule: freezeSchedule({ family: 'norm', workgroupSize: 256, vectorWidth: 4, reduction: 'shared', unroll: 4 }), note: 'unroll 4 keeps rows of up to 4096 elements in registers (1024 vec4 over 256 threads); H200 4096² at 70% of peak BW' },
      { when: [], schedule: freezeSchedule({ family: 'norm', workgroupSize: 256, vectorWidth: 1, reduction: 'shared', unroll: 4 }) },
    ],
    states: {
      'nvidia/hopper': { state: 'observe', evidence: 'lane 2026-11-29: H200 faster on 9/9 shapes (1.05–1.54×; 4096² 3.36 vs 2.03 TB/s): a prefer candidate for this class once re-run with the unroll-4 rules' },
      'google/swiftshader': { state: 'observe', evidence: 'lane 2026-11-29: SwiftShader only parity on 5/9 (0.89–1.03 medians)' },
      default: {
        state: 'observe',
        evidence:
          'lane 2026-11-29: H200 faster on 9/9 shapes (1.05–1.54×; 4096² 3.36 vs 2.03 TB/s), but SwiftShader only parity on 5/9 (0.89–1.03 medians): stays observed until a schedule wins on both',
      },
    },
  }),
  entry({
    op: 'RMS_NORM_BACK',
    declaredRejections: [],
    rules: [
      { when: [{ feature: 'ne0', multipleOf: 4 }], schedule: freezeSchedule({ family: 'norm', workgroupSize: 256, vectorWidth: 4, reduction: 'shared', unroll: 4 }), note: 'unroll 4 keeps rows of up to 4096 elements in registers (1024 vec4 over 256 threads); H200 4096² at 76% of peak BW' },
      { when: [], schedule: freezeSchedule({ family: 'norm', workgroupSize: 256, vectorWidth: 1, reduction: 'shared', unroll: 4 }) },
    ],
    states: {
      default: {
        state: 'native-only',
        evidence:
          'kept native-only (the lane skips it; --prefer RMS_NORM_BACK runs it): the least settled generated path of the four — its bound needed a cancellation fix during development, three H200 sweeps on one day proposed three different schedules (gains 3–6%, docs/benchmarks.md), and SwiftShader shows parity only; the H200 lane with it observed was faster on 8/8 shapes (1.05–1.54×)',
      },
    },
  }),
  entry({
    op: 'MUL_MAT',
    declaredRejections: ['no-shader-f16', 'no-subgroup-matrix', 'sgmatrix-unfit'],
    rules: [
      // Quantized weights past the decode ground: subgroup matrices where offered, each K tile decoded into
      // f16 workgroup memory (validate() skips these where the features are missing: the tiled f32 rules below).
      {
        when: [{ feature: 'quant', min: 1 }, { feature: 'N', min: 9 }, { feature: 'M', multipleOf: 128 }, { feature: 'N', multipleOf: 128 }, { feature: 'K', multipleOf: 32 }],
        schedule: sgmatrix16(2, 2, 4, 4, 'double'),
        limits: { maxComputeWorkgroupStorageSize: 40960 },
        note: 'H200 4096x512x4096 q4_0 (matmul-tune.sh qgemm2): double staging 148 µs (115.9 TFLOP/s) against prefetch 176 µs, K64 prefetch 169 — the decode at the store overlaps the other buffer\'s multiply (f16 operands lose with double: gemm4)',
      },
      {
        when: [{ feature: 'quant', min: 1 }, { feature: 'N', min: 9 }, { feature: 'M', multipleOf: 128 }, { feature: 'N', multipleOf: 128 }, { feature: 'K', multipleOf: 32 }],
        schedule: sgmatrix16(2, 2, 4, 4, 'prefetch'),
        limits: { maxComputeWorkgroupStorageSize: 20480 },
        note: "H200 4096x512x4096 q4_0 (matmul-tune.sh qgemm): 128×128 tiles 175 µs (98.2 TFLOP/s) against 128×64 217 µs, 128×64 K64 205, 256×128 285; each weight decoded 4×, not 8×",
      },
      {
        when: [{ feature: 'quant', min: 1 }, { feature: 'N', min: 9 }, { feature: 'M', multipleOf: 128 }, { feature: 'N', multipleOf: 64 }, { feature: 'K', multipleOf: 32 }],
        schedule: sgmatrix16(2, 2, 4, 2, 'prefetch'),
        note: "N a multiple of 64 only: the f16 rule's 128×64 tiles (H200 4096x512x4096 q4_0 217 µs, 79 TFLOP/s)",
      },
      {
        when: [{ feature: 'quant', min: 1 }, { feature: 'N', min: 9 }],
        schedule: freezeSchedule({ family: 'sgmatrix', config: '16x8x16', subgroupsM: 1, subgroupsN: 1, matricesM: 1, matricesN: 1, tileK: 32, subgroupSize: 32, staging: 'single', ...SGMATRIX_PLAIN }),
        note: 'the smallest tile with whole 32-weight blocks (M % 16, N % 8, K % 32): what the contract checks for f16 activations',
      },
      // f16 past the decode ground: subgroup matrices (the contract declines it where they are missing).
      {
        when: F16_WEIGHTS_128,
        schedule: freezeSchedule({ ...sgmatrix16(2, 2, 4, 4, 'prefetch'), storeOrder: 'spread', persistent: 256 }),
        limits: { maxComputeWorkgroupStorageSize: 20480 },
        note: "the rule below with 256 persistent workgroups, each chaining its tiles (the next tile's first loads in flight while this one's result is stored). H200 2026-12-03, ninth session (matmul-tune.sh gemm23, one call): f16×f16→f32 4096³ 552 µs (249.2 TFLOP/s) with 256, 553–554 with 264, against 564–565 for the rule below; 4096×4224×4096 552 µs (256.9); f16 weights × f32 614 against 617. Then 547 µs (251.1) through the lane (lane-mulmat, repeat 3, GREEN) and 546–547 as the pick (auto26, gemm23, two calls). One batch, not quantized (fits() passes the rest to the rule below)",
      },
      {
        when: F16_WEIGHTS_128,
        schedule: freezeSchedule({ ...sgmatrix16(2, 2, 4, 4, 'prefetch'), storeOrder: 'spread' }),
        limits: { maxComputeWorkgroupStorageSize: 20480 },
        note: "f16 weights, f16 or f32 activations. H200 2026-12-03, seventh session (matmul-tune.sh gemm11–gemm14, `lab time` each): f16×f16→f32 4096³ 562–563 µs (244.0–244.6 TFLOP/s) with 'spread' staging stores against 608–614 µs (223.8–226.0) for plain in the same calls; ablate26 found the stores (not the MMAs) the cost: a quarter-warp's 16-byte chunks on 28 banks with plain, 32 with spread. f16 weights × f32 4096³ 618 µs (222.4; src1 staged as f16 as before, the weights spread) against 656 µs (209.4) for the 4×2 · 4×4 rule below (gemm12). Before (gemm3): 128×128 tiles against 646 µs for 256×128; K64 683 µs, rotated stores 711–765, prefetch2 613, double 969. 128 threads and 20 KiB",
      },
      {
        when: [{ feature: 'f16', min: 1 }, { feature: 'N', min: 2048 }, { feature: 'M', multipleOf: 256 }, { feature: 'N', multipleOf: 128 }, { feature: 'K', multipleOf: 32 }],
        schedule: sgmatrix16(4, 2, 4, 4, 'prefetch'),
        limits: { maxComputeWorkgroupStorageSize: 30720 },
        note: 'H200 2026-12-02 (matmul-tune.sh gemm2, workgroup offsets clamped so the robustness predicate folds): 256×128 tiles, f16 weights × f32 4096³ 209.1 TFLOP/s (gemm3: 657 µs, 209.3), f16×f16→f32 213.1 (that case now takes the 2×2 rule above) (2×4 subgroups: 212.9; before the clamp, issue26b: 148.8 / 148.8); at N = 512 too few workgroups (67.2 against 106.3 for 2×2 · 4×4, issue26), hence N ≥ 2048. 30 KiB of workgroup memory',
      },
      {
        when: [{ feature: 'type0', min: 1, max: 1 }, { feature: 'type1', min: 1, max: 1 }, { feature: 'N', min: 9 }, { feature: 'N', max: 2047 }, { feature: 'M', multipleOf: 128 }, { feature: 'N', multipleOf: 128 }, { feature: 'K', multipleOf: 64 }],
        schedule: freezeSchedule({ ...sgmatrix16(2, 4, 4, 2, 'prefetch'), tileK: 64 }),
        limits: { maxComputeWorkgroupStorageSize: 36864 },
        note: 'H200 2026-12-02, fifth session (matmul-tune.sh gemm8, `lab time` each, one call): f16×f16→f32 4096x512x4096 84.5 µs (203.3 TFLOP/s) with 128×128 tiles of eight subgroups at K64 (256 threads, 36 KiB), against 118 µs (145.3–146.1) for the same tiles at K32 (4×2 · 2×4, gemm7\'s sweep winner: 117.1 against 120.6 for the 2×2 · 4×2 rule below) in the same call; 4×2 · 2×4 K64 86.7; double staging 116–117; 128 workgroups, one an SM: K64 halves the barriers a workgroup waits at. f16 × f16 and N = 512 only as measured; at 4096³ it does not win (616 µs against 609 for the 2×2 · 4×4 rule), hence N < 2048. Through the lane (sixth session, lane-mulmat, repeat 3): 84.7 µs, 202.75 TFLOP/s, GREEN',
      },
      {
        when: [{ feature: 'f16', min: 1 }, { feature: 'N', min: 9 }, { feature: 'N', max: 2047 }, { feature: 'M', multipleOf: 128 }, { feature: 'N', multipleOf: 64 }, { feature: 'K', multipleOf: 32 }],
        schedule: sgmatrix16(2, 2, 4, 2, 'prefetch'),
        note: 'H200 2026-12-02 (matmul-tune.sh gemm2, offsets clamped): 128×64 tiles, 4096x512x4096 141.9 TFLOP/s against 126.7 for 2×2 · 4×4 (128×128, 20 KiB; 106.1 before the clamp); 256 workgroups for 132 SMs. 15 KiB: within the 16 KiB default. Measured at N = 512 only, hence N < 2048',
      },
      {
        when: [{ feature: 'f16', min: 1 }, { feature: 'N', min: 9 }, { feature: 'M', multipleOf: 128 }, { feature: 'N', multipleOf: 64 }, { feature: 'K', multipleOf: 32 }],
        schedule: freezeSchedule({ family: 'sgmatrix', config: '16x8x16', subgroupsM: 2, subgroupsN: 2, matricesM: 4, matricesN: 4, tileK: 32, subgroupSize: 32, staging: 'prefetch', ...SGMATRIX_PLAIN }),
        note: 'within the 16 KiB default (15 KiB), for N ≥ 2048 where the adapter lacks the 30 KiB of the first rule: H200 2026-12-02 (matmul-tune.sh gemm2, offsets clamped), f16×f16→f32 4096³ 155.8 TFLOP/s (110.5 before the clamp, issue26)',
      },
      { when: [{ feature: 'f16', min: 1 }, { feature: 'N', min: 9 }], schedule: freezeSchedule({ family: 'sgmatrix', config: '16x8x16', subgroupsM: 1, subgroupsN: 1, matricesM: 1, matricesN: 1, tileK: 16, subgroupSize: 32, staging: 'single', ...SGMATRIX_PLAIN }) },
      // Decode (N ≤ 8) of weights whose codes are integers for dot4I8Packed (ggml q4_0…q8_0 and MXFP4,
      // Track-1 E2M1 — nvfp4, mxfp4_t1, fp4 — and int4/int8/mxint4/mxint8: hasIntegerBlockDecode):
      // ggml's MMVQ where WGSL offers dot4I8Packed (validate), subgroup reduction where offered, else
      // shared; mmvq's fits() passes every other weight format (K-quants, FP8, int2/3/5/6…) on to the gemv rules below.
      // mmvq at N = 1 for q4_0 and q8_0 (issue 20's GEMV targets), measured on the H200 (matmul-tune.sh mmvq4, `lab sweep`
      // reps 5, the rule below as the reference in the same call). Both need subgroups (validate passes them over elsewhere).
      // K ≤ 4096, M ≤ 4096: 'shared', one pass — the workgroup quantizes src1 four threads a q8_1 block (quantizeThreads 4)
      // into K/32·48 B of workgroup memory (6 KiB at K = 4096) plus 256·2·4 B of partials: 8 KiB, within the 16 KiB default
      // (the memory alone would allow K ≤ 9536 there, ≤ 31424 in the H200's 48 KiB; fits() checks it), but measured at 4096²
      // only, and at 16384² 'shared' loses 1.5–2.3× (every workgroup re-reads all of K). Per format, as measured.
      ...(['q4_0', 'q8_0'] as const).map((name) => ({
        when: [{ feature: 'quant', min: 1 }, { feature: 'type0', min: weightFormat(name).id, max: weightFormat(name).id }, { feature: 'N', max: 1 }, { feature: 'K', max: 4096 }, { feature: 'M', max: 4096 }],
        schedule: freezeSchedule({ family: 'mmvq' as const, workgroupSize: 256, rowsPerWorkgroup: 16, rowsPerThread: 2, blocksPerThread: 4, blocksPerLoad: 1, codeLoads: 'words' as const, activations: 'shared' as const, quantizeThreads: 4, preload: 'none' as const, reduction: 'subgroup' as const }),
        note:
          name === 'q4_0'
            ? 'H200 2026-12-02 (matmul-tune.sh mmvq4, call 2): 4096x1x4096 q4_0 10.5 µs, 902 GB/s (spread 8%), against 13.9 µs for the prequantized W256 R4 rule below in the same call (target ≤ 11.8 µs, 0.8 TB/s); call 1: W256 R16 RT2 QT4 10.5–10.7, W512 R32 RT2 QT4 10.2–10.5 (W512 needs 512 invocations); one thread a block (quantizeThreads 1, tune-mmvq3) 11.9'
            : 'H200 2026-12-02 (matmul-tune.sh mmvq4, call 2): 4096x1x4096 q8_0 11.4 µs, 1.56 TB/s (spread 0%), against 14.4 µs for the prequantized W256 R4 rule below in the same call (target ≤ 11.9 µs, 1.5 TB/s); U2 11.5, preload weights 11.6, RT4 11.9–12.1, W512 R32 11.8–12.2, blocksPerLoad 2 12.0–12.7; one thread a block (tune-mmvq3) 12.7',
      })),
      // 16384² (≥ 70% of copy: q4_0 ≤ 50.8 µs): two rows and two blocks a thread keep more weight loads in flight. q8_0 keeps the rule below (81.3 against 79.1).
      // The E2M1 formats (nvfp4, mxfp4_t1, ggml mxfp4) take it too: their decode is integer-ALU bound, and two rows a thread share one activation load.
      ...(['q4_0', 'nvfp4', 'mxfp4_t1', 'mxfp4'] as const).map((name) => ({
        when: [{ feature: 'quant', min: 1 }, { feature: 'type0', min: weightFormat(name).id, max: weightFormat(name).id }, { feature: 'N', max: 1 }, { feature: 'K', min: 8192 }, { feature: 'M', min: 8192 }],
        schedule: freezeSchedule({ family: 'mmvq' as const, workgroupSize: 256, rowsPerWorkgroup: 8, rowsPerThread: 2, blocksPerThread: 2, blocksPerLoad: 1, codeLoads: 'words' as const, activations: 'prequantized' as const, quantizeThreads: 1, preload: 'none' as const, reduction: 'subgroup' as const }),
        note: {
          q4_0: 'H200 2026-12-02 (matmul-tune.sh mmvq4): 16384x1x16384 q4_0 50.6 µs, 2.99 TB/s = 70.5% of copy (call 2; call 1: 50.7), against 52.4 / 52.1 µs for the W256 R4 rule below in the same calls; R4 RT2 U2 50.9, R8 RT2 U1 51.3; blocks in pairs (blocksPerLoad 2) 53.9–56.1; shared with the four-thread quantize 78–122. Measured at 16384² only',
          nvfp4: 'H200 2026-12-02, fifth session (matmul-tune.sh mmvq6 and mmvq7, two `lab sweep`s in one call, after the f16-pair E4M3 scale decode): 16384x1x16384 nvfp4 68.4 µs in both against 72.6 / 72.9 for the W256 R4 rule below; mmvq5 (earlier decode) 74.6 against 75.9. Measured at 16384² only',
          mxfp4_t1: 'H200 2026-12-02, fifth session (mmvq6): 16384x1x16384 mxfp4_t1 65.5 µs against 66.9 for the W256 R4 rule below (+2%; mmvq5: 65.8 against 67.2). Measured at 16384² only',
          mxfp4: 'H200 2026-12-02, fifth session (mmvq6 and mmvq7, one call): 16384x1x16384 ggml mxfp4 74.3 / 74.8 µs against 77.1 / 77.2 for the W256 R4 rule below (+3–4%); four blocks a load (blocksPerLoad 4) 75.0–90.2, the table decode 117–201. Measured at 16384² only',
        }[name],
      })),
      ...(['subgroup', 'shared'] as const).map((reduction) => ({
        when: [{ feature: 'quant', min: 1 }, { feature: 'N', max: 8 }],
        schedule: freezeSchedule({ family: 'mmvq' as const, workgroupSize: 256, rowsPerWorkgroup: 4, rowsPerThread: 1, blocksPerThread: 1, blocksPerLoad: 1, codeLoads: 'words' as const, activations: 'prequantized' as const, quantizeThreads: 1, preload: 'none' as const, reduction }),
        note:
          reduction === 'subgroup'
            ? 'H200 2026-12-02 (formats --mmvq): 4096² q8_0 16.0 µs vs 27.3 for the block-decode gemv, q4_0 15.0 vs 30.6, q4_1/q5_0/q5_1 14.5/17.0/16.2 vs 26.0/30.2/28.4; 16384² q8_0 83.2 vs 310, q4_0 64.3 vs 294. The fused and rowsPerThread variants: scripts/gpu/mmvq-tune.sh'
            : 'adapters without subgroups (the same schedule, a shared-memory tree)',
      })),
      // A matrix-vector product of f32 weights past 64 MiB: one row a workgroup of 512 threads.
      {
        when: [{ feature: 'N', max: 1 }, { feature: 'K', multipleOf: 4 }, { feature: 'M', min: 16384 }, { feature: 'type0', max: 0 }, { feature: 'f16', max: 0 }],
        schedule: freezeSchedule({ family: 'gemv' as const, workgroupSize: 512, rowsPerWorkgroup: 1, columnsPerPass: 1, vectorWidth: 4, unroll: 4, reduction: 'subgroup' as const, rowsPerThread: 1 }),
        limits: { maxComputeInvocationsPerWorkgroup: 512, maxComputeWorkgroupSizeX: 512 },
        note: 'H200 2026-12-02 (matmul-tune.sh f32b), 16384x1x16384 f32: W512 R1 U4 238 µs (4.51 TB/s) against W256 R4 U4 242 in the same call; W1024 R1 262, two rows a thread 242–278. At 4096² W512 R1 lost (29.6 µs against 23.7, issue26)',
      },
      // Decode (N ≤ 8): gemv, one src0 load feeding every column of the pass.
      ...([1, 2, 4, 8] as const).map((C) => ({
        when: [{ feature: 'N', max: C }, { feature: 'K', multipleOf: 4 }],
        // Eight columns already keep eight accumulators busy per load: unrolled further, registers crowd out loads in flight.
        schedule: freezeSchedule({ family: 'gemv' as const, workgroupSize: 256, rowsPerWorkgroup: 4, columnsPerPass: C, vectorWidth: 4, unroll: C === 8 ? 1 : 4, reduction: 'subgroup' as const, rowsPerThread: 1 }),
        note:
          C === 8
            ? 'H200 2026-12-02 (matmul-tune.sh issue26b), 4096x8x4096: unroll 1 37.8 µs, unroll 2 44.3, unroll 4 43.2 (2026-12-01); R2 50.0, R8 57.3, C4 54.4'
            : 'H200 2026-12-02 (matmul-tune.sh issue26/26b), 4096x1x4096: R4 U8 23.7 µs, R1 24.0, R8 24.5–24.6, W1024 R4 25.5 — within noise of this R4 U4 (23.3, 2026-12-01); 16384²: R1 243, R4 247. On SwiftShader slower than native at small N',
      })),
      { when: [{ feature: 'N', max: 8 }, { feature: 'K', multipleOf: 4 }], schedule: freezeSchedule({ family: 'gemv', workgroupSize: 256, rowsPerWorkgroup: 4, columnsPerPass: 8, vectorWidth: 4, unroll: 4, reduction: 'shared', rowsPerThread: 1 }) },
      { when: [{ feature: 'N', max: 8 }], schedule: freezeSchedule({ family: 'gemv', workgroupSize: 256, rowsPerWorkgroup: 4, columnsPerPass: 8, vectorWidth: 1, unroll: 2, reduction: 'shared', rowsPerThread: 1 }) },
      {
        when: [{ feature: 'K', multipleOf: 4 }, { feature: 'M', min: 2048 }, { feature: 'N', min: 2048 }],
        schedule: freezeSchedule({ family: 'matmul', tileM: 128, tileN: 128, tileK: 8, threadM: 8, threadN: 8, vectorWidth: 4, staging: 'double', splitK: 1, padding: 'vec4', inner: 'pipelined', stores: 'scalar' }),
        limits: { maxComputeWorkgroupStorageSize: 16896 },
        note: "H200 2026-12-02, sixth session (matmul-tune.sh f32h and f32i, one call each): 4096³ 128×128 tiles, K8 double staging, padded, 8×8 a thread (256 threads, 64 accumulators against 8×16's 128: likely two workgroups an SM where 8×16 fits one; occupancy is not visible here), pipelined 3.04 ms, 45.27 / 45.22 / 45.22 TFLOP/s, against 42.30–42.40 for 128×256 K8 8×16 (f32e's best, 42.40 against 41.61 for the 128×128 K16 8×16 rule below) in the same calls; unrolled 45.22, unpadded 44.96, K16 double 38.64, prefetch 42.20, loop 38.93, 4×8 33.20, 64×128 42.11, 128×256 8×8 43.92. At 4096x512x4096 it ties that shape's K16 rule (463 µs both)",
      },
      {
        when: [{ feature: 'K', multipleOf: 4 }, { feature: 'M', min: 2048 }, { feature: 'N', min: 2048 }],
        schedule: freezeSchedule({ family: 'matmul', tileM: 128, tileN: 128, tileK: 16, threadM: 8, threadN: 16, vectorWidth: 4, staging: 'prefetch', splitK: 1, padding: 'none', inner: 'pipelined', stores: 'scalar' }),
        note: "H200 2026-12-02 (matmul-tune.sh f32b): 4096³ inner 'pipelined' 3.31 ms, 41.5 TFLOP/s, against the loop's 3.44 ms (40.0) first and last in the same call; padded 3.35, double 6.04. Before (gemm1): 8×16 per thread 40.1 against 38.1 for 8×8; 128×256 39.2, 16×8 37.2, split K 2 31.8",
      },
      {
        when: [{ feature: 'K', multipleOf: 4 }, { feature: 'M', min: 2048 }, { feature: 'N', min: 512 }],
        schedule: freezeSchedule({ family: 'matmul', tileM: 128, tileN: 128, tileK: 16, threadM: 8, threadN: 8, vectorWidth: 4, staging: 'double', splitK: 1, padding: 'vec4', inner: 'pipelined', stores: 'scalar' }),
        limits: { maxComputeWorkgroupStorageSize: 33792 },
        note: "H200 2026-12-02 (matmul-tune.sh f32b): 4096x512x4096 double staging, padded rows, inner 'pipelined' 464 µs, 37.0 TFLOP/s, against 507 µs (33.9) for the loop unpadded in the same call; unpadded pipelined 473, padded unrolled 466, prefetch padded pipelined 604. gemm4: double 507 against prefetch 521; at 4096³ double lost",
      },
      {
        when: [{ feature: 'K', multipleOf: 4 }, { feature: 'M', min: 2048 }, { feature: 'N', min: 512 }],
        schedule: freezeSchedule({ family: 'matmul', tileM: 128, tileN: 128, tileK: 16, threadM: 8, threadN: 8, vectorWidth: 4, staging: 'prefetch', splitK: 1, padding: 'none', inner: 'loop', stores: 'scalar' }),
        note: 'H200 2026-12-02 (matmul-tune.sh gemm1/gemm2): 4096x512x4096 33.0 TFLOP/s against 26.3 for the 64×64 rule below; 8×16 per thread 32.4, 128×64 32.8, split K 2/4 18.9–31.3 (more threads did not pay for the reduction)',
      },
      { when: [{ feature: 'K', multipleOf: 4 }], schedule: freezeSchedule({ family: 'matmul', tileM: 64, tileN: 64, tileK: 16, threadM: 4, threadN: 4, vectorWidth: 4, staging: 'prefetch', splitK: 1, padding: 'none', inner: 'loop', stores: 'scalar' }) },
      { when: [], schedule: freezeSchedule({ family: 'matmul', tileM: 64, tileN: 64, tileK: 16, threadM: 4, threadN: 4, vectorWidth: 1, staging: 'single', splitK: 1, padding: 'none', inner: 'loop', stores: 'scalar' }) },
    ],
    states: {
      'nvidia/hopper': { state: 'observe', evidence: 'lane 2026-11-29: H200 faster on 8/8 shapes (1.10–2.65×; 4096³ 38.1 vs 14.5 TFLOP/s); issue 10 found order-dependent lane timings on this class, so no promotion until they agree' },
      'google/swiftshader': { state: 'observe', evidence: 'lane 2026-11-29: SwiftShader slower on 129x7x33 (0.95×): the work item is small-N shapes (a GEMV rule)' },
      default: {
        state: 'observe',
        evidence:
          'lane 2026-11-29: H200 faster on 8/8 shapes (1.10–2.65×; 4096³ 38.1 vs 14.5 TFLOP/s), but SwiftShader slower on 129x7x33 (0.95×): observed; the work item is small-N shapes (a GEMV rule)',
      },
    },
  }),
  entry({
    op: 'SOFT_MAX',
    declaredRejections: ['f16-mask', 'sinks', 'mask-broadcast'],
    rules: ROW_RULES,
    states: {
      default: { state: 'observe', evidence: 'new in issue 9 Part 2 (docs/ops-rows.md), generated through the row family. SwiftShader lane 2026-12-01: green, 8 shapes timed: 2 faster (1.13–1.16×), 6 parity (0.79–1.36 medians), f16-mask and sinks declared fallbacks; checklist green. Not yet measured on a GPU' },
    },
  }),
  entry({
    op: 'SOFT_MAX_BACK',
    declaredRejections: [],
    rules: ROW_RULES,
    states: {
      default: { state: 'observe', evidence: 'new in issue 9 Part 2 (docs/ops-rows.md), generated through the row family. SwiftShader lane 2026-12-01: green, parity on 6/6 shapes (0.86–1.16 medians); checklist green. Not yet measured on a GPU' },
    },
  }),
  entry({
    op: 'SUM_ROWS',
    declaredRejections: [],
    rules: ROW_RULES,
    states: {
      default: { state: 'observe', evidence: 'new in issue 9 Part 2 (docs/ops-rows.md), generated through the row family. SwiftShader lane 2026-12-01: green, 2 faster (1.08–1.37×), 6 parity (1.09–1.35 medians); checklist green. Not yet measured on a GPU' },
    },
  }),
  entry({
    op: 'REPEAT_BACK',
    declaredRejections: ['repeats-over-64'],
    rules: [
      { when: [{ feature: 'ne0', multipleOf: 4 }], schedule: freezeSchedule({ family: 'elementwise', workgroupSize: 256, elementsPerThread: 1, vectorWidth: 4 }) },
      { when: [], schedule: freezeSchedule({ family: 'elementwise', workgroupSize: 256, elementsPerThread: 1, vectorWidth: 1 }) },
    ],
    states: {
      default: { state: 'observe', evidence: 'new in issue 9 Part 2 (docs/ops-rows.md), generated through the elementwise family (one strided source per tile, up to 64 tiles; more are a declared fallback). SwiftShader lane 2026-12-01: green, faster on 6/8 (1.99–10.45×), parity on 2 (wide spreads), repeats-over-64 declared fallback; an earlier run under CPU contention had one too-slow watchdog on 33x9x1x1x4. Not yet measured on a GPU' },
    },
  }),
  entry({
    op: 'ARGMAX',
    declaredRejections: [],
    rules: ROW_RULES,
    states: {
      default: { state: 'observe', evidence: 'new in issue 9 Part 2 (docs/ops-rows.md), generated through the row family (max, then the last INDEX at the max: two passes where the native kernel reduces (value, index) pairs in one). SwiftShader lane 2026-12-01 (two runs): green, correct on 7/7, but slower on 2/7 (4093x13 0.62×, 10x64 0.71×), parity on 5 (0.71–1.03 medians): the work item is a one-pass (value, index) combine. Not yet measured on a GPU' },
    },
  }),
  entry({
    op: 'COUNT_EQUAL',
    declaredRejections: ['not-contiguous', 'count-over-2^24'],
    rules: [{ when: [], schedule: freezeSchedule({ family: 'norm', workgroupSize: 256, vectorWidth: 1, reduction: 'shared', unroll: 4 }) }],
    states: {
      default: { state: 'observe', evidence: 'new in issue 9 Part 2 (docs/ops-rows.md), generated through the row family (the packed tensors as one row, an f32 count below 2^24; views are a declared fallback). SwiftShader lane 2026-12-01: green, 1 faster (4.72×), 3 parity (1.27–3.14 medians), 3 not-contiguous declared fallbacks; checklist green. Not yet measured on a GPU' },
    },
  }),
  entry({
    op: 'CROSS_ENTROPY_LOSS',
    declaredRejections: [],
    // No generated path (the op declares it): no shape rules.
    rules: [],
    states: { default: { state: 'native-only', evidence: `native-only: ${CROSS_ENTROPY_LOSS_NATIVE_ONLY}. The op declares no generated path (Level 1 refuses a schedule with that reason)` } },
  }),
  entry({
    op: 'CROSS_ENTROPY_LOSS_BACK',
    declaredRejections: [],
    rules: [
      { when: [{ feature: 'ne0', multipleOf: 4 }], schedule: freezeSchedule({ family: 'norm', workgroupSize: 256, vectorWidth: 4, reduction: 'shared', unroll: 4 }) },
      { when: [], schedule: freezeSchedule({ family: 'norm', workgroupSize: 256, vectorWidth: 1, reduction: 'shared', unroll: 4 }) },
    ],
    states: { default: { state: 'observe', evidence: 'new (issue 9): the row family (max, then Σexp(x − max), grad read once per row). SwiftShader lane 2026-12-01 (a loaded 2-core CI box): correct on 5/5 shapes, parity 3, slower 2 (4093x7 0.93×, 100x1 0.83×): a work item; no GPU numbers yet' } },
  }),
  observed(
    'GET_ROWS',
    'new (issue 9): the elementwise family with two gathers (the index, then the table row). SwiftShader lane 2026-12-01: correct on 6/6 shapes, faster 3 (1.38–4.03×), parity 3; no GPU numbers yet',
    [{ when: [], schedule: freezeSchedule({ family: 'elementwise', workgroupSize: 256, elementsPerThread: 4, vectorWidth: 1 }) }],
  ),
  entry({
    op: 'GET_ROWS_BACK',
    declaredRejections: [],
    // No generated path (the op declares it): no shape rules.
    rules: [],
    states: { default: { state: 'native-only', evidence: `native-only: ${GET_ROWS_BACK_NATIVE_ONLY}. The op declares no generated path (Level 1 refuses a schedule with that reason)` } },
  }),
  observed('CPY', 'new (issue 9): the elementwise family (strided source, or its coordinates of dst\'s linear index); an f16 dst is stored as f16 (shader-f16; without it a declared fallback, no-shader-f16). SwiftShader lane 2026-12-01 (before the f16 path): correct on 6/6 timed shapes, faster 5 (3.18–9.71×), parity 1 (dst-view); no GPU numbers yet', ELEMENTWISE_RULES, ['no-shader-f16']),
  observed('CONT', 'new (issue 9): the elementwise family, as CPY. SwiftShader lane 2026-12-01: correct on 6/6 shapes, faster 3 (3.16–5.06×), parity 3; no GPU numbers yet'),
  // In place each element's partner may already be overwritten by its own thread: native there.
  observed(
    'ROPE',
    'new in issue 9 (ggml d99724f2 semantics); SwiftShader lane 2026-12-01 (a CPU shared with other jobs): parity on 7/9 timed shapes, slower on 128x3x23 freq-factors (0.41×, spread 0.18–0.90), in place a declared fallback ×2; generated and native match the oracle on every shape. Not yet run on a GPU: observed',
    [{ when: [], schedule: freezeSchedule({ family: 'elementwise', workgroupSize: 256, elementsPerThread: 1, vectorWidth: 1 }), note: 'one element per thread: the partner and the position are custom-index reads (vectorWidth 1)' }], ['inplace-pairs'],
  ),
  observed(
    'ROPE_BACK',
    'new in issue 9 (ggml d99724f2 semantics); SwiftShader lane 2026-12-01 (a CPU shared with other jobs): parity on 6/7 shapes, slower on 64x7x33x2 (0.87×, spread 0.12–0.89); generated and native match the oracle on every shape. Not yet run on a GPU: observed',
    [{ when: [], schedule: freezeSchedule({ family: 'elementwise', workgroupSize: 256, elementsPerThread: 1, vectorWidth: 1 }), note: 'as ROPE' }],
  ),
  entry({
    op: 'OUT_PROD',
    declaredRejections: [],
    rules: [{ when: [], schedule: freezeSchedule({ family: 'matmul', tileM: 64, tileN: 64, tileK: 16, threadM: 4, threadN: 4, vectorWidth: 1, staging: 'single', splitK: 1, padding: 'none', inner: 'loop', stores: 'scalar' }), note: "scalar loads: src0's k stride is its row stride (vec4 needs k contiguous)" }],
    states: { default: { state: 'observe', evidence: 'new in issue 9 (ggml d99724f2 semantics); SwiftShader lane 2026-12-01 (a CPU shared with other jobs): faster on 2/6 shapes, parity on 4/6, none slower; generated and native match the oracle on every shape. Not yet run on a GPU: observed' } },
  }),
  observed(
    'OPT_STEP_ADAMW',
    'new in issue 9 (ggml d99724f2 semantics); SwiftShader lane 2026-12-01 (a CPU shared with other jobs), with the vec4 rule: faster on 5/6 shapes (1.48–2.83×), parity on 4097 (vectorWidth 1), none slower; generated and native match the oracle on all three outputs (a, m, v) of every shape. Not yet run on a GPU: observed',
    [
      { when: [{ feature: 'n', multipleOf: 4 }], schedule: freezeSchedule({ family: 'elementwise', workgroupSize: 256, elementsPerThread: 4, vectorWidth: 4 }), note: "vec4 over packed a, grad, m, v (the planes of the state start on vec4s when n % 4 == 0); the 7 hyperparameters are uniform reads of the params tensor, splatted" },
      { when: [], schedule: freezeSchedule({ family: 'elementwise', workgroupSize: 256, elementsPerThread: 1, vectorWidth: 1 }) },
    ],
  ),
  observed('MUL', 'new (issue 9 Part 2), ADD schedules; not yet measured on a GPU; SwiftShader lane 2026-12-01 (repeat 3, a shared 2-core machine, every shape correct native and generated, no fallback): faster 6/8, parity 2 (4093x7, 256x64 src1-transposed)'),
  observed('SCALE', 'new (issue 9 Part 2, added after Part 1 as one op file, its WGSL and this entry), ADD schedules; not yet measured on a GPU; SwiftShader lane 2026-12-01 (repeat 3, a shared 2-core machine, every shape correct native and generated, no fallback): faster 3/4, parity 1 (1000x11x3 inplace s=-2.5 b=0.5)'),
  observed('SILU', 'new (issue 9 Part 2), ADD schedules; not yet measured on a GPU; SwiftShader lane 2026-12-01 (repeat 3, a shared 2-core machine, every shape correct native and generated, no fallback): faster 4/5, parity 1 (4096x8 src0-rows-strided)'),
  observed('SILU_BACK', 'new (issue 9 Part 2), ADD schedules; not yet measured on a GPU; SwiftShader lane 2026-12-01 (repeat 3, a shared 2-core machine, every shape correct native and generated, no fallback): faster 4/5, parity 1 (4096x8 src0-rows-strided)'),
  observed('GELU', 'new (issue 9 Part 2), ADD schedules; not yet measured on a GPU; SwiftShader lane 2026-12-01 (repeat 3, a shared 2-core machine, every shape correct native and generated, no fallback): faster 4/5, parity 1 (4096x8 src0-rows-strided)'),
  observed('GLU', 'new (issue 9 Part 2), ADD schedules (the fused halves vectorize when ne0/2 is a multiple of 4); not yet measured on a GPU; SwiftShader lane 2026-12-01 (repeat 3, a shared 2-core machine, every shape correct native and generated, no fallback): faster 7/8, parity 1 (1000x11x3 op=1)'),
  observed('ACC', 'new (issue 9 Part 2), ADD schedules (out of place the view test is a gather: vectorWidth 1); not yet measured on a GPU; SwiftShader lane 2026-12-01 (repeat 3, a shared 2-core machine, every shape correct native and generated, no fallback): faster 5/10, parity 4, slower 1 (4093x7 inplace 0.36×: in place both kernels touch only the view; a work item)'),
  ...KIT_OPS.map((op) => observed(op.name, 'new in issue 19 through the op kit (native: the unary/binary template with its snippet; generated: the elementwise family, ADD schedules); not yet measured on a GPU')),
  // One weight per element (the decode reads its block's bytes); vectors are not offered.
  observed(
    'DEQUANT',
    "new (issue 20): the codec's WGSL decode through the elementwise family vs the native 8-weights-per-thread kernel; exact against the codec on SwiftShader; not yet measured on a GPU",
    [{ when: [], schedule: freezeSchedule({ family: 'elementwise', workgroupSize: 256, elementsPerThread: 4, vectorWidth: 1 }) }],
  ),
]);

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

/** The promotion state of `op` for this adapter (its class's, else the default), with the evidence. */
export function registryStateFor(op: string, adapter: AdapterIdentity): ClassState {
  return stateFor(registryEntry(op), adapter);
}

/**
 * The schedule the generated path uses for a case, or null when no rule takes it here.
 * `before` are rules tried ahead of the registry's (a sweep proposal under evaluation).
 */
export function schedulesFor(op: string, c: OpCase, adapter: LimitsView, before: readonly ShapeRule[] = []): Schedule | null {
  const def = opByName(op);
  if (def.noGeneratedPath) return null;
  const features = def.features(c);
  for (const rule of [...before, ...registryEntry(def.name).rules]) {
    if (!allHold(rule.when, features)) continue;
    if (validateSchedule(rule.schedule, adapter).length) continue;
    if (def.fits(rule.schedule, c, adapter.limits).length) continue;
    return rule.schedule;
  }
  return null;
}
