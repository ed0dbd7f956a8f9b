import { describe, expect, it } from 'vitest';
import { parseSchedule } from '../schedule/schedule';
import { SCALE } from './scale';

const vec4 = parseSchedule({ family: 'elementwise', workgroupSize: 64, elementsPerThread: 2, vectorWidth: 4 });
const f32 = (xs: number[]) => new Float32Array(xs).buffer;

describe('SCALE (ggml_scale, ggml_scale_bias)', () => {
  it('ggml_scale: dst = x·s, b = 0 by default', () => {
    const c = SCALE.makeCase([4], 'contiguous', { s: 2 });
    expect(c.params).toEqual({ s: 2, b: 0 });
    expect(c.label).toBe('4 s=2');
    const r = SCALE.oracle(c, [f32([1, -1.5, 0, 3])]);
    expect([...r.ref]).toEqual([2, -3, 0, 6]);
    expect([...r.epsFloor]).toEqual([2, 3, 0, 6]);
  });

  it('ggml_scale_bias: dst = x·s + b, with s and b as the f32 ggml stores', () => {
    const c = SCALE.makeCase([3], 'contiguous', { s: 0.1, b: -1 });
    const r = SCALE.oracle(c, [f32([10, 0, 20])]);
    const s = Math.fround(0.1);
    expect([...r.ref]).toEqual([10 * s - 1, -1, 20 * s - 1]);
    // x·s + b cancels at x = 10: the bound keeps the size of both terms.
    expect(r.epsFloor[0]).toBeCloseTo(2, 6);
  });

  it('in place: dst is src0 itself; the native uniform carries s and b as f32', () => {
    const c = SCALE.makeCase([8, 2], 'inplace', { s: -2.5, b: 0.5 });
    expect(c.inplace).toBe(true);
    const k = SCALE.native(c);
    expect(k.bindings.map((b) => b.role)).toEqual(['dst', 'params']);
    expect(k.wgsl).toContain('  let s = p.s;\n  let b = p.b;\n  return x * s + b;');
    // After the src0 and dst Tensor descriptors (12 words each).
    const f = new Float32Array(k.uniforms!.buffer);
    expect([f[24], f[25]]).toEqual([-2.5, 0.5]);
  });

  it('generated: x * s when b = 0 (exactly ggml_scale), x * s + b otherwise', () => {
    const plain = SCALE.generate(vec4, SCALE.makeCase([64], 'contiguous', { s: 0.5 })).wgsl;
    expect(plain).toContain('const s: f32 = 0.500000000;');
    expect(plain).toContain('= x_v * s;');
    expect(plain).not.toContain('+ b');
    expect(SCALE.generate(vec4, SCALE.makeCase([64], 'inplace', { b: 3 })).wgsl).toContain('dst[16u + v] = x_v * s + b;');
  });

  it('refuses what ggml refuses, naming it', () => {
    expect(() => SCALE.makeCase([8], 'src0-rows-strided')).toThrow("SCALE has no layout 'src0-rows-strided' (layouts: contiguous, inplace)");
    expect(() => SCALE.makeCase([8], 'contiguous', { s: Infinity })).toThrow('SCALE: s = Infinity is out of range (s is a finite number)');
    expect(() => SCALE.makeCase([8], 'contiguous', { bias: 1 })).toThrow("SCALE has no param 'bias' (params: s, b)");
  });
});
