import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../adapter';
import { contiguous, permute, stridedRows } from '../tensor';
import { adamwParamsTensor, adamwProblems, OPT_STEP_ADAMW } from './opt-step-adamw';
import { OpCaseError } from './types';

const F = Math.fround;

describe('OPT_STEP_ADAMW makeCase', () => {
  it("ggml's five sources; a, m and v are planes of one state buffer, dst covers all three", () => {
    const c = OPT_STEP_ADAMW.makeCase([1000, 7, 3]);
    expect(c.layout).toBe('inplace');
    expect(c.inplace).toBe(true);
    expect(c.params).toEqual({ alpha: 0.001, beta1: 0.9, beta2: 0.999, eps: 1e-8, wd: 0, iter: 1 });
    const [a, grad, m, v, hp] = c.srcs;
    expect([a.offsetBytes, m.offsetBytes, v.offsetBytes]).toEqual([0, 21000 * 4, 2 * 21000 * 4]);
    expect(a.bufferSizeBytes).toBe(3 * 21000 * 4);
    expect(m.nb).toEqual(a.nb);
    expect(grad.ne).toEqual([1000, 7, 3, 1]);
    expect(hp.ne).toEqual([7, 1, 1, 1]);
    expect(c.dst.ne).toEqual([1000, 7, 3, 3]);
    expect(c.dst.offsetBytes).toBe(0);
    expect(OPT_STEP_ADAMW.bytes(c)).toEqual({ readBytes: 4 * 21000 * 4 + 28, writeBytes: 3 * 21000 * 4 });
  });

  it('4D parameters fold dims 2 and 3 into the dst plane index', () => {
    expect(OPT_STEP_ADAMW.makeCase([64, 64, 2, 2]).dst.ne).toEqual([64, 64, 4, 3]);
  });

  it("params are checked against ggml-opt's asserts", () => {
    const bad = (params: Record<string, number>, re: RegExp) => {
      expect(() => OPT_STEP_ADAMW.makeCase([8], 'inplace', params)).toThrow(OpCaseError);
      expect(() => OPT_STEP_ADAMW.makeCase([8], 'inplace', params)).toThrow(re);
    };
    bad({ alpha: 0 }, /alpha = 0 is out of range \(alpha is a finite number > 0; ggml-opt asserts it\)/);
    bad({ beta1: 1 }, /beta1 = 1 is out of range \(beta1 is a finite number, 0 ≤ beta1 ≤ 0.999999\)/);
    bad({ beta2: -0.1 }, /beta2 = -0.1 is out of range/);
    bad({ eps: -1e-8 }, /eps = -1e-8 is out of range/);
    bad({ wd: 1.5 }, /wd = 1.5 is out of range \(wd is a finite number, 0 ≤ wd ≤ 1\)/);
    bad({ iter: 0 }, /iter = 0 is out of range/);
    bad({ lr: 1 }, /OPT_STEP_ADAMW has no param 'lr'/);
    expect(() => OPT_STEP_ADAMW.makeCase([8], 'contiguous')).toThrow(/no layout 'contiguous' \(layouts: inplace\)/);
  });

  it('ggml walks grad, m and v with a’s strides: other strides or shapes are refused', () => {
    const a = contiguous('f32', [8, 4]);
    const hp = contiguous('f32', [7]);
    expect(adamwProblems(a, a, a, a, hp)).toEqual([]);
    expect(adamwProblems(a, stridedRows('f32', [8, 4], 11), a, a, hp)).toEqual([expect.stringMatching(/grad has strides 4,44,176,176 B but ggml indexes it with a's 4,32,128,128 B/)]);
    expect(adamwProblems(a, a, contiguous('f32', [8, 5]), a, hp)).toEqual(['m 8x5x1x1 is not a\'s shape 8x4x1x1']);
    expect(adamwProblems(permute(contiguous('f32', [4, 8]), [1, 0, 2, 3]), permute(contiguous('f32', [4, 8]), [1, 0, 2, 3]), permute(contiguous('f32', [4, 8]), [1, 0, 2, 3]), permute(contiguous('f32', [4, 8]), [1, 0, 2, 3]), hp)).toEqual([expect.stringMatching(/rows are not contiguous/)]);
    expect(adamwProblems(a, a, a, a, contiguous('f32', [6]))).toEqual(['the params tensor must be 7 f32 values, got 6 f32']);
  });
});

describe('OPT_STEP_ADAMW params tensor and oracle', () => {
  it('the params tensor as ggml-opt fills it: beta1h = 1/(1 − beta1^iter) in f32', () => {
    const t = adamwParamsTensor({ alpha: 0.001, beta1: 0.9, beta2: 0.999, eps: 1e-8, wd: 0, iter: 1 });
    expect(Array.from(t.slice(0, 5))).toEqual([F(0.001), F(0.9), F(0.999), F(1e-8), 0]);
    expect(t[5]).toBe(F(9.999998));
    expect(t[6]).toBeCloseTo(1000.0129, 3);
    expect(adamwParamsTensor({ alpha: 1, beta1: 0.5, beta2: 0.75, eps: 0, wd: 0, iter: 2 }).slice(5)).toEqual(new Float32Array([4 / 3, 16 / 7]));
  });

  it('one hand-computed step: w 0.5, g 0.2, m 0.1, v 0.04; α 0.01, β 0.5/0.75, wd 0.5', () => {
    // β1h = 2, β2h = 4; m' = 0.05 + 0.1 = 0.15, v' = 0.03 + 0.01 = 0.04,
    // w' = 0.5·(1 − 0.005) − 0.01·(0.15·2)/(sqrt(0.16) + 0) = 0.4975 − 0.0075 = 0.49.
    const c = OPT_STEP_ADAMW.makeCase([1], 'inplace', { alpha: 0.01, beta1: 0.5, beta2: 0.75, eps: 0, wd: 0.5 });
    const state = new Float32Array([0.5, 0.1, 0.04]).buffer;
    const grad = new Float32Array([0.2]).buffer;
    const r = OPT_STEP_ADAMW.oracle(c, [state, grad, state, state, adamwParamsTensor(c.params).buffer]);
    expect(r.ref[0]).toBeCloseTo(0.49, 6);
    expect(r.ref[1]).toBeCloseTo(0.15, 7);
    expect(r.ref[2]).toBeCloseTo(0.04, 7);
    expect(r.terms).toBe(8);
    expect(r.epsFloor[2]).toBeCloseTo(0.04, 7); // v: terms ≥ 0, no cancellation
  });

  it('an m that cancels keeps its terms as floor, and so does the update it feeds', () => {
    const c = OPT_STEP_ADAMW.makeCase([1], 'inplace', { alpha: 0.01, beta1: 0.5, beta2: 0.75, eps: 0 });
    const state = new Float32Array([0, -0.2, 0.04]).buffer; // m·β1 = −0.1 cancels g·(1 − β1) = 0.1
    const r = OPT_STEP_ADAMW.oracle(c, [state, new Float32Array([0.2]).buffer, state, state, adamwParamsTensor(c.params).buffer]);
    expect(Math.abs(r.ref[1])).toBeLessThan(1e-8);
    expect(r.epsFloor[1]).toBeCloseTo(0.2, 7);
    expect(r.epsFloor[0]).toBeCloseTo((0.01 * 0.2 * 2) / 0.4, 6);
  });

  it('inputs: v never negative; a, m and v given as the same state bytes', () => {
    const c = OPT_STEP_ADAMW.makeCase([4093, 3]);
    const bufs = OPT_STEP_ADAMW.inputs!(c, 1);
    expect(bufs).toHaveLength(5);
    expect(bufs[2]).toBe(bufs[0]);
    const v = new Float32Array(bufs[0]).slice(2 * 4093 * 3);
    expect(Math.min(...v)).toBeGreaterThanOrEqual(0);
    expect(new Float32Array(bufs[4])[5]).toBe(F(9.999998));
  });
});

describe('OPT_STEP_ADAMW native kernel', () => {
  it('binds the state once read-write, grad and the params tensor read-only', () => {
    const k = OPT_STEP_ADAMW.native(OPT_STEP_ADAMW.makeCase([4097]));
    expect(k.bindings.map((b) => `${b.role}:${b.access}`)).toEqual(['dst:read_write', 'src1:read', 'src4:read', 'params:uniform']);
    expect(k.dispatch).toEqual([17, 1, 1]);
    // offsets (elements, past the 256 B guard) of the five Tensor descriptors (12 words each, the
    // offset the 9th): a 64, grad 64, m 64 + 4097, v 64 + 2·4097, params 64
    expect([8, 20, 32, 44, 56].map((w) => k.uniforms![w])).toEqual([64, 64, 64 + 4097, 64 + 2 * 4097, 64]);
  });

  it('the contract takes every matrix case', () => {
    for (const m of OPT_STEP_ADAMW.matrix) expect(OPT_STEP_ADAMW.require(OPT_STEP_ADAMW.makeCase(m.dims, m.layout, m.params), { limits: DEFAULT_LIMITS, features: [] })).toBeNull();
  });
});

describe('OPT_STEP_ADAMW generated (elementwise family, three outputs)', () => {
  it('loads w, m and v from the state and the 7 hyperparameters from the params tensor, then stores all three', () => {
    const k = OPT_STEP_ADAMW.generate({ family: 'elementwise', workgroupSize: 256, elementsPerThread: 1, vectorWidth: 1 }, OPT_STEP_ADAMW.makeCase([4097]));
    expect(k.bindings.map((b) => `${b.role}:${b.access}`)).toEqual(['dst:read_write', 'src1:read', 'src4:read']);
    expect(k.wgsl).toMatch(/let beta1h_v = src4\[69u\];/); // params tensor at 64 + 5
    const body = k.wgsl.slice(k.wgsl.indexOf('let pw_v'));
    expect(body.indexOf('dst[64u + v] =')).toBeGreaterThan(body.indexOf('let pv_v'));
    expect(body).toMatch(/dst\[4161u \+ v\] = \(pm_v \* beta1_v \+ pg_v \* \(1\.0 - beta1_v\)\);/); // m at 64 + 4097
    expect(body).toMatch(/dst\[8258u \+ v\] = \(pv_v \* beta2_v \+ pg_v \* pg_v \* \(1\.0 - beta2_v\)\);/);
  });

  it('vec4 when n % 4 == 0: the flat path, the hyperparameters splatted (uniform reads)', () => {
    const c = OPT_STEP_ADAMW.makeCase([4096, 4]);
    const k = OPT_STEP_ADAMW.generate({ family: 'elementwise', workgroupSize: 256, elementsPerThread: 4, vectorWidth: 4 }, c);
    expect(k.wgsl).toMatch(/^\/\/ generated: OPT_STEP_ADAMW flat/);
    expect(k.wgsl).toContain('let beta1h_v = vec4<f32>(src4[69u]);');
    expect(k.wgsl).toContain('let pm_v = dst[4112u + v];'); // (64 + 16384) / 4
    expect(OPT_STEP_ADAMW.fits({ family: 'elementwise', workgroupSize: 256, elementsPerThread: 4, vectorWidth: 4 }, OPT_STEP_ADAMW.makeCase([4093, 3]))).toEqual(['vectorWidth 4 needs the element count 12279 to be a multiple of 4']);
  });
});
