import { describe, it, expect } from 'vitest';
import { bufferFor } from '../../../test/fixtures/buffers';
import { adapter, generatedSnapshots, norm } from '../../../test/fixtures/norm';
import { f32Bits } from '../kernel';
import { schedulesFor } from './registry';
import { RMS_NORM } from './rms-norm';
import { OpCaseError } from './types';

describe('RMS_NORM makeCase', () => {
  it('defaults: contiguous, eps 1e-6, dst the shape of src0', () => {
    const c = RMS_NORM.makeCase([4093, 37]);
    expect(c.layout).toBe('contiguous');
    expect(c.label).toBe('4093x37');
    expect(c.params).toEqual({ eps: 1e-6 });
    expect(c.srcs).toHaveLength(1);
    expect(c.dst.ne).toEqual([4093, 37, 1, 1]);
    expect(c.inplace).toBe(false);
  });

  it('inplace: dst is src0 itself (same offset and strides)', () => {
    const c = RMS_NORM.makeCase([64, 8], 'inplace');
    expect(c.inplace).toBe(true);
    expect(c.label).toBe('64x8 inplace');
    expect(c.dst.offsetBytes).toBe(c.srcs[0].offsetBytes);
    expect(c.dst.nb).toEqual(c.srcs[0].nb);
  });

  it('src0-rows-strided: rows 3 elements apart beyond ne0, one element in', () => {
    const c = RMS_NORM.makeCase([4096, 128], 'src0-rows-strided');
    expect(c.srcs[0].nb).toEqual([4, 4099 * 4, 4099 * 128 * 4, 4099 * 128 * 4]);
    expect(c.srcs[0].offsetBytes).toBe(4);
  });

  it('src0-permuted: rows contiguous, ne1 and ne2 planes swapped', () => {
    const c = RMS_NORM.makeCase([128, 32, 16], 'src0-permuted');
    expect(c.srcs[0].ne).toEqual([128, 32, 16, 1]);
    // permute(0,2,1,3) of a packed [128, 16, 32]: nb1 is the parent's plane stride.
    expect(c.srcs[0].nb).toEqual([4, 128 * 16 * 4, 128 * 4, 128 * 16 * 32 * 4]);
  });

  it('errors name what is wrong', () => {
    expect(() => RMS_NORM.makeCase([8], 'contiguous', { epsilon: 1 })).toThrow(OpCaseError);
    expect(() => RMS_NORM.makeCase([8], 'contiguous', { epsilon: 1 })).toThrow(/RMS_NORM has no param 'epsilon' \(params: eps\)/);
    expect(() => RMS_NORM.makeCase([8], 'contiguous', { eps: -1 })).toThrow(/eps = -1 is out of range \(eps is a finite number, 0 ≤ eps\)/);
    expect(() => RMS_NORM.makeCase([8], 'contiguous', { eps: NaN })).toThrow(/eps = NaN is out of range/);
    expect(RMS_NORM.makeCase([8, 2], 'inplace', { eps: 1e-5 }).label).toBe('8x2 inplace eps=1e-5');
    expect(RMS_NORM.makeCase([8, 2], 'contiguous', { eps: 1e-6 }).label).toBe('8x2');
    expect(() => RMS_NORM.makeCase([8], 'diagonal')).toThrow(/no layout 'diagonal' \(layouts: contiguous, inplace, src0-rows-strided, src0-permuted\)/);
    expect(() => RMS_NORM.makeCase([8, 1, 1, 1, 1])).toThrow(/1 to 4 dims \(ne0xne1\[xne2xne3\] of dst\), got 5/);
  });

  it('eps 0 is allowed (ggml only needs eps ≥ 0)', () => {
    expect(RMS_NORM.makeCase([8], 'contiguous', { eps: 0 }).params.eps).toBe(0);
  });
});

