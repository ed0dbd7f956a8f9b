import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../adapter';
import { contiguous, permute, transpose } from '../tensor';
import { OUT_PROD, outProdProblems } from './out-prod';
import { bufferFor } from '../../../test/fixtures/buffers';
import { OpCaseError } from './types';

describe('OUT_PROD makeCase', () => {
  it('MxNxK: src0 [M, K], src1 [N, K], dst [M, N]', () => {
    const c = OUT_PROD.makeCase([129, 67, 33]);
    expect(c.srcs[0].ne).toEqual([129, 33, 1, 1]);
    expect(c.srcs[1].ne).toEqual([67, 33, 1, 1]);
    expect(c.dst.ne).toEqual([129, 67, 1, 1]);
    expect(OUT_PROD.features(c)).toEqual({ M: 129, N: 67, K: 33, batch: 1 });
    expect(OUT_PROD.flops(c)).toBe(2 * 129 * 67 * 33);
  });

  it("src1-transposed is the backward pass's transpose(grad): i1 stride K, k stride 1", () => {
    const c = OUT_PROD.makeCase([200, 96, 50], 'src1-transposed');
    expect(c.srcs[1].ne).toEqual([96, 50, 1, 1]);
    expect(c.srcs[1].nb).toEqual([50 * 4, 4, 96 * 50 * 4, 96 * 50 * 4]);
  });

  it('batched-broadcast: src0 has half the batches; dst takes src1 batches', () => {
    const c = OUT_PROD.makeCase([96, 40, 24, 4], 'batched-broadcast');
    expect(c.srcs[0].ne).toEqual([96, 24, 2, 1]);
    expect(c.dst.ne).toEqual([96, 40, 4, 1]);
  });

  it("errors name ggml's asserts", () => {
    expect(() => OUT_PROD.makeCase([8, 8])).toThrow(/takes MxNxK or MxNxKxB/);
    expect(() => OUT_PROD.makeCase([8, 8, 8], 'contiguous', { alpha: 1 })).toThrow(/takes no params, got alpha/);
    expect(() => OUT_PROD.makeCase([8, 8, 8, 3], 'batched-broadcast')).toThrow(OpCaseError);
    expect(() => OUT_PROD.makeCase([8, 8, 8, 3], 'batched-broadcast')).toThrow(/B = 3 must be even/);
    expect(() => OUT_PROD.makeCase([8, 8, 8], 'src0-transposed')).toThrow(/no layout 'src0-transposed'/);
    const a = contiguous('f32', [8, 5, 2]);
    expect(outProdProblems(a, contiguous('f32', [3, 6, 2]))).toEqual([expect.stringMatching(/differ in dim 1 \(K = 5 vs 6; ggml_can_out_prod\)/)]);
    expect(outProdProblems(a, contiguous('f32', [3, 5, 3]))).toEqual([expect.stringMatching(/batches 2x1 do not divide src1's 3x1/)]);
    expect(outProdProblems(transpose(contiguous('f32', [5, 8])), contiguous('f32', [3, 5]))).toContainEqual(expect.stringMatching(/src0 is transposed/));
    expect(outProdProblems(permute(contiguous('f32', [5, 2, 8]), [1, 2, 0, 3]), contiguous('f32', [3, 5]))).toContainEqual(expect.stringMatching(/src0 rows are not contiguous/));
  });
});

describe('OUT_PROD oracle', () => {
  // src0 a[i0, k] = [1, 2 | 3, 4] (k = 0 | k = 1), src1 b[i1, k] = [5, 6 | 7, 8]:
  // dst[i0, i1] = a[i0,0]·b[i1,0] + a[i0,1]·b[i1,1].
  const a = [1, 2, 3, 4];
  const b = [5, 6, 7, 8];
  it('a hand-computed 2×2×2 case: [1·5 + 3·7, 2·5 + 4·7, 1·6 + 3·8, 2·6 + 4·8]', () => {
    const c = OUT_PROD.makeCase([2, 2, 2]);
    const r = OUT_PROD.oracle(c, [bufferFor(c.srcs[0], a), bufferFor(c.srcs[1], b)]);
    expect(Array.from(r.ref)).toEqual([26, 38, 30, 44]);
    expect(r.terms).toBe(2);
    expect(r.epsFloor[0]).toBeCloseTo(26 / Math.SQRT2, 12);
  });

  it('a transposed src1 is read through its strides (same logical values, same result)', () => {
    const c = OUT_PROD.makeCase([2, 2, 2], 'src1-transposed');
    const r = OUT_PROD.oracle(c, [bufferFor(c.srcs[0], a), bufferFor(c.srcs[1], b)]);
    expect(Array.from(r.ref)).toEqual([26, 38, 30, 44]);
  });

  it('src0 broadcast over batches: both dst batches use the one src0', () => {
    const c = OUT_PROD.makeCase([2, 2, 2, 2], 'batched-broadcast');
    const r = OUT_PROD.oracle(c, [bufferFor(c.srcs[0], a), bufferFor(c.srcs[1], [...b, ...b.map((x) => -x)])]);
    expect(Array.from(r.ref)).toEqual([26, 38, 30, 44, -26, -38, -30, -44]);
  });

  it('a sample computes only the asked elements', () => {
    const c = OUT_PROD.makeCase([2, 2, 2]);
    const r = OUT_PROD.oracle(c, [bufferFor(c.srcs[0], a), bufferFor(c.srcs[1], b)], Int32Array.from([1, 3]));
    expect(Array.from(r.ref)).toEqual([38, 44]);
    expect(Array.from(r.indices!)).toEqual([1, 3]);
  });
});

describe('OUT_PROD native kernel', () => {
  it('64×64 tiles, batches over z; strides of both sources in the uniform', () => {
    const c = OUT_PROD.makeCase([200, 96, 50], 'src1-transposed');
    const k = OUT_PROD.native(c);
    expect(k.label).toBe('native:OUT_PROD/out_prod.wgsl');
    expect(k.dispatch).toEqual([4, 2, 1]);
    // src0, src1, dst as the shared Tensor descriptors (12 words each: ne, st, off, n, pad)
    const u = Array.from(k.uniforms!);
    expect(u.slice(0, 4)).toEqual([200, 50, 1, 1]);
    expect(u.slice(12, 18)).toEqual([96, 50, 1, 1, 50, 1]); // src1 ne, then st0 st1: transposed
    expect(u.slice(24, 28)).toEqual([200, 96, 1, 1]);
    expect(OUT_PROD.native(OUT_PROD.makeCase([96, 40, 24, 4], 'batched-broadcast')).dispatch).toEqual([2, 1, 4]);
  });

  it('the contract takes every matrix case', () => {
    for (const m of OUT_PROD.matrix) expect(OUT_PROD.require(OUT_PROD.makeCase(m.dims, m.layout), { limits: DEFAULT_LIMITS, features: [] })).toBeNull();
  });
});

describe('OUT_PROD generated (matmul family with its operand access)', () => {
  const s = { family: 'matmul', tileM: 64, tileN: 64, tileK: 16, threadM: 4, threadN: 4, vectorWidth: 1, staging: 'single' } as const;
  it("A[m, k] = src0[m + k·nb01]: K strided by src0's row stride, rows walked by the lanes", () => {
    const k = OUT_PROD.generate(s, OUT_PROD.makeCase([129, 67, 33]));
    // src0 [129, 33]: k stride 129; K tail (33 % 16) clamps and zeroes.
    expect(k.wgsl).toMatch(/let ag0 = base0 \+ min\(mBase \+ ar0, 128u\) \* 1u \+ ac0 \* 129u;/);
    expect(k.wgsl).toMatch(/src0\[ag0 - ac0 \* 129u \+ min\(t \* 16u \+ ac0, 32u\) \* 129u\]/);
    // src1-transposed: B[n, k] = src1[n·50 + k]: K contiguous, as MUL_MAT reads it.
    const t = OUT_PROD.generate(s, OUT_PROD.makeCase([200, 96, 50], 'src1-transposed'));
    expect(t.wgsl).toMatch(/let bg0 = base1 \+ min\(nBase \+ br0, 95u\) \* 50u \+ bc0;/);
    expect(k.dispatch).toEqual([3, 2, 1]);
  });

  it('vectorWidth 4 is refused by name: K is not contiguous in src0 (nor in a packed src1)', () => {
    expect(OUT_PROD.fits({ ...s, vectorWidth: 4 }, OUT_PROD.makeCase([128, 64, 32], 'src1-transposed'))).toEqual(['vectorWidth 4 needs K contiguous, but src0 has a K stride other than 1']);
    expect(OUT_PROD.fits({ ...s, vectorWidth: 4 }, OUT_PROD.makeCase([128, 64, 32]))).toEqual(['vectorWidth 4 needs K contiguous, but src0 and src1 have a K stride other than 1']);
  });
});

describe("OUT_PROD: the layouts the training graph sends (K·Q's backward, grouped K heads)", () => {
  const values = (n: number, k: number) => Array.from({ length: n }, (_, i) => ((i * k) % 17) - 8);
  it("each view is read as its logical values: the oracle equals the packed case's", () => {
    for (const layout of ['src0-permuted', 'src0-permuted-src1-transposed', 'src1-permuted-transposed', 'batched-broadcast']) {
      const v = OUT_PROD.makeCase([5, 3, 4, 4, 2], layout);
      const packed = OUT_PROD.makeCase([5, 3, 4, 4, 2], 'batched-broadcast');
      const a = values(5 * 4 * 2, 7);
      const b = values(3 * 4 * 4, 5);
      const ref = OUT_PROD.oracle(packed, [bufferFor(packed.srcs[0], a), bufferFor(packed.srcs[1], b)]).ref;
      expect([...OUT_PROD.oracle(v, [bufferFor(v.srcs[0], a), bufferFor(v.srcs[1], b)]).ref], layout).toEqual([...ref]);
    }
  });

  it("the strides are the real graph's (tiny: head dim 8, 8 Q heads, 4 K heads, 128 tokens)", () => {
    // K's gradient reads Q's head-major view: src0 [8, 128, 8] nb [4, 256, 32]
    expect(OUT_PROD.makeCase([8, 128, 128, 8], 'src0-permuted').srcs[0].nb.slice(0, 3)).toEqual([4, 256, 32]);
    // Q's gradient: src0 = K's view [8, 128, 4] nb [4, 128, 32], src1 = transpose(grad) nb [512, 4, 65536]
    const q = OUT_PROD.makeCase([8, 128, 128, 8, 4], 'src0-permuted-src1-transposed');
    expect(q.srcs[0].nb.slice(0, 3)).toEqual([4, 128, 32]);
    expect(q.srcs[1].nb.slice(0, 3)).toEqual([512, 4, 65536]);
    // through ROPE_BACK's permuted input: src1 [128, 8, 8] nb [256, 4, 32]
    expect(OUT_PROD.makeCase([128, 128, 8, 8, 4], 'src1-permuted-transposed').srcs[1].nb.slice(0, 3)).toEqual([256, 4, 32]);
    expect(() => OUT_PROD.makeCase([8, 8, 8, 8, 3], 'src0-permuted')).toThrow(/B0 = 3 must divide B = 8/);
  });

  it('the native tile and the generated matmul take them; src1 with a K stride reads scalars', () => {
    const s = { family: 'matmul', tileM: 64, tileN: 64, tileK: 16, threadM: 4, threadN: 4, vectorWidth: 1, staging: 'single' } as const;
    for (const m of OUT_PROD.matrix.filter((x) => x.dims.length === 5)) {
      const c = OUT_PROD.makeCase(m.dims, m.layout);
      expect(OUT_PROD.fits(s, c), m.layout).toEqual([]);
      expect(OUT_PROD.native(c).dispatch).toEqual([Math.ceil(m.dims[0] / 64), Math.ceil(m.dims[1] / 64), 4]);
    }
    expect(OUT_PROD.native(OUT_PROD.makeCase([16, 72, 40, 4, 2], 'src0-permuted')).wgsl).toContain('return src1[base1 + n * p.src1.st.x + k * p.src1.st.y];');
  });
});
