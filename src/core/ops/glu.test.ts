import { describe, expect, it } from 'vitest';
import { parseSchedule } from '../schedule/schedule';
import { GLU } from './glu';

const vec4 = parseSchedule({ family: 'elementwise', workgroupSize: 64, elementsPerThread: 2, vectorWidth: 4 });
const scalar = parseSchedule({ family: 'elementwise', workgroupSize: 64, elementsPerThread: 1, vectorWidth: 1 });

const f32 = (xs: number[]) => new Float32Array(xs).buffer;
const round = (xs: Float64Array) => [...xs].map((v) => +v.toFixed(6));

describe('GLU (ggml_glu, ggml_glu_split)', () => {
  it('split swiglu (the default): silu(a)·b', () => {
    const c = GLU.makeCase([3]);
    expect(c.layout).toBe('split');
    expect(c.params).toEqual({ op: 2, swapped: 0 });
    const r = GLU.oracle(c, [f32([1, -1, 0]), f32([2, 1, 5])]);
    // silu(1)·2 = 1.462117, silu(−1)·1 = −0.268941, silu(0)·5 = 0.
    expect(round(r.ref)).toEqual([1.462117, -0.268941, 0]);
  });

  it('reglu, geglu and geglu_quick by ggml enum value', () => {
    const ab = [f32([1, -1, 2]), f32([3, 3, -1])];
    expect(round(GLU.oracle(GLU.makeCase([3], 'split', { op: 0 }), ab).ref)).toEqual([3, 0, -2]);
    // gelu(1) = 0.841192, gelu(−1) = −0.158808, gelu(2) = 1.954598 (tanh form).
    expect(round(GLU.oracle(GLU.makeCase([3], 'split', { op: 1 }), ab).ref)).toEqual([2.523576, -0.476424, -1.954598]);
    // x·sigmoid(1.702·x): 0.845796 at 1, −0.154204 at −1.
    expect(round(GLU.oracle(GLU.makeCase([3], 'split', { op: 5 }), ab).ref).slice(0, 2)).toEqual([2.537387, -0.462613]);
  });

  it('fused: rows [x | g], dst ne0 = ne0 / 2; swapped: rows [g | x]', () => {
    const c = GLU.makeCase([4, 2], 'fused', { op: 0 });
    expect(c.srcs).toHaveLength(1);
    expect(c.dst.ne).toEqual([2, 2, 1, 1]);
    const rows = [f32([1, -2, 10, 20, 3, 4, -1, 2])];
    expect([...GLU.oracle(c, rows).ref]).toEqual([10, 0, -3, 8]);
    const s = GLU.makeCase([4, 2], 'fused', { op: 0, swapped: 1 });
    // x is now the second half: relu(10)·1, relu(20)·(−2), relu(−1)·3, relu(2)·4.
    expect([...GLU.oracle(s, rows).ref]).toEqual([10, -40, 0, 8]);
  });

  it('fused with an odd ne0: nc = ne0 / 2 rounded down, the last element never read (as ggml)', () => {
    const c = GLU.makeCase([5, 1], 'fused', { op: 0 });
    expect(c.dst.ne[0]).toBe(2);
    expect([...GLU.oracle(c, [f32([1, 2, 3, 4, 1000])]).ref]).toEqual([3, 8]);
    const k = GLU.native(GLU.makeCase([5, 1], 'fused', { op: 0, swapped: 1 }));
    // x starts nc = 2 elements into the row (past the 64-element guard), g at the row start: the
    // offsets of the x and g Tensor descriptors (12 words each, the offset the 9th).
    expect(k.uniforms![8]).toBe(66);
    expect(k.uniforms![20]).toBe(64);
    expect(k.label).toBe('native:GLU/glu.wgsl [FUSED]');
    expect(k.bindings.map((b) => b.role)).toEqual(['src0', 'dst', 'params']);
  });

  it('split-halves: a and b are the two halves of the rows of one packed tensor', () => {
    const c = GLU.makeCase([2, 2], 'split-halves', { op: 0 });
    expect(c.srcs[0].nb).toEqual([4, 16, 32, 32]);
    expect(c.srcs[1].offsetBytes).toBe(8);
    const parent = f32([1, 2, 3, 4, 5, -6, 7, 8]);
    expect([...GLU.oracle(c, [parent, parent]).ref]).toEqual([3, 8, 35, 0]);
  });

  it('refuses what ggml refuses or the lab does not offer, naming it', () => {
    expect(() => GLU.makeCase([4], 'split', { swapped: 1 })).toThrow('GLU: swapped applies to the fused form only');
    expect(() => GLU.makeCase([4], 'split', { op: 3 })).toThrow('GLU: op = 3 is out of range (op one of 0 (reglu), 1 (geglu), 2 (swiglu), 5 (geglu_quick))');
    expect(() => GLU.makeCase([4], 'split', { op: 4 })).toThrow(/op = 4 is out of range/);
    expect(() => GLU.makeCase([4, 2], 'fused', { swapped: 2 })).toThrow('GLU: swapped = 2 is out of range (swapped is 0 or 1)');
    expect(() => GLU.makeCase([1, 4], 'fused')).toThrow('GLU fused: ne0 = 1 has no halves');
    expect(() => GLU.makeCase([4], 'split', { alpha: 1 })).toThrow("GLU has no param 'alpha' (params: op, swapped)");
    expect(() => GLU.makeCase([4], 'interleaved')).toThrow("GLU has no layout 'interleaved'");
  });

  it('reads 2·n and writes n elements; x in [-8, 8), g in [-1, 1)', () => {
    const c = GLU.makeCase([8, 4], 'fused');
    expect(GLU.bytes(c)).toEqual({ readBytes: 32 * 4, writeBytes: 16 * 4 });
    const [x, g] = GLU.inputs!(GLU.makeCase([4096]), 1).map((b) => new Float32Array(b));
    expect(Math.max(...x.map(Math.abs))).toBeGreaterThan(7.9);
    expect(Math.max(...g.map(Math.abs))).toBeLessThan(1);
  });
  it('generated: the fused halves are views of one binding, vectorized when ne0 / 2 and the row stride align', () => {
    const fused = GLU.makeCase([64, 4], 'fused', { swapped: 1 });
    const k = GLU.generate(vec4, fused);
    expect(k.bindings.map((b) => b.role)).toEqual(['src0', 'dst']);
    // rows 64 elements = 16 vec4 apart past the 16-vec4 guard; swapped: x is the second half (8 vec4 in).
    expect(k.wgsl).toContain('let x_v = src0[24u + i0 + i1 * 16u];');
    expect(k.wgsl).toContain('let g_v = src0[16u + i0 + i1 * 16u];');
    // nc = 1000 is a multiple of 4, but rows of 2001 elements are not.
    expect(GLU.fits(vec4, GLU.makeCase([2001, 3], 'fused'))).toEqual(["vectorWidth 4 needs x's rows to start on 4-element boundaries", "vectorWidth 4 needs g's rows to start on 4-element boundaries"]);
    expect(GLU.generate(scalar, GLU.makeCase([8], 'split', { op: 0 })).wgsl).toContain('(max(x_v, x_v * 0.0)) * g_v');
    expect(GLU.generate(scalar, GLU.makeCase([8], 'split', { op: 1 })).wgsl).toContain('const gelu_a: f32');
  });
});
