import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../adapter';
import { contiguous, forEachElement, permute, stridedRows } from '../tensor';
import { CROSS_ENTROPY_LOSS, checkRowsEvenlySpaced, labelsBuffer, LOGIT_SCALE } from './cross-entropy-loss';
import { CROSS_ENTROPY_LOSS_BACK } from './cross-entropy-loss-back';
import { registryEntry, schedulesFor } from './registry';
import { bufferFor } from '../../../test/fixtures/buffers';
import { OpCaseError } from './types';

// Inputs are f32: ln 3 is stored rounded, so sums match to f32 precision (6 digits), not f64's.
const LN3 = Math.log(3);

describe('CROSS_ENTROPY_LOSS makeCase', () => {
  it('logits and labels of one shape, a scalar f32 dst, no params', () => {
    const c = CROSS_ENTROPY_LOSS.makeCase([32000, 2]);
    expect(c.srcs.map((t) => t.ne)).toEqual([
      [32000, 2, 1, 1],
      [32000, 2, 1, 1],
    ]);
    expect(c.dst.ne).toEqual([1, 1, 1, 1]);
    expect(c.dst.type).toBe('f32');
    expect(CROSS_ENTROPY_LOSS.makeCase([1001, 9, 2], 'src1-rows-strided').srcs[1].nb.slice(0, 3)).toEqual([4, 1006 * 4, 1006 * 9 * 4]);
  });

  it("refuses views ggml's kernel would read wrongly, and unknown names", () => {
    expect(() => CROSS_ENTROPY_LOSS.makeCase([8, 2], 'contiguous', { eps: 1 })).toThrow(/CROSS_ENTROPY_LOSS takes no params, got eps/);
    expect(() => CROSS_ENTROPY_LOSS.makeCase([8, 2], 'src0-permuted')).toThrow(/no layout 'src0-permuted'/);
    // Rows of a permuted view are not nb1 apart across planes: ggml reads row r at r·nb1.
    const permuted = permute(contiguous('f32', [8, 3, 2]), [0, 2, 1, 3]);
    expect(() => checkRowsEvenlySpaced('CROSS_ENTROPY_LOSS', 'src0 (logits)', permuted)).toThrow(OpCaseError);
    expect(() => checkRowsEvenlySpaced('CROSS_ENTROPY_LOSS', 'src0 (logits)', permuted)).toThrow(/rows evenly spaced .* got nb2 = 32 B ≠ ne1·nb1 = 192 B/);
    const transposed = permute(contiguous('f32', [3, 8]), [1, 0, 2, 3]);
    expect(() => checkRowsEvenlySpaced('CROSS_ENTROPY_LOSS', 'src1 (labels)', transposed)).toThrow(/src1 \(labels\) rows must be contiguous \(ggml asserts nb0 == sizeof\(float\)\)/);
    expect(() => checkRowsEvenlySpaced('X', 'a', stridedRows('f32', [8, 3, 2], 11, 1))).not.toThrow();
  });
});

describe('CROSS_ENTROPY_LOSS oracle', () => {
  it('−log softmax at the label: logits [0, ln 3], labels [1, 0] give ln 4', () => {
    const c = CROSS_ENTROPY_LOSS.makeCase([2, 1]);
    const r = CROSS_ENTROPY_LOSS.oracle(c, [bufferFor(c.srcs[0], [0, LN3]), bufferFor(c.srcs[1], [1, 0])]);
    expect(r.ref[0]).toBeCloseTo(Math.log(4), 6);
    expect(r.terms).toBe(2);
  });

  it('normalizes by the row count: rows (ln 4) and (ln 2) give 1.5·ln 2', () => {
    const c = CROSS_ENTROPY_LOSS.makeCase([2, 2]);
    const r = CROSS_ENTROPY_LOSS.oracle(c, [bufferFor(c.srcs[0], [0, LN3, 0, 0]), bufferFor(c.srcs[1], [1, 0, 0.5, 0.5])]);
    expect(r.ref[0]).toBeCloseTo(1.5 * Math.log(2), 6);
    // Over planes too: nr = ne1·ne2·ne3.
    const c3 = CROSS_ENTROPY_LOSS.makeCase([2, 1, 2]);
    expect(CROSS_ENTROPY_LOSS.oracle(c3, [bufferFor(c3.srcs[0], [0, LN3, 0, 0]), bufferFor(c3.srcs[1], [1, 0, 0.5, 0.5])]).ref[0]).toBeCloseTo(1.5 * Math.log(2), 6);
  });

  it('labels are taken as given (ggml does not normalize them): labels [2, 0] give 2·ln 4', () => {
    const c = CROSS_ENTROPY_LOSS.makeCase([2, 1]);
    const r = CROSS_ENTROPY_LOSS.oracle(c, [bufferFor(c.srcs[0], [0, LN3]), bufferFor(c.srcs[1], [2, 0])]);
    expect(r.ref[0]).toBeCloseTo(2 * Math.log(4), 6);
  });

  it('is shift-invariant in the logits (the max subtraction) and reads strided rows', () => {
    const c = CROSS_ENTROPY_LOSS.makeCase([2, 1], 'src0-rows-strided');
    const r = CROSS_ENTROPY_LOSS.oracle(c, [bufferFor(c.srcs[0], [1000, 1000 + LN3]), bufferFor(c.srcs[1], [1, 0])]);
    expect(r.ref[0]).toBeCloseTo(Math.log(4), 4);
  });

  it('floor: (1/nr)·Σ(|x| + |max + lse|)·|y|', () => {
    const c = CROSS_ENTROPY_LOSS.makeCase([2, 1]);
    const r = CROSS_ENTROPY_LOSS.oracle(c, [bufferFor(c.srcs[0], [0, LN3]), bufferFor(c.srcs[1], [0.25, 0.75])]);
    // max + lse = ln 3 + ln(4/3) = ln 4.
    expect(r.epsFloor[0]).toBeCloseTo(0.25 * Math.log(4) + 0.75 * (LN3 + Math.log(4)), 6);
  });
});

