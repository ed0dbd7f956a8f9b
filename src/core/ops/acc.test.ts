import { describe, expect, it } from 'vitest';
import type { ElementwiseSchedule } from '../families/elementwise';
import { DEFAULT_LIMITS } from '../adapter';
import { parseSchedule } from '../schedule/schedule';
import { schedulesFor } from './registry';
import { ACC } from './acc';

const vec4 = parseSchedule({ family: 'elementwise', workgroupSize: 64, elementsPerThread: 2, vectorWidth: 4 });
const scalar = parseSchedule({ family: 'elementwise', workgroupSize: 64, elementsPerThread: 1, vectorWidth: 1 });
const adapter = { limits: DEFAULT_LIMITS, features: [] as string[] };

const f32 = (xs: number[]) => new Float32Array(xs).buffer;
const zeros = (n: number) => f32(new Array(n).fill(0));

describe('ACC (ggml_acc)', () => {
  it("default: b is the top-left block, the view has a's strides at offset 0", () => {
    const c = ACC.makeCase([3, 3]);
    expect(c.srcs[1].ne).toEqual([2, 2, 1, 1]);
    expect(c.params).toEqual({ nb1: 0, nb2: 0, nb3: 0, offset: 0 });
    const r = ACC.oracle(c, [f32([1, 2, 3, 4, 5, 6, 7, 8, 9]), f32([10, 20, 30, 40])]);
    expect([...r.ref]).toEqual([11, 22, 3, 34, 45, 6, 7, 8, 9]);
    // Elements outside the view are an exact copy: epsFloor 0 there, |a| + |b| inside.
    expect([...r.epsFloor]).toEqual([11, 22, 0, 34, 45, 0, 0, 0, 0]);
  });

  it('offset and nb1 place the view: ggml_view_2d(a, 2, 2, 2·nb1, offset)', () => {
    // a is 4x4; b (2x2) goes to rows 0 and 2 (nb1 = 32 B), starting at column 1 (offset 4 B).
    const c = ACC.makeCase([4, 4], 'contiguous', { nb1: 32, offset: 4 });
    const r = ACC.oracle(c, [zeros(16), f32([1, 2, 3, 4])]);
    expect([...r.ref]).toEqual([0, 1, 2, 0, 0, 0, 0, 0, 0, 3, 4, 0, 0, 0, 0, 0]);
  });

  it('in place: dst is a; the native kernel adds b only, one thread per element of b', () => {
    const c = ACC.makeCase([4, 4], 'inplace', { offset: 20 });
    expect(c.inplace).toBe(true);
    const k = ACC.native(c);
    expect(k.bindings.map((b) => b.role)).toEqual(['dst', 'src1', 'params']);
    // The shared Tensor descriptors (ne, element strides, offset, count, 2 words of padding): b
    // packed past the guards; the view with b's ne, a's strides, 5 elements into dst.
    expect([...k.uniforms!]).toEqual([2, 2, 1, 1, 1, 2, 4, 4, 64, 4, 0, 0, 2, 2, 1, 1, 1, 4, 16, 16, 64 + 5, 4, 0, 0]);
    expect([...ACC.oracle(c, [zeros(16), f32([1, 2, 3, 4])]).ref]).toEqual([0, 0, 0, 0, 0, 1, 2, 0, 0, 3, 4, 0, 0, 0, 0, 0]);
  });

  it('the non-inplace native kernel gets the view dims largest stride first, one-element dims padded', () => {
    const k = ACC.native(ACC.makeCase([4, 4], 'contiguous', { nb1: 32, offset: 4 }));
    // src0 and dst as they are; b and the view (1 element into dst) with their dims largest view
    // stride first: two padded dims (view stride 16, past dst; b stride 0), rows 8 elements apart, columns 1.
    const u = [...k.uniforms!];
    expect(u.slice(0, 10)).toEqual([4, 4, 1, 1, 1, 4, 16, 16, 64, 16]);
    expect(u.slice(12, 22)).toEqual([1, 1, 2, 2, 0, 0, 2, 1, 64, 4]);
    expect(u.slice(24, 34)).toEqual([4, 4, 1, 1, 1, 4, 16, 16, 64, 16]);
    expect(u.slice(36, 46)).toEqual([1, 1, 2, 2, 16, 16, 8, 1, 64 + 1, 4]);
    expect(k.bindings.map((b) => b.role)).toEqual(['src0', 'src1', 'dst', 'params']);
  });

  it('reads a permuted b through its strides', () => {
    const c = ACC.makeCase([2, 2, 2], 'src1-permuted');
    // b is [1, 1, 2] — permute(0,2,1,3) of a packed [1, 2, 1]: b[0,0,i2] = parent[i2].
    expect(c.srcs[1].ne).toEqual([1, 1, 2, 1]);
    const r = ACC.oracle(c, [zeros(8), f32([5, 7])]);
    expect([...r.ref]).toEqual([5, 0, 0, 0, 7, 0, 0, 0]);
  });

  it('refuses what ggml asserts on, and views the lab cannot run, naming them', () => {
    expect(() => ACC.makeCase([4, 4], 'contiguous', { offset: 2 })).toThrow('ACC: offset = 2 B is not a whole number of f32 elements');
    expect(() => ACC.makeCase([4, 4], 'contiguous', { offset: 44 })).toThrow(/puts its last element at byte 64, past dst's 64 B \(ggml asserts it lies inside\)/);
    expect(() => ACC.makeCase([4, 4], 'contiguous', { nb1: 4 })).toThrow("ACC: the view overlaps itself (dim 1's stride 4 B is shorter than the 8 B the lower dims span)");
    expect(() => ACC.makeCase([4, 4], 'contiguous', { nb1: -4 })).toThrow('ACC: nb1 = -4 is out of range (nb1 is an integer ≥ 0');
    expect(() => ACC.makeCase([4, 4], 'contiguous', { inplace: 1 })).toThrow("ACC has no param 'inplace'");
    expect(() => ACC.makeCase([4, 4], 'diagonal')).toThrow("ACC has no layout 'diagonal'");
  });

  it('counts bytes: in place only the view moves', () => {
    expect(ACC.bytes(ACC.makeCase([4, 4]))).toEqual({ readBytes: (16 + 4) * 4, writeBytes: 16 * 4 });
    expect(ACC.bytes(ACC.makeCase([4, 4], 'inplace'))).toEqual({ readBytes: 8 * 4, writeBytes: 4 * 4 });
  });
  it('generated in place: the output is the view itself, so only b\'s elements are touched', () => {
    const c = ACC.makeCase([4096, 16], 'inplace', { offset: 16 });
    const k = ACC.generate(vec4, c);
    expect(k.bindings.map((b) => b.role)).toEqual(['dst', 'src1']);
    // 2048x8 elements of b = 4096 vec4; the view starts 16 B = 1 vec4 past dst's guard (16 vec4).
    expect(k.wgsl).toContain('if (v < 4096u) {');
    expect(k.wgsl).toContain('dst[17u + i0 + i1 * 1024u] = x_v + b_v;');
  });

  it('generated out of place: membership in the view and b\'s index, baked (a gather: vectorWidth 1)', () => {
    const c = ACC.makeCase([4, 4], 'contiguous', { nb1: 32, offset: 4 });
    expect(ACC.fits(vec4, c)).toEqual(['vectorWidth 4 needs strided addressing, but b has a custom index (use vectorWidth 1)']);
    const k = ACC.generate(scalar, c);
    expect(k.wgsl).toContain('x_v + select(0.0, b_v, (i0 + i1 * 4u) >= 1u && (((i0 + i1 * 4u) - 1u) / 8u) < 2u && (((i0 + i1 * 4u) - 1u) % 8u) < 2u)');
    expect((schedulesFor('ACC', c, adapter) as ElementwiseSchedule | null)?.vectorWidth).toBe(1);
  });
});
