import { describe, expect, it } from 'vitest';
import { GUARD_BYTES, sentinelBuffer, withGuards } from '../hostdata';
import { contiguous, permute } from '../tensor';
import { checkOutput, countGuardViolations, elementBound } from './correctness';

const f32 = 2 ** -23;

function oracleOf(ref: number[], terms = 1, floor = 0) {
  return { ref: Float64Array.from(ref), epsFloor: new Float64Array(ref.length).fill(floor), terms };
}

describe('correctness before time', () => {
  it('bounds each element by sqrt(k)·8·eps·(|ref| + floor)', () => {
    expect(elementBound(2, 0, 1, f32)).toBeCloseTo(16 * f32, 20);
    expect(elementBound(2, 1, 16, f32)).toBeCloseTo(4 * 8 * f32 * 3, 20);
  });

  it('passes an exact output and reports its worst element', () => {
    const dst = contiguous('f32', [4]);
    const before = sentinelBuffer(GUARD_BYTES * 2 + 16);
    const after = withGuards(new Float32Array([1, 2, 3, 4]).buffer);
    const r = checkOutput(dst, oracleOf([1, 2, 3, 4]), before, after);
    expect(r.correct).toBe(true);
    expect(r.maxErr).toBe(0);
    expect(r.elements).toBe(4);
  });

  it('fails an element past the bound and names it', () => {
    const dst = contiguous('f32', [2, 2]);
    const before = sentinelBuffer(GUARD_BYTES * 2 + 16);
    const after = withGuards(new Float32Array([1, 2, 3, 4.001]).buffer);
    const r = checkOutput(dst, oracleOf([1, 2, 3, 4], 4), before, after);
    expect(r.correct).toBe(false);
    expect(r.outOfBound).toBe(1);
    expect(r.failures[0]).toMatch(/^\[1,1,0,0\] = 4\.0009/);
    expect(r.worstIndex).toBe(3);
  });

  it('catches NaN, Inf and unwritten (sentinel) elements', () => {
    const dst = contiguous('f32', [3]);
    const before = sentinelBuffer(GUARD_BYTES * 2 + 16);
    const after = before.slice(0);
    new Float32Array(after, GUARD_BYTES, 2).set([Infinity, 1]);
    const r = checkOutput(dst, oracleOf([1, 1, 1]), before, after);
    expect(r.correct).toBe(false);
    expect(r.nonFinite).toBe(2); // Inf, and the untouched sentinel NaN
  });

  it('catches a write outside the output (guard band or a view gap)', () => {
    const dst = contiguous('f32', [2]);
    const before = sentinelBuffer(GUARD_BYTES * 2 + 16);
    const after = withGuards(new Float32Array([5, 6, 7, 0]).buffer);
    const r = checkOutput(dst, oracleOf([5, 6]), before, after);
    expect(r.correct).toBe(false);
    expect(r.guardViolations).toBeGreaterThan(0);
    // A strided view: the gap between its elements must stay as it was.
    const p = { ...permute(contiguous('f32', [2, 2]), [1, 0, 2, 3]), ne: [1, 2, 1, 1] as const };
    const b = new Float32Array([1, 2, 3, 4]).buffer;
    // The view holds the elements at byte offsets 0 and 4; the one at 8 is a gap.
    expect(countGuardViolations(p, b, new Float32Array([9, 9, 3, 4]).buffer)).toBe(0);
    expect(countGuardViolations(p, b, new Float32Array([1, 2, 9, 4]).buffer)).toBeGreaterThan(0);
  });

  it('checks a sampled oracle on its sample and every element for NaN/Inf', () => {
    const dst = contiguous('f32', [4]);
    const before = sentinelBuffer(GUARD_BYTES * 2 + 16);
    const sampled = { ref: Float64Array.from([1, 4]), epsFloor: new Float64Array(2), terms: 1, indices: Int32Array.from([0, 3]) };
    // Element 1 is wrong but not sampled: invisible to the bound, as a sample must be.
    const ok = checkOutput(dst, sampled, before, withGuards(new Float32Array([1, 99, 3, 4]).buffer));
    expect([ok.correct, ok.checked, ok.elements]).toEqual([true, 2, 4]);
    const bad = checkOutput(dst, sampled, before, withGuards(new Float32Array([1, 2, 3, 5]).buffer));
    expect([bad.correct, bad.outOfBound, bad.worstIndex]).toEqual([false, 1, 3]);
    const nan = checkOutput(dst, sampled, before, withGuards(new Float32Array([1, NaN, 3, 4]).buffer));
    expect([nan.correct, nan.nonFinite]).toEqual([false, 1]);
  });

  it('q8_1 activations (MMVQ): eps 2^-8 in the element bound, and the NMSE over the output must stay under ggml\'s 5e-4', () => {
    const dst = contiguous('f32', [4]);
    const before = sentinelBuffer(GUARD_BYTES * 2 + 16);
    // 64 terms, floor 1: each element may be off by 8·8·2^-8·(|ref| + 1) ≈ 0.5·(|ref| + 1) under q8_1.
    const oracle = oracleOf([1, -2, 3, -4], 64, 1);
    const rounded = checkOutput(dst, oracle, before, withGuards(new Float32Array([1.01, -2.01, 3.02, -4.03]).buffer), 'q8_1');
    expect(rounded.correct).toBe(true);
    expect(checkOutput(dst, oracle, before, withGuards(new Float32Array([1.01, -2.01, 3.02, -4.03]).buffer)).correct).toBe(false);
    // Inside every element's bound, but a whole element off by 0.6: NMSE 0.36 / 30 = 1.2e-2.
    const off = checkOutput(dst, oracle, before, withGuards(new Float32Array([1, -2, 3, -4.6]).buffer), 'q8_1');
    expect(off.outOfBound).toBe(0);
    expect(off.correct).toBe(false);
    expect(off.failures[0]).toMatch(/^NMSE 1\.20e-2 over the checked elements exceeds 0\.0005/);
  });
});