describe('CROSS_ENTROPY_LOSS inputs', () => {
  it('labels: each row non-negative, summing to 1, mass on one class; gaps left random', () => {
    const t = stridedRows('f32', [50, 3, 2], 53, 2);
    const buf = labelsBuffer(t, 9);
    const view = new DataView(buf);
    const rows: number[][] = [];
    forEachElement(t, (_i, off, i0) => {
      if (i0 === 0) rows.push([]);
      rows[rows.length - 1].push(view.getFloat32(off, true));
    });
    expect(rows).toHaveLength(6);
    for (const row of rows) {
      expect(row.every((v) => v >= 0)).toBe(true);
      expect(row.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
      expect(Math.max(...row)).toBeGreaterThan(0.5);
    }
    expect(new Float32Array(buf)[0]).not.toBe(0); // the gap before the first row
  });

  it('logits span ±LOGIT_SCALE; the same seed gives the same inputs', () => {
    const c = CROSS_ENTROPY_LOSS.makeCase([4093, 7]);
    const [x] = CROSS_ENTROPY_LOSS.inputs!(c, 1);
    const v = new Float32Array(x);
    expect(Math.max(...v)).toBeGreaterThan(LOGIT_SCALE * 0.9);
    expect(Math.min(...v)).toBeLessThan(-LOGIT_SCALE * 0.9);
    expect(new Float32Array(CROSS_ENTROPY_LOSS.inputs!(c, 1)[1])).toEqual(new Float32Array(CROSS_ENTROPY_LOSS.inputs!(c, 1)[1]));
  });
});

describe('CROSS_ENTROPY_LOSS native', () => {
  it('one workgroup over every row (no float atomics); row strides in the uniform', () => {
    const c = CROSS_ENTROPY_LOSS.makeCase([4093, 5], 'src0-rows-strided');
    const k = CROSS_ENTROPY_LOSS.native(c);
    expect(k.dispatch).toEqual([1, 1, 1]);
    // logits (rows 4096 apart, one element in), labels, the scalar dst: Tensor descriptors
    const n = 4093 * 5;
    expect([...k.uniforms!.slice(0, 36)]).toEqual([4093, 5, 1, 1, 1, 4096, 4096 * 5, 4096 * 5, 65, n, 0, 0, 4093, 5, 1, 1, 1, 4093, n, n, 64, n, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 64, 1, 0, 0]);
    expect(k.label).toBe('native:CROSS_ENTROPY_LOSS (row/row.wgsl)');
    expect(CROSS_ENTROPY_LOSS.bytes(c)).toEqual({ readBytes: 2 * 4093 * 5 * 4, writeBytes: 4 });
  });
});

describe('CROSS_ENTROPY_LOSS_BACK', () => {
  it("takes ggml.c's source order: src0 the scalar gradient, src1 logits, src2 labels", () => {
    const c = CROSS_ENTROPY_LOSS_BACK.makeCase([7, 3, 2, 2]);
    expect(c.srcs.map((t) => t.ne)).toEqual([
      [1, 1, 1, 1],
      [7, 3, 2, 2],
      [7, 3, 2, 2],
    ]);
    expect(c.dst.ne).toEqual([7, 3, 2, 2]);
    const k = CROSS_ENTROPY_LOSS_BACK.native(c);
    expect(k.bindings.map((b) => b.role)).toEqual(['src0', 'src1', 'src2', 'dst', 'params']);
    expect(k.dispatch).toEqual([12, 1, 1]);
  });

  it('(softmax − labels)·grad/nr: logits [0, ln 3], labels [1, 0], grad 2 give [−1.5, 1.5]', () => {
    const c = CROSS_ENTROPY_LOSS_BACK.makeCase([2, 1]);
    const r = CROSS_ENTROPY_LOSS_BACK.oracle(c, [bufferFor(c.srcs[0], [2]), bufferFor(c.srcs[1], [0, LN3]), bufferFor(c.srcs[2], [1, 0])]);
    expect(r.ref[0]).toBeCloseTo(-1.5, 6);
    expect(r.ref[1]).toBeCloseTo(1.5, 6);
    expect(r.terms).toBe(2);
    expect(r.epsFloor[0]).toBeCloseTo((0.25 + 1) * 2, 6);
  });

  it('divides by the row count: two rows, grad 1', () => {
    const c = CROSS_ENTROPY_LOSS_BACK.makeCase([2, 2]);
    const r = CROSS_ENTROPY_LOSS_BACK.oracle(c, [bufferFor(c.srcs[0], [1]), bufferFor(c.srcs[1], [0, LN3, 5, 5]), bufferFor(c.srcs[2], [1, 0, 0.5, 0.5])]);
    expect([...r.ref].map((v) => Number(v.toFixed(6)))).toEqual([-0.375, 0.375, 0, 0]);
  });

  it('refuses what ggml asserts on', () => {
    expect(() => CROSS_ENTROPY_LOSS_BACK.makeCase([8, 2], 'src0-rows-strided')).toThrow(/ggml asserts the gradient, logits, labels and dst contiguous/);
    expect(() => CROSS_ENTROPY_LOSS_BACK.makeCase([8, 2], 'contiguous', { scale: 2 })).toThrow(/takes no params, got scale/);
    expect(() => CROSS_ENTROPY_LOSS_BACK.makeCase([])).toThrow(/takes 1 to 4 dims/);
  });
});

describe('the generated paths', () => {
  const adapter = { limits: DEFAULT_LIMITS, features: [] as string[] };
  const norm = { family: 'norm', workgroupSize: 256, vectorWidth: 1, reduction: 'shared', unroll: 1 } as const;

  it('CROSS_ENTROPY_LOSS_BACK: the row family, max then Σexp(x − max), grad read once per row', () => {
    const c = CROSS_ENTROPY_LOSS_BACK.makeCase([4093, 7]);
    const s = schedulesFor('CROSS_ENTROPY_LOSS_BACK', c, adapter)!;
    expect(s).toMatchObject({ family: 'norm', vectorWidth: 1 });
    const k = CROSS_ENTROPY_LOSS_BACK.generate(s, c);
    expect(k.bindings.map((b) => b.role)).toEqual(['src0', 'src1', 'src2', 'dst']);
    expect(k.wgsl).toContain('var<storage, read> src0: array<f32>;');
    expect(k.wgsl).toContain('let grad = src0[64u];');
    expect(k.wgsl).toContain('let d_by_nr = grad / 7.00000000;');
    // The max pass starts from the lowest f32 WGSL accepts; the second pass's loop index is not i1.
    expect(k.wgsl).toContain('-3.40282346e+38');
    expect(k.wgsl).toMatch(/var ri1 = lid;/);
    expect(CROSS_ENTROPY_LOSS_BACK.fits({ ...norm, vectorWidth: 4 }, c).join()).toMatch(/vectorWidth 4 needs ne0 % 4 == 0, got ne0 = 4093/);
  });

  it('CROSS_ENTROPY_LOSS: native-only, its reason given by fits, generate and the registry', () => {
    const c = CROSS_ENTROPY_LOSS.makeCase([4093, 7]);
    expect(CROSS_ENTROPY_LOSS.fits(norm, c)[0]).toMatch(/^CROSS_ENTROPY_LOSS has no generated kernel: one scalar over every row/);
    expect(schedulesFor('CROSS_ENTROPY_LOSS', c, adapter)).toBeNull();
    expect(() => CROSS_ENTROPY_LOSS.generate(norm, c)).toThrow(OpCaseError);
    expect(registryEntry('CROSS_ENTROPY_LOSS').state).toBe('native-only');
    expect(registryEntry('CROSS_ENTROPY_LOSS').evidence).toContain('no float atomics');
  });
});
