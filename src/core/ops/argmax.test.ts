import { describe, expect, it } from 'vitest';
import { ARGMAX, argmaxRow } from './argmax';
import { bufferFor } from '../../../test/fixtures/buffers';
import { OpCaseError } from './types';

describe('ARGMAX makeCase', () => {
  it('dst is i32 [ne1]', () => {
    const c = ARGMAX.makeCase([32000, 2]);
    expect(c.dst.type).toBe('i32');
    expect(c.dst.ne).toEqual([2, 1, 1, 1]);
    expect(c.srcs[0].type).toBe('f32');
  });
  it('a matrix only (ggml_is_matrix); a 3-dim shape with ne2 = 1 is one', () => {
    expect(ARGMAX.makeCase([8, 3, 1]).dst.ne[0]).toBe(3);
    expect(() => ARGMAX.makeCase([8, 3, 2])).toThrow(OpCaseError);
    expect(() => ARGMAX.makeCase([8, 3, 2])).toThrow(/must be a matrix \(ggml asserts ggml_is_matrix: ne2 == ne3 == 1\), got 8x3x2/);
    expect(() => ARGMAX.makeCase([8, 3, 1, 2])).toThrow(/must be a matrix/);
    expect(() => ARGMAX.makeCase([8], 'inplace')).toThrow(/no in-place argmax/);
    expect(() => ARGMAX.makeCase([8], 'contiguous', { k: 1 })).toThrow(/ARGMAX takes no params, got k/);
  });
  it('every matrix case builds', () => {
    for (const m of ARGMAX.matrix) expect(() => ARGMAX.makeCase(m.dims, m.layout, m.params)).not.toThrow();
  });
});

describe('ARGMAX oracle: ggml-cpu’s loop', () => {
  it('ties go to the last index of the maximum', () => {
    expect(argmaxRow(Float64Array.from([1, 3, 2, 3, 0]), 0, 5)).toBe(3);
    expect(argmaxRow(Float64Array.from([5, 1, 1]), 0, 3)).toBe(0);
  });
  it('a row of -inf gives its last index; -inf below a finite value loses', () => {
    expect(argmaxRow(Float64Array.from([-Infinity, -Infinity, -Infinity]), 0, 3)).toBe(2);
    expect(argmaxRow(Float64Array.from([-Infinity, -7, -Infinity]), 0, 3)).toBe(1);
  });
  it('NaN: MAX(max, NaN) is NaN and the next element restarts the max (ggml’s quirk, kept)', () => {
    // max: 2 → NaN (no index: NaN ≠ NaN) → 1 (idx 2) → 1 (idx 2), so index 2, not 0.
    expect(argmaxRow(Float64Array.from([2, NaN, 1, 0]), 0, 4)).toBe(2);
  });
  it('per row through the view (gaps hold 100, which must never win)', () => {
    const c = ARGMAX.makeCase([4, 2], 'src0-rows-strided');
    const r = ARGMAX.oracle(c, [bufferFor(c.srcs[0], [0.5, -1, 0.5, 0.25, -3, -2, -2.5, -2])]);
    expect([...r.ref]).toEqual([2, 3]);
    expect(r.terms).toBe(1);
  });
  it('inputs sit on a 1/16 grid, so long rows tie at their maximum', () => {
    const c = ARGMAX.makeCase([4096, 2]);
    const [buf] = ARGMAX.inputs!(c, 1);
    const f = new Float32Array(buf);
    expect([...f].every((v) => Number.isInteger(v * 16) && v >= -1 && v <= 1)).toBe(true);
    const row = [...f.slice(0, 4096)];
    const max = Math.max(...row);
    expect(row.filter((v) => v === max).length).toBeGreaterThan(10);
  });
});

describe('ARGMAX generated (row family)', () => {
  it('max, then the last INDEX at the max; dst bound as i32, row i1 writes element i1 (WGSL snapshot)', () => {
    const s = { family: 'norm' as const, workgroupSize: 64, vectorWidth: 4, reduction: 'shared' as const, unroll: 1 };
    const k = ARGMAX.generate(s, ARGMAX.makeCase([128, 3]));
    expect(k.wgsl).toMatch(/var<storage, read_write> dst: array<i32>;/);
    expect(k.wgsl).toMatch(/dst\[dst_row\] = i32\(last\);/);
    expect(k.wgsl).toMatch(/let dst_row = 64u \+ i1 \* 1u;/);
    expect(k.wgsl).toMatchSnapshot();
  });
  it('the tie expression is INDEX at the max and −1 below it', () => {
    const tie = (index: number, x: number, max: number) => (index + 1) * (Math.sign(x - max) + 1) - 1;
    expect([tie(7, 0.5, 0.5), tie(7, 0.25, 0.5), tie(0, 1, 1)]).toEqual([7, -1, 0]);
  });
});

describe('ARGMAX native', () => {
  it('uniform: src0 and dst (one element per row) as Tensor descriptors, then -inf bits', () => {
    const c = ARGMAX.makeCase([5, 3], 'src0-rows-strided');
    const k = ARGMAX.native(c);
    // src0: ne | element strides (rows 8 apart) | off, n, padding; dst [3] seen as [1, 3]; -inf
    expect([...k.uniforms!.slice(0, 25)]).toEqual([5, 3, 1, 1, 1, 8, 24, 24, 65, 15, 0, 0, 1, 3, 1, 1, 1, 1, 3, 3, 64, 3, 0, 0, 0xff800000]);
    expect(k.dispatch).toEqual([3, 1, 1]);
    expect(k.label).toBe('native:ARGMAX (row/row.wgsl)');
    expect(k.wgsl).toMatch(/var<storage, read_write> dst: array<i32>;/);
  });
});