describe('RMS_NORM oracle', () => {
  it('a hand-computed row: x = [1, 2, 3, 4], eps = 0.5', () => {
    // Σx² = 30, mean = 7.5, + eps = 8, scale = 1/√8 = 0.35355339…
    const c = RMS_NORM.makeCase([4], 'contiguous', { eps: 0.5 });
    const r = RMS_NORM.oracle(c, [bufferFor(c.srcs[0], [1, 2, 3, 4])]);
    const s = 1 / Math.sqrt(8);
    expect(Array.from(r.ref)).toEqual([1 * s, 2 * s, 3 * s, 4 * s]);
    expect(r.ref[3]).toBeCloseTo(1.41421356, 8);
    expect(r.terms).toBe(4);
    expect(Array.from(r.epsFloor)).toEqual([0, 0, 0, 0]);
  });

  it('eps matters when it is comparable to mean(x²)', () => {
    // x = 0.001 everywhere: mean(x²) = 1e-6. eps = 1e-6 halves the rms² → y = 1/√2; eps = 0 → y = 1.
    const c1 = RMS_NORM.makeCase([4], 'contiguous', { eps: 1e-6 });
    const c0 = RMS_NORM.makeCase([4], 'contiguous', { eps: 0 });
    const x = [0.001, 0.001, 0.001, 0.001];
    expect(RMS_NORM.oracle(c1, [bufferFor(c1.srcs[0], x)]).ref[0]).toBeCloseTo(Math.SQRT1_2, 6);
    expect(RMS_NORM.oracle(c0, [bufferFor(c0.srcs[0], x)]).ref[0]).toBe(1);
  });

  it('a row of zeros stays 0 (eps keeps the scale finite)', () => {
    const c = RMS_NORM.makeCase([3, 2]);
    const r = RMS_NORM.oracle(c, [bufferFor(c.srcs[0], [0, 0, 0, 1, 1, 1])]);
    expect(Array.from(r.ref.slice(0, 3))).toEqual([0, 0, 0]);
    expect(r.ref[3]).toBeCloseTo(1 / Math.sqrt(1 + Math.fround(1e-6)), 12);
  });

  it('each row is normalized on its own', () => {
    // Row 0 = [3, 0, 4]: mean(x²) = 25/3 → scale √3/5. Row 1 = 2·row 0 → the same y (eps = 0).
    const c = RMS_NORM.makeCase([3, 2], 'contiguous', { eps: 0 });
    const r = RMS_NORM.oracle(c, [bufferFor(c.srcs[0], [3, 0, 4, 6, 0, 8])]);
    const s = Math.sqrt(3) / 5;
    expect(r.ref[0]).toBeCloseTo(3 * s, 14);
    expect(r.ref[2]).toBeCloseTo(4 * s, 14);
    expect(r.ref[3]).toBeCloseTo(3 * s, 14);
    expect(r.ref[5]).toBeCloseTo(4 * s, 14);
  });

  it('src0-rows-strided: reads through the row stride, never the gaps', () => {
    // Rows are 6 elements apart, starting 1 in; the gaps hold 100, which would dominate Σx².
    const c = RMS_NORM.makeCase([3, 2], 'src0-rows-strided', { eps: 0 });
    const buf = bufferFor(c.srcs[0], [3, 0, 4, 6, 0, 8]);
    expect(Array.from(new Float32Array(buf))).toEqual([100, 3, 0, 4, 100, 100, 100, 6, 0, 8, 100, 100]);
    const r = RMS_NORM.oracle(c, [buf]);
    expect(r.ref[0]).toBeCloseTo((3 * Math.sqrt(3)) / 5, 14);
    expect(r.ref[5]).toBeCloseTo((4 * Math.sqrt(3)) / 5, 14);
  });

  it('src0-permuted: dst row (i1, i2) normalizes the parent row (i2, i1)', () => {
    // Parent packed [2, 3, 2] holds 0..11; dst row (i1 = 1, i2 = 0) is the parent's row
    // (i1' = 0, i2' = 1) = elements 6, 7 → y = [6, 7] / √((36 + 49)/2).
    const c = RMS_NORM.makeCase([2, 2, 3], 'src0-permuted', { eps: 0 });
    const parent = new Float32Array(12).map((_, i) => i);
    const r = RMS_NORM.oracle(c, [parent.buffer]);
    const dstRow = 1 + 2 * 0; // i1 + ne1·i2
    const s = 1 / Math.sqrt((36 + 49) / 2);
    expect(r.ref[dstRow * 2]).toBeCloseTo(6 * s, 14);
    expect(r.ref[dstRow * 2 + 1]).toBeCloseTo(7 * s, 14);
  });

  it('inplace: the same numbers as contiguous', () => {
    const x = [0.5, -1, 0.25, 2, -3, 1];
    const a = RMS_NORM.makeCase([3, 2]);
    const b = RMS_NORM.makeCase([3, 2], 'inplace');
    expect(RMS_NORM.oracle(b, [bufferFor(b.srcs[0], x)]).ref).toEqual(RMS_NORM.oracle(a, [bufferFor(a.srcs[0], x)]).ref);
  });
});

