import { describe, expect, it } from 'vitest';
import { bufferFor } from '../../../test/fixtures/buffers';
import { SOFT_MAX_BACK } from './soft-max-back';
import { OpCaseError } from './types';

describe('SOFT_MAX_BACK makeCase', () => {
  it('src0 = dy, src1 = y; inplace makes dx dy itself', () => {
    const c = SOFT_MAX_BACK.makeCase([255, 33, 2], 'inplace');
    expect(c.srcs).toHaveLength(2);
    expect(c.inplace).toBe(true);
    expect(c.dst.offsetBytes).toBe(c.srcs[0].offsetBytes);
    expect(SOFT_MAX_BACK.makeCase([8]).params).toEqual({ scale: 1 });
  });
  it('errors name what is wrong: max_bias (ggml asserts 0: not a param), views, params', () => {
    expect(() => SOFT_MAX_BACK.makeCase([8], 'contiguous', { max_bias: 8 })).toThrow(OpCaseError);
    expect(() => SOFT_MAX_BACK.makeCase([8], 'contiguous', { max_bias: 8 })).toThrow(/SOFT_MAX_BACK has no param 'max_bias' \(params: scale\)/);
    expect(() => SOFT_MAX_BACK.makeCase([8], 'src0-rows-strided')).toThrow(/no layout 'src0-rows-strided': ggml asserts dy, y and dx contiguous/);
    expect(() => SOFT_MAX_BACK.makeCase([8], 'contiguous', { scale: 2000 })).toThrow(/scale = 2000 is out of range/);
  });
  it('every matrix case builds', () => {
    for (const m of SOFT_MAX_BACK.matrix) expect(() => SOFT_MAX_BACK.makeCase(m.dims, m.layout, m.params)).not.toThrow();
  });
});

describe('SOFT_MAX_BACK oracle', () => {
  it('a hand-computed row: dx = scale·y·(dy − Σy·dy)', () => {
    const c = SOFT_MAX_BACK.makeCase([3], 'contiguous', { scale: 2 });
    // y = [0.5, 0.25, 0.25], dy = [1, -2, 4]: Σy·dy = 0.5 − 0.5 + 1 = 1.
    // dx = 2·[0.5·0, 0.25·(−3), 0.25·3] = [0, −1.5, 1.5].
    const r = SOFT_MAX_BACK.oracle(c, [bufferFor(c.srcs[0], [1, -2, 4]), bufferFor(c.srcs[1], [0.5, 0.25, 0.25])]);
    expect([...r.ref]).toEqual([0, -1.5, 1.5]);
    // floor: |2y|·(|dy| + Σ|y·dy| = 2): [1·3, 0.5·4, 0.5·6]; dx[0] = 0 from cancellation still has a floor.
    expect([...r.epsFloor]).toEqual([3, 2, 3]);
    expect(r.terms).toBe(3);
  });
  it('inputs: y rows are softmax outputs (positive, summing to 1)', () => {
    const c = SOFT_MAX_BACK.makeCase([100, 3]);
    const [, y] = SOFT_MAX_BACK.inputs!(c, 1);
    const f = new Float32Array(y);
    for (let r = 0; r < 3; r++) {
      const row = [...f.slice(r * 100, r * 100 + 100)];
      expect(row.every((v) => v > 0)).toBe(true);
      expect(row.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
    }
  });
});

describe('SOFT_MAX_BACK native', () => {
  it('in place binds dy once, as dst; otherwise dy, y, dx', () => {
    expect(SOFT_MAX_BACK.native(SOFT_MAX_BACK.makeCase([8, 2])).bindings.map((b) => `${b.binding}:${b.role}`)).toEqual(['0:src0', '1:src1', '2:dst', '3:params']);
    const k = SOFT_MAX_BACK.native(SOFT_MAX_BACK.makeCase([8, 2], 'inplace'));
    expect(k.bindings.map((b) => `${b.binding}:${b.role}`)).toEqual(['0:src1', '1:dst', '2:params']);
    expect(k.wgsl).not.toMatch(/var<storage, read> src0|src0\[/);
    expect(k.wgsl).toMatch(/return dst\[i\];/);
  });
});

describe('SOFT_MAX_BACK generated (row family)', () => {
  it('Σy·dy, then (dy − dot)·y·SCALE; in place dy is read from dst (WGSL snapshot)', () => {
    const s = { family: 'norm' as const, workgroupSize: 64, vectorWidth: 4, reduction: 'shared' as const, unroll: 1 };
    const k = SOFT_MAX_BACK.generate(s, SOFT_MAX_BACK.makeCase([64, 3], 'inplace', { scale: 0.125 }));
    expect(k.bindings.map((b) => b.role)).toEqual(['dst', 'src1']);
    expect(k.wgsl).toMatch(/const SCALE: f32 = 0\.125000000;/);
    expect(k.wgsl).toMatchSnapshot();
  });
});
