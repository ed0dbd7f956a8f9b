// The elementwise family's module-scope functions, i32 sources (ROPE's rotation and positions)
// and uniform sources (OPT_STEP_ADAMW's hyperparameters, read from a tensor).
import { describe, expect, it } from 'vitest';
import { deviceOffsetElements } from '../hostdata';
import { contiguous } from '../tensor';
import { ELEMENTWISE, type ElementwiseSnippet } from './elementwise';

const s = { family: 'elementwise', workgroupSize: 64, elementsPerThread: 1, vectorWidth: 1 } as const;
const x = contiguous('f32', [8, 3]);
const rows = contiguous('i32', [3]);
const snippet = (index?: string): ElementwiseSnippet => ({
  sources: [
    { name: 'x', tensor: x, binding: 'src0' },
    { name: 'p', tensor: rows, binding: 'src1', ...(index ? { index } : {}) },
  ],
  outputs: [{ tensor: contiguous('f32', [8, 3]), binding: 'dst', expr: 'shift(x, p)' }],
  functions: 'fn shift(v: f32, p: i32) -> f32 {\n  return v + f32(p);\n}\n',
});

describe('elementwise: functions and i32 sources', () => {
  it('emits the functions at module scope and declares an i32-only buffer array<i32>', () => {
    const k = ELEMENTWISE.generate(s, snippet(`${deviceOffsetElements(rows)}u + i1`), { op: 'T', label: '8x3' });
    expect(k.wgsl).toContain('@group(0) @binding(1) var<storage, read> src1: array<i32>;');
    expect(k.wgsl).toContain('fn shift(v: f32, p: i32) -> f32 {\n  return v + f32(p);\n}\n\n@compute');
    expect(k.wgsl).toContain('let p_v = src1[64u + i1];');
    expect(k.wgsl).toMatch(/\] = shift\(x_v, p_v\);/);
  });

  it('a uniform source (one value for every element) is splatted and keeps the flat vector path', () => {
    const hp = contiguous('f32', [2]);
    const k: ElementwiseSnippet = {
      sources: [
        { name: 'x', tensor: x, binding: 'src0' },
        { name: 'scale', tensor: hp, binding: 'src1', index: `${deviceOffsetElements(hp) + 1}u`, uniform: true },
      ],
      outputs: [{ tensor: contiguous('f32', [8, 3]), binding: 'dst', expr: 'x * scale' }],
    };
    const vec = { ...s, vectorWidth: 4 };
    expect(ELEMENTWISE.fits(vec, k)).toEqual([]);
    const g = ELEMENTWISE.generate(vec, k, { op: 'T', label: '8x3' });
    expect(g.wgsl).toMatch(/^\/\/ generated: T flat/);
    expect(g.wgsl).toContain('@group(0) @binding(1) var<storage, read> src1: array<f32>;');
    expect(g.wgsl).toContain('let scale_v = vec4<f32>(src1[65u]);');
    expect(g.wgsl).toContain('dst[16u + v] = x_v * scale_v;');
  });

  it('an i32 source cannot be a vector load', () => {
    expect(ELEMENTWISE.fits({ ...s, vectorWidth: 4 }, snippet())).toEqual(['vectorWidth 4 cannot load i32 source p as vectors (use vectorWidth 1)']);
  });
});