describe('RMS_NORM metrics and contract', () => {
  it('memory-only: no flops; each element read once and written once', () => {
    const c = RMS_NORM.makeCase([4096, 512]);
    expect(RMS_NORM.flops(c)).toBeNull();
    expect(RMS_NORM.bytes(c)).toEqual({ readBytes: 4096 * 512 * 4, writeBytes: 4096 * 512 * 4 });
    expect(RMS_NORM.features(RMS_NORM.makeCase([1000, 33, 3]))).toEqual({ ne0: 1000, rows: 99, n: 99000 });
  });

  it('require takes every case makeCase builds', () => {
    for (const m of RMS_NORM.matrix) expect(RMS_NORM.require(RMS_NORM.makeCase(m.dims, m.layout), adapter)).toBeNull();
  });

  it('the matrix covers every layout and odd sizes', () => {
    const layouts = new Set(RMS_NORM.matrix.map((m) => m.layout));
    expect([...layouts].sort()).toEqual(RMS_NORM.layouts.map((l) => l.name).sort());
    expect(RMS_NORM.matrix.some((m) => m.dims[0] % 4 !== 0)).toBe(true);
  });
});

describe('RMS_NORM fits', () => {
  it('a scalar schedule takes anything', () => {
    expect(RMS_NORM.fits(norm(), RMS_NORM.makeCase([4093, 37], 'src0-rows-strided'))).toEqual([]);
  });

  it('vec4 needs ne0 % 4 == 0 and aligned rows, each reason naming the knob', () => {
    expect(RMS_NORM.fits(norm({ vectorWidth: 4 }), RMS_NORM.makeCase([4093, 37]))).toEqual([
      'vectorWidth 4 needs ne0 % 4 == 0, got ne0 = 4093',
      "vectorWidth 4 needs src0's rows to start on 4-element boundaries (nb1 = 4093 elements)",
      "vectorWidth 4 needs dst's rows to start on 4-element boundaries (nb1 = 4093 elements)",
    ]);
    expect(RMS_NORM.fits(norm({ vectorWidth: 4 }), RMS_NORM.makeCase([4096, 128], 'src0-rows-strided'))).toEqual([
      "vectorWidth 4 needs src0's rows to start on 4-element boundaries (offset 65 elements, nb1 = 4099 elements)",
    ]);
    expect(RMS_NORM.fits(norm({ vectorWidth: 4 }), RMS_NORM.makeCase([128, 32, 16], 'src0-permuted'))).toEqual([]);
  });

  it('refuses another family', () => {
    expect(RMS_NORM.fits({ family: 'elementwise', workgroupSize: 256, elementsPerThread: 1, vectorWidth: 1 }, RMS_NORM.makeCase([8]))).toEqual([
      'RMS_NORM takes a norm schedule, not elementwise',
    ]);
  });

  it('generate refuses a misfit naming the knob', () => {
    expect(() => RMS_NORM.generate(norm({ vectorWidth: 4 }), RMS_NORM.makeCase([4093, 37]))).toThrow(/cannot take RMS_NORM 4093x37: vectorWidth 4 needs ne0 % 4 == 0/);
  });
});

