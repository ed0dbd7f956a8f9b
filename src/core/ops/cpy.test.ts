import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../adapter';
import { f16BitsToF32 } from '../hostdata';
import { CONT } from './cont';
import { CPY } from './cpy';
import { schedulesFor } from './registry';
import { bufferFor } from '../../../test/fixtures/buffers';
import { OpCaseError } from './types';

const adapter = { limits: DEFAULT_LIMITS, features: [] as string[] };
const elementwise = { family: 'elementwise', workgroupSize: 256, elementsPerThread: 1, vectorWidth: 1 } as const;

describe('CPY makeCase', () => {
  it('contiguous: packed f32 both sides, no params', () => {
    const c = CPY.makeCase([4093, 7]);
    expect(c.label).toBe('4093x7');
    expect(c.srcs[0].nb).toEqual([4, 4093 * 4, 4093 * 7 * 4, 4093 * 7 * 4]);
    expect(c.dst.type).toBe('f32');
    expect(c.dst.ne).toEqual([4093, 7, 1, 1]);
    expect(c.params).toEqual({});
  });

  it('src-transposed: rows not contiguous (nb0 is the parent row)', () => {
    const c = CPY.makeCase([250, 129], 'src-transposed');
    expect(c.srcs[0].ne).toEqual([250, 129, 1, 1]);
    expect(c.srcs[0].nb.slice(0, 2)).toEqual([129 * 4, 4]);
  });

  it('dst-view: a 1-D view one row and five elements into a larger cache', () => {
    const c = CPY.makeCase([128, 37, 4], 'dst-view');
    const n = 128 * 37 * 4;
    expect(c.dst.ne).toEqual([n, 1, 1, 1]);
    expect(c.dst.offsetBytes).toBe((128 + 5) * 4);
    expect(c.dst.bufferSizeBytes).toBe((n + 2 * 128 + 5) * 4);
  });

  it('to-f16 and permuted-to-f16: dst packed f16', () => {
    expect(CPY.makeCase([5, 3], 'to-f16').dst.type).toBe('f16');
    const c = CPY.makeCase([4, 3, 2], 'permuted-to-f16');
    expect(c.dst.nb).toEqual([2, 8, 24, 48]);
    expect(c.srcs[0].nb).toEqual([4, 32, 16, 96]);
  });

  it('errors name what is wrong', () => {
    expect(() => CPY.makeCase([8], 'contiguous', { eps: 1 })).toThrow(OpCaseError);
    expect(() => CPY.makeCase([8], 'contiguous', { eps: 1 })).toThrow(/CPY takes no params, got eps/);
    expect(() => CPY.makeCase([8], 'inplace')).toThrow(/CPY has no layout 'inplace' \(layouts: contiguous, src-permuted/);
    expect(() => CPY.makeCase([2, 2, 2, 2, 2])).toThrow(/CPY takes 1 to 4 dims/);
    expect(() => CPY.makeCase([8], 'src-slice')).toThrow(/no layout 'src-slice'/);
  });
});

describe('CPY oracle', () => {
  it("reads the view in ggml order: a transposed [3, 2] buffer 0..5 is the src 0,3,1,4,2,5", () => {
    const c = CPY.makeCase([2, 3], 'src-transposed');
    const r = CPY.oracle(c, [bufferFor(c.srcs[0], [0, 3, 1, 4, 2, 5])]);
    // The buffer holds the parent packed: parent(p0, p1) = p0 + 3·p1; src(i0, i1) = parent(i1, i0).
    const parent = new Float32Array([0, 1, 2, 3, 4, 5]).buffer;
    expect([...CPY.oracle(c, [parent]).ref]).toEqual([0, 3, 1, 4, 2, 5]);
    expect([...r.ref]).toEqual([0, 3, 1, 4, 2, 5]);
    expect(r.terms).toBe(1);
    expect([...r.epsFloor]).toEqual(new Array(6).fill(0));
  });

  it('a permuted view: element k of dst is element k of the permuted src', () => {
    const c = CPY.makeCase([1, 2, 3], 'src-permuted');
    // Parent packed [1, 3, 2]: value = p1 + 3·p2; src(0, i1, i2) = parent(0, i2, i1) = i2 + 3·i1.
    const parent = new Float32Array([0, 1, 2, 3, 4, 5]).buffer;
    expect([...CPY.oracle(c, [parent]).ref]).toEqual([0, 3, 1, 4, 2, 5]);
  });

  it('to f16: round to nearest, ties to even (as ggml converts)', () => {
    const c = CPY.makeCase([4], 'to-f16');
    const r = CPY.oracle(c, [new Float32Array([1 / 3, 1 + 2 ** -11, 1 + 3 * 2 ** -11, -65504]).buffer]);
    expect(r.ref[0]).toBe(f16BitsToF32(0x3555)); // 0.333251953125
    expect(r.ref[1]).toBe(1); // the tie between 1 and 1 + 2^-10 goes to the even mantissa
    expect(r.ref[2]).toBe(1 + 2 ** -9);
    expect(r.ref[3]).toBe(-65504);
  });
});

describe('CPY native', () => {
  it('f32: one thread per element, both tensors in the shared Tensor uniform', () => {
    const c = CPY.makeCase([128, 37, 4], 'dst-view');
    const k = CPY.native(c);
    expect(k.label).toBe('native:CPY/cpy.wgsl');
    expect(k.bindings.map((b) => b.role)).toEqual(['src0', 'dst', 'params']);
    expect(k.dispatch).toEqual([Math.ceil((128 * 37 * 4) / 256), 1, 1]);
    expect(k.wgsl).toContain('struct Params {\n  src0: Tensor,\n  dst: Tensor,\n  words: u32,\n};');
    expect(k.wgsl).toContain('dst: array<f32>');
    const n = 128 * 37 * 4;
    // Each Tensor: ne[4], element strides[4], offset, count (12 words, aligned to 4); then words.
    const u = [...k.uniforms!];
    expect(u.slice(0, 10)).toEqual([128, 37, 4, 1, 1, 128, 128 * 37, 128 * 37 * 4, 64, n]);
    // dst: the 1-D view 64 + 133 elements in.
    expect(u.slice(12, 22)).toEqual([n, 1, 1, 1, 1, n, n, n, 64 + 133, n]);
    expect(u[24]).toBe(0);
  });

  it('f16: one thread per u32 word; an odd count leaves the last word half covered', () => {
    const c = CPY.makeCase([5], 'to-f16');
    const k = CPY.native(c);
    expect(k.label).toBe('native:CPY/cpy.wgsl [F16]');
    expect(k.wgsl).toContain('dst: array<u32>');
    // Offset 256 B = 128 halves = word 64; five halves touch words 64, 65, 66.
    const u = k.uniforms!;
    expect([u[21], u[20], u[24]]).toEqual([5, 128, 3]);
    expect(k.dispatch).toEqual([1, 1, 1]);
  });

  it('generated: the elementwise family, the source by its strides or through dst\'s linear index', () => {
    const c = CPY.makeCase([250, 129], 'src-transposed');
    const s = schedulesFor('CPY', c, adapter)!;
    expect(s).toMatchObject({ family: 'elementwise', vectorWidth: 1 });
    expect(CPY.generate(s, c).wgsl).toContain('let x_v = src0[64u + i0 * 129u + i1 * 1u];');
    // vec4 needs contiguous rows: the transposed source says so.
    expect(CPY.fits({ ...elementwise, vectorWidth: 4 }, c).join()).toMatch(/vectorWidth 4 needs x's rows contiguous/);
    const v = CPY.makeCase([128, 37, 4], 'dst-view');
    const k = CPY.generate(schedulesFor('CPY', v, adapter)!, v);
    // dst is 1-D: k = i0; src [128, 37, 4] packed: its coordinates of k, by its strides.
    expect(k.wgsl).toContain('let x_v = src0[64u + ((i0) % 128u) * 1u + (((i0) / 128u) % 37u) * 128u + (((i0) / 4736u) % 4u) * 4736u];');
    expect(k.wgsl).toContain('dst[197u + i0] = x_v;');
  });

  it('an f16 dst: stored as f16 where the adapter has shader-f16, else a declared fallback to native', () => {
    const c = CPY.makeCase([64, 8], 'to-f16');
    expect(CPY.require(c, adapter)).toMatchObject({ code: 'no-shader-f16' });
    expect(CPY.require(CPY.makeCase([64, 8]), adapter)).toBeNull();
    const f16 = { limits: DEFAULT_LIMITS, features: ['shader-f16'] };
    expect(CPY.require(c, f16)).toBeNull();
    const k = CPY.generate(schedulesFor('CPY', c, f16)!, c);
    expect(k.features).toEqual(['shader-f16']);
    expect(k.wgsl).toMatch(/^\/\/ generated: CPY flat 64x8 to-f16.*\nenable f16;\n/);
    expect(k.wgsl).toContain('var<storage, read_write> dst: array<vec4<f16>>;');
    expect(k.wgsl).toContain('dst[32u + v] = vec4<f16>(x_v);');
    const p = CPY.makeCase([63, 5, 2], 'permuted-to-f16');
    const kp = CPY.generate(schedulesFor('CPY', p, f16)!, p);
    expect(kp.wgsl).toContain('var<storage, read_write> dst: array<f16>;');
    expect(kp.wgsl).toMatch(/dst\[128u \+ i0 \+ i1 \* 63u \+ i2 \* 315u\] = f16\(x_v\);/);
  });

  it('bad schedules are refused with reasons', () => {
    const c = CPY.makeCase([64, 8]);
    expect(CPY.fits({ family: 'norm', workgroupSize: 256, vectorWidth: 1, reduction: 'shared', unroll: 1 }, c)).toEqual(['CPY takes a elementwise schedule, not norm']);
    expect(() => CPY.generate({ ...elementwise, vectorWidth: 4 }, CPY.makeCase([63, 7]))).toThrow(/cannot take CPY 63x7: vectorWidth 4 needs the element count 441/);
  });

  it('bytes: one read of src and one write of dst, in their types', () => {
    expect(CPY.bytes(CPY.makeCase([5, 3], 'to-f16'))).toEqual({ readBytes: 60, writeBytes: 30 });
    expect(CPY.flops(CPY.makeCase([5, 3]))).toBeNull();
  });
});

describe('CONT', () => {
  it('defaults to a permuted source, dst packed with its shape', () => {
    const c = CONT.makeCase([128, 33, 8]);
    expect(c.layout).toBe('src-permuted');
    expect(c.label).toBe('128x33x8');
    expect(c.dst.nb).toEqual([4, 512, 512 * 33, 512 * 33 * 8]);
    expect(CONT.makeCase([4, 3], 'contiguous').label).toBe('4x3 contiguous');
  });

  it('src-slice: a view one row into a parent with two more rows per plane', () => {
    const c = CONT.makeCase([3, 2, 2], 'src-slice');
    expect(c.srcs[0].offsetBytes).toBe(12);
    expect(c.srcs[0].nb).toEqual([4, 12, 48, 96]);
    // Parent [3, 4, 2] holds 0..23: plane 0 rows 1..2 are 3..8, plane 1 rows 1..2 are 15..20.
    const parent = Float32Array.from({ length: 24 }, (_, i) => i).buffer;
    expect([...CONT.oracle(c, [parent]).ref]).toEqual([3, 4, 5, 6, 7, 8, 15, 16, 17, 18, 19, 20]);
  });

  it('shares the copy kernel; refuses what ggml_cont does not make', () => {
    expect(CONT.native(CONT.makeCase([250, 129], 'src-transposed')).label).toBe('native:CPY/cpy.wgsl');
    expect(() => CONT.makeCase([8], 'to-f16')).toThrow(/CONT has no layout 'to-f16'/);
    expect(() => CONT.makeCase([8], 'dst-view')).toThrow(/CONT has no layout 'dst-view'/);
    expect(() => CONT.makeCase([8], 'src-permuted', { n: 1 })).toThrow(/CONT takes no params, got n/);
  });
});
