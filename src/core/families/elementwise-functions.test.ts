// The elementwise family's module-scope functions and i32 sources (ROPE's rotation and positions).
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

  it('an i32 source cannot be a vector load', () => {
    expect(ELEMENTWISE.fits({ ...s, vectorWidth: 4 }, snippet())).toEqual(['vectorWidth 4 cannot load i32 source p as vectors (use vectorWidth 1)']);
  });
});