describe('RMS_NORM registry rules', () => {
  it('vec4 where ne0 % 4 == 0 and the rows align, scalar otherwise', () => {
    expect(schedulesFor('RMS_NORM', RMS_NORM.makeCase([4096, 512]), adapter)).toEqual({ family: 'norm', workgroupSize: 256, vectorWidth: 4, reduction: 'shared', unroll: 4 });
    expect(schedulesFor('RMS_NORM', RMS_NORM.makeCase([4093, 37]), adapter)).toMatchObject({ vectorWidth: 1, reduction: 'shared' });
    // ne0 % 4 == 0 but the view's rows start at odd elements: the vec4 rule does not fit.
    expect(schedulesFor('RMS_NORM', RMS_NORM.makeCase([4096, 128], 'src0-rows-strided'), adapter)).toMatchObject({ vectorWidth: 1 });
  });
});

describe('RMS_NORM native kernel', () => {
  it('params: src0 and dst as Tensor descriptors (the row template), eps as f32 bits', () => {
    const c = RMS_NORM.makeCase([4096, 128], 'src0-rows-strided', { eps: 1e-5 });
    const k = RMS_NORM.native(c);
    // src0: ne | element strides | off, n, padding; dst the same; eps
    const n = 4096 * 128;
    expect(Array.from(k.uniforms!.slice(0, 25))).toEqual([4096, 128, 1, 1, 1, 4099, 4099 * 128, 4099 * 128, 65, n, 0, 0, 4096, 128, 1, 1, 1, 4096, n, n, 64, n, 0, 0, f32Bits(1e-5)]);
    expect(k.dispatch).toEqual([128, 1, 1]);
    expect(k.wgsl).toContain('  eps: f32,\n};');
    expect(k.wgsl).toContain('  let eps = p.eps;');
    expect(k.wgsl).toContain('let t = inverseSqrt(total / f32(ne.x) + eps);');
    expect(k.wgsl).not.toMatch(/\{\{|#if|#else|#endif/);
    expect(k.bindings.map((b) => b.role)).toEqual(['src0', 'dst', 'params']);
  });

  it('inplace binds the one buffer once, read_write', () => {
    const k = RMS_NORM.native(RMS_NORM.makeCase([64, 8], 'inplace'));
    expect(k.label).toBe('native:RMS_NORM (row/row.wgsl) [INPLACE]');
    expect(k.wgsl).not.toContain('var<storage, read> src0');
    expect(k.bindings).toEqual([
      { binding: 0, role: 'dst', access: 'read_write' },
      { binding: 1, role: 'params', access: 'uniform' },
    ]);
  });

  it('more than 65535 rows spread over a 2D grid', () => {
    expect(RMS_NORM.native(RMS_NORM.makeCase([8, 70000])).dispatch).toEqual([35000, 2, 1]);
  });
});

describe('RMS_NORM generated kernel', () => {
  it('bakes eps as an exact f32 literal and binds by role', () => {
    const k = RMS_NORM.generate(norm(), RMS_NORM.makeCase([8], 'contiguous', { eps: 0.5 }));
    expect(k.wgsl).toContain('let scale = inverseSqrt(sum / 8.00000000 + 0.500000000);');
    expect(k.bindings).toEqual([
      { binding: 0, role: 'src0', access: 'read' },
      { binding: 1, role: 'dst', access: 'read_write' },
    ]);
    expect(k.features).toBeUndefined();
    expect(k.label).toBe('generated:RMS_NORM norm{"reduction":"shared","unroll":1,"vectorWidth":1,"workgroupSize":256}');
  });

  it('inplace reads and writes dst through one read_write binding', () => {
    const k = RMS_NORM.generate(norm(), RMS_NORM.makeCase([8, 4], 'inplace'));
    expect(k.bindings).toEqual([{ binding: 0, role: 'dst', access: 'read_write' }]);
    expect(k.wgsl).not.toContain('var<storage, read> src0');
  });

  it("subgroup reduction declares the feature and enables it", () => {
    const k = RMS_NORM.generate(norm({ reduction: 'subgroup' }), RMS_NORM.makeCase([4096, 4]));
    expect(k.features).toEqual(['subgroups']);
    expect(k.wgsl).toMatch(/^\/\/ generated: RMS_NORM 4096x4, [^\n]*\nenable subgroups;\n/);
  });

  it('one workgroup per row, on a 2D grid past 65535 rows', () => {
    expect(RMS_NORM.generate(norm(), RMS_NORM.makeCase([4093, 37])).dispatch).toEqual([37, 1, 1]);
    const k = RMS_NORM.generate(norm({ workgroupSize: 32, vectorWidth: 4 }), RMS_NORM.makeCase([8, 70000], 'inplace'));
    expect(k.dispatch).toEqual([35000, 2, 1]);
    expect(k.wgsl).toContain('let r = wid.y * 35000u + wid.x;');
    expect(k.wgsl).toContain('if (r >= 70000u) {');
  });

  it("keeps the row in registers when a thread's share fits one unrolled step", () => {
    // 4096 elements = 1024 vec4 = 4 per thread of 256: one step of unroll 4, read once.
    const w = RMS_NORM.generate(norm({ vectorWidth: 4, unroll: 4 }), RMS_NORM.makeCase([4096, 512])).wgsl;
    expect(w.match(/src0\[/g)).toHaveLength(4);
    expect(w).toContain('let x3 = src0[x_row + lid + 768u];');
    expect(w).toContain('dst[dst_row + lid + 768u] = x3 * scale;');
    expect(w).not.toMatch(/for \(var [ij] = lid/); // no row loop: the only loop left is the tree's
    // 100 elements over 32 threads: slot 3 exists for lid < 4 only; the missing value is 0.
    const g = RMS_NORM.generate(norm({ workgroupSize: 32, unroll: 4 }), RMS_NORM.makeCase([100, 3])).wgsl;
    expect(g).toContain('var x3 = f32();\n  if (lid < 4u) {\n    x3 = src0[x_row + lid + 96u];\n  }');
    expect(g).toContain('let partial = x0 * x0 + x1 * x1 + x2 * x2 + x3 * x3;');
    expect(g).toContain('if (lid < 4u) {\n    dst[dst_row + lid + 96u] = x3 * scale;\n  }');
  });

  it('re-reads the row when it does not fit one unrolled step', () => {
    const w = RMS_NORM.generate(norm({ vectorWidth: 4, unroll: 2 }), RMS_NORM.makeCase([4096, 512])).wgsl;
    expect(w.match(/src0\[/g)).toHaveLength(6); // 2 + 1 (tail) per pass
  });

  generatedSnapshots(RMS_NORM, [
    ['4096x512 contiguous, vec4 shared unroll 4 (the registry pick)', { vectorWidth: 4, unroll: 4 }, [4096, 512]],
    ['4096x512 contiguous, vec4 shared unroll 2', { vectorWidth: 4, unroll: 2 }, [4096, 512]],
    ['4093x37 inplace, scalar subgroup', { reduction: 'subgroup', workgroupSize: 128 }, [4093, 37], 'inplace'],
    ['1000x33x3 src0-permuted, scalar shared unroll 4, 64 threads', { workgroupSize: 64, unroll: 4 }, [1000, 33, 3], 'src0-permuted'],
    ['4096x128 src0-rows-strided, scalar subgroup unroll 2', { reduction: 'subgroup', unroll: 2 }, [4096, 128], 'src0-rows-strided'],
  ]);
});
