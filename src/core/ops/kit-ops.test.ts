// The element-wise ops added through the op kits: each op's oracle against ggml's formula at
// hand-picked points (values worked out from the formula, not read back from the code), its
// declared input domain and bound, and its one snippet in both kernels.
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../adapter';
import { ABS } from './abs';
import { CLAMP } from './clamp';
import { COS } from './cos';
import { DIV } from './div';
import { ELU } from './elu';
import { EXP } from './exp';
import { erf, GELU_ERF } from './gelu-erf';
import { GELU_QUICK } from './gelu-quick';
import { HARDSIGMOID } from './hardsigmoid';
import { HARDSWISH } from './hardswish';
import { LEAKY_RELU } from './leaky-relu';
import { LOG } from './log';
import { NEG } from './neg';
import { schedulesFor } from './registry';
import { RELU } from './relu';
import { SGN } from './sgn';
import { SIGMOID } from './sigmoid';
import { SIN } from './sin';
import { SQR } from './sqr';
import { SQRT } from './sqrt';
import { STEP } from './step';
import { SUB } from './sub';
import { TANH } from './tanh';
import type { OpDef } from './types';

const f32 = (xs: readonly number[]) => new Float32Array(xs).buffer;
/** The oracle's values at xs (a packed [n] case), to 6 decimals, -0 as 0. */
function unary(op: OpDef, xs: readonly number[], params?: Record<string, number>): number[] {
  const r = op.oracle(op.makeCase([xs.length], 'contiguous', params), [f32(xs)]);
  return [...r.ref].map((v) => +v.toFixed(6) + 0);
}

describe('unary kit ops: ggml semantics at known points', () => {
  it.each([
    ['NEG', NEG, [1.5, -2, 0], [-1.5, 2, 0]],
    ['ABS', ABS, [-1.5, 2, 0], [1.5, 2, 0]],
    // ggml_vec_sgn_f32 and _step_f32 compare with 0: 0 and -0 give 0.
    ['SGN', SGN, [-3, 0, -0, 0.5], [-1, 0, 0, 1]],
    ['STEP', STEP, [-3, 0, 0.5], [0, 0, 1]],
    ['RELU', RELU, [-3, 0, 0.5], [0, 0, 0.5]],
    ['SQR', SQR, [3, -0.5], [9, 0.25]],
    ['SQRT', SQRT, [4, 0.25], [2, 0.5]],
    ['EXP', EXP, [0, 1, -1], [1, 2.718282, 0.367879]],
    ['LOG', LOG, [1, 0.5, 8], [0, -0.693147, 2.079442]],
    ['SIN', SIN, [0, 0.5, -3], [0, 0.479426, -0.14112]],
    ['COS', COS, [0, 0.5, 3], [1, 0.877583, -0.989992]],
    ['TANH', TANH, [0, 0.5, -20], [0, 0.462117, -1]],
    // expm1(-1) = 1/e − 1.
    ['ELU', ELU, [1, -1, 0], [1, -0.632121, 0]],
    ['SIGMOID', SIGMOID, [0, 2, -2], [0.5, 0.880797, 0.119203]],
    // (x + 3) / 6 clamped to [0, 1]: -4 → 0, 0 → 0.5, 1.5 → 0.75, 4 → 1.
    ['HARDSIGMOID', HARDSIGMOID, [-4, 0, 1.5, 4], [0, 0.5, 0.75, 1]],
    ['HARDSWISH', HARDSWISH, [-4, 0, 1.5, 4], [0, 0, 1.125, 4]],
    // 1 / (1 + e^-1.702) = 0.845796…; x = -1 gives -(1 − 0.845796…).
    ['GELU_QUICK', GELU_QUICK, [0, 1, -1], [0, 0.845796, -0.154204]],
    // 0.5·(1 + erf(1/√2)) = Φ(1) = 0.841345; x = -1 gives -(1 − Φ(1)).
    ['GELU_ERF', GELU_ERF, [0, 1, -1, 3], [0, 0.841345, -0.158655, 2.99595]],
  ] as const)('%s', (_, op, xs, want) => {
    expect(unary(op, xs)).toEqual(want);
  });

  it('LEAKY_RELU: (x > 0 ? x : 0) + slope·(x < 0 ? x : 0), slope an f32 param (default 0.01)', () => {
    expect(unary(LEAKY_RELU, [-2, 3, 0])).toEqual([-0.02, 3, 0]);
    expect(unary(LEAKY_RELU, [-2, 3], { negative_slope: 0.2 })).toEqual([-0.4, 3]);
    expect(LEAKY_RELU.makeCase([4], 'contiguous', { negative_slope: 0.2 }).label).toBe('4 negative_slope=0.2');
  });

  it('CLAMP: MAX(MIN(x, max), min) as ggml, so min wins where min > max', () => {
    expect(unary(CLAMP, [-2, 0.3, 2])).toEqual([-1, 0.3, 1]);
    expect(unary(CLAMP, [-2, 0.3, 2], { min: 0.5, max: -0.5 })).toEqual([0.5, 0.5, 0.5]);
    const k = CLAMP.generate({ family: 'elementwise', workgroupSize: 64, elementsPerThread: 1, vectorWidth: 4 }, CLAMP.makeCase([8], 'contiguous', { min: -0.25, max: 0.5 }));
    expect(k.wgsl).toContain('const min: f32 = -0.250000000;\nconst max: f32 = 0.500000000;');
    expect(k.wgsl).toContain('alias T = vec4<f32>;');
    expect(k.wgsl).toContain('= clamp_ggml(x_v, T(min), T(max));');
  });

  it('erf in f64 against tabulated values, both branches', () => {
    expect(erf(0.5)).toBeCloseTo(0.5204998778130465, 14);
    expect(erf(-1)).toBeCloseTo(-0.8427007929497149, 14);
    expect(erf(3.5)).toBeCloseTo(0.9999992569016276, 14);
    expect(erf(0)).toBe(0);
  });
});

describe('binary kit ops', () => {
  it('SUB and DIV broadcast src1 over src0 as ADD does', () => {
    const row = SUB.makeCase([2, 2], 'broadcast-row');
    expect([...SUB.oracle(row, [f32([3, 1, 5, 7]), f32([1, 4])]).ref]).toEqual([2, -3, 4, 3]);
    const col = DIV.makeCase([2, 2], 'broadcast-col');
    expect([...DIV.oracle(col, [f32([3, 1, 5, 7]), f32([2, 4])]).ref]).toEqual([1.5, 0.5, 1.25, 1.75]);
  });
});

describe('declared domains and bounds', () => {
  it('SQRT and LOG draw x > 0; DIV draws |b| ≥ 0.5 (a / b stays finite)', () => {
    for (const op of [SQRT, LOG]) {
      const xs = new Float32Array(op.inputs!(op.makeCase([4096]), 3)[0]);
      expect(Math.min(...xs)).toBeGreaterThan(0);
      expect(Math.max(...xs)).toBeGreaterThan(7.9);
    }
    const [a, b] = DIV.inputs!(DIV.makeCase([4096]), 3).map((buf) => new Float32Array(buf));
    expect(Math.min(...b.map(Math.abs))).toBeGreaterThanOrEqual(0.5);
    expect(Math.max(...a.map(Math.abs))).toBeLessThanOrEqual(1);
  });

  it("widens the bound where WGSL's builtin promises less than 8 ULP", () => {
    const at = (op: OpDef, x: number) => op.oracle(op.makeCase([1]), [f32([x])]).epsFloor[0];
    // sin/cos: an absolute 2⁻¹¹ on [-π, π] = 8·2⁻²³ · 256.
    expect(at(SIN, 0.5)).toBe(256);
    // log: an absolute 2⁻²¹ on [0.5, 2].
    expect(at(LOG, 1)).toBe(0.5);
    expect(at(LOG, 8)).toBeCloseTo(Math.log(8), 12);
    // ELU for x ≤ 0 is exp(x) − 1 in WGSL: the terms' size, widened as exp's.
    expect(at(ELU, -2)).toBe(1.5);
    expect(at(RELU, -2)).toBe(0);
  });
});

describe('one snippet, both kernels', () => {
  it('the native template and the generated kernel carry the same expression', () => {
    const c = SIGMOID.makeCase([64, 4]);
    expect(SIGMOID.native(c).label).toBe('native:SIGMOID (unary/unary.wgsl)');
    expect(SIGMOID.native(c).wgsl).toContain('return 1.0 / (1.0 + exp(-x));');
    const s = schedulesFor('SIGMOID', c, { limits: DEFAULT_LIMITS, features: [] })!;
    expect(SIGMOID.generate(s, c).wgsl).toContain('= 1.0 / (1.0 + exp(-x_v));');
    const d = DIV.native(DIV.makeCase([8, 2], 'inplace'));
    expect(d.label).toBe('native:DIV (binary/binary.wgsl) [INPLACE]');
    expect(d.wgsl).toContain('fn op(a: T, b: T) -> T {\n  return a / b;\n}');
  });

  it('GELU_ERF brings its erf to both kernels', () => {
    const c = GELU_ERF.makeCase([64]);
    for (const wgsl of [GELU_ERF.native(c).wgsl, GELU_ERF.generate(schedulesFor('GELU_ERF', c, { limits: DEFAULT_LIMITS, features: [] })!, c).wgsl]) {
      expect(wgsl).toContain('fn erf_as(z: T) -> T {');
      expect(wgsl).toContain('const sqrt_2_inv: f32 = 0.707106769;');
    }
  });
});
