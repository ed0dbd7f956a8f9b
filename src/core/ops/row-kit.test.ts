import { describe, expect, it } from 'vitest';
import { contiguous } from '../tensor';
import { OPS } from './registry';
import { defineRowOp, familyOperands, oneElementPerRow, type RowKernel } from './row-kit';
import { cases } from './rows-common';
import { OpCaseError } from './types';

const ROW_OPS = OPS.filter((op) => op.native(op.makeCase(op.matrix[0].dims, op.matrix[0].layout, op.matrix[0].params)).label.includes('(row/row.wgsl)'));

describe('the row ops share one template', () => {
  it('nine ops are declared with the row kit', () => {
    expect(ROW_OPS.map((op) => op.name).sort()).toEqual(['ARGMAX', 'COUNT_EQUAL', 'CROSS_ENTROPY_LOSS', 'CROSS_ENTROPY_LOSS_BACK', 'RMS_NORM', 'RMS_NORM_BACK', 'SOFT_MAX', 'SOFT_MAX_BACK', 'SUM_ROWS']);
  });

  // Every matrix case's native kernel: fully rendered, and its WGSL declares exactly the bindings it reports.
  it.each(ROW_OPS.flatMap((op) => op.matrix.map((e) => [`${op.name} ${e.dims.join('x')} ${e.layout}`, op, e] as const)))('%s: rendered, bindings as declared', (_, op, e) => {
    const k = op.native(op.makeCase(e.dims, e.layout, e.params));
    expect(k.wgsl).not.toMatch(/\{\{|^\s*#(if|else|endif)/m);
    const declared = [...k.wgsl.matchAll(/@binding\((\d+)\) var<(\w+)(?:, (\w+))?> (\w+)/g)].map((m) => `${m[1]}:${m[4] === 'p' ? 'params' : m[4]}:${m[3] ?? m[2]}`);
    expect(declared).toEqual(k.bindings.map((b) => `${b.binding}:${b.role}:${b.access}`));
  });
});

describe('defineRowOp', () => {
  // A toy row op (the max of each row, written once per row) to pin what the kit fills in.
  const native: RowKernel = { operands: [{ name: 'x', src: 0 }], reduce: { max: 'x' }, write: ['total'] };
  const ROW_MAX = defineRowOp({
    name: 'ROW_MAX',
    summary: 'dst[0, i1, i2, i3] = max of row (i1, i2, i3)',
    layouts: [
      { name: 'contiguous', doc: 'packed' },
      { name: 'transposed', doc: 'rows not contiguous' },
    ],
    matrix: cases('contiguous', [8, 2]),
    sources: (ne, layout) =>
      layout === 'contiguous'
        ? { srcs: [contiguous('f32', ne)], dst: contiguous('f32', [1, ne[1], ne[2], ne[3]]) }
        : layout === 'transposed'
          ? { srcs: [{ ...contiguous('f32', ne), nb: [4 * ne[1], 4, 4 * ne[0] * ne[1], 4 * ne[0] * ne[1]] }] }
          : undefined,
    oracle: () => ({ ref: new Float64Array(0), epsFloor: new Float64Array(0), terms: 1 }),
    native,
    generated: { none: 'a toy: no family snippet declared for it' },
  });

  it('checks dims, then params, then the layout, in the same words for every op', () => {
    expect(() => ROW_MAX.makeCase([1, 2, 3, 4, 5])).toThrow('ROW_MAX takes 1 to 4 dims (ne0xne1[xne2xne3] of dst), got 5');
    expect(() => ROW_MAX.makeCase([8], 'diagonal', { k: 1 })).toThrow(/ROW_MAX takes no params, got k/);
    expect(() => ROW_MAX.makeCase([8], 'diagonal')).toThrow("ROW_MAX has no layout 'diagonal' (layouts: contiguous, transposed)");
    expect(() => ROW_MAX.makeCase([8, 2], 'transposed')).toThrow(OpCaseError);
    expect(() => ROW_MAX.makeCase([8, 2], 'transposed')).toThrow('ROW_MAX: src0 rows must be contiguous (ggml asserts nb00 == sizeof(float)), got nb0 = 8 B');
    const c = ROW_MAX.makeCase([8, 2]);
    expect([c.label, c.dst.ne, c.inplace]).toEqual(['8x2', [1, 2, 1, 1], false]);
  });

  it('a max reduction starts at −∞ from the host: the kit adds neg_inf_bits to the uniform', () => {
    const k = ROW_MAX.native(ROW_MAX.makeCase([8, 2]));
    expect(k.label).toBe('native:ROW_MAX (row/row.wgsl)');
    expect(k.wgsl).toContain('  let neg_inf = bitcast<f32>(p.neg_inf_bits);');
    expect(k.wgsl).toContain('var acc = neg_inf;');
    expect(k.wgsl).toContain('acc = max(acc, x);');
    expect(k.wgsl).toContain('dst[rowd] = total;');
    // src0 and dst descriptors (12 words each), then −∞'s bits.
    expect(k.uniforms![24]).toBe(0xff800000);
    expect(k.dispatch).toEqual([2, 1, 1]);
  });

  it('declares no generated path with the reason', () => {
    expect(ROW_MAX.noGeneratedPath).toBe('a toy: no family snippet declared for it');
    expect(ROW_MAX.fits({ family: 'norm', workgroupSize: 64, vectorWidth: 1, reduction: 'shared', unroll: 1 }, ROW_MAX.makeCase([8]))).toEqual(['ROW_MAX has no generated kernel: a toy: no family snippet declared for it']);
  });
});

describe('row kit helpers', () => {
  it('familyOperands: src0 in place is read through dst, the others through their source', () => {
    const c = { srcs: [contiguous('f32', [4]), contiguous('f32', [4])], inplace: true } as never;
    expect(familyOperands(c, [{ name: 'dy', src: 0 }, { name: 'y', src: 1 }]).map((o) => `${o.name}:${o.binding}`)).toEqual(['dy:dst', 'y:src1']);
  });

  it('oneElementPerRow: dst [n] seen as [1, n], element i1 at row i1', () => {
    const v = oneElementPerRow(contiguous('i32', [5]));
    expect([v.ne, v.nb]).toEqual([
      [1, 5, 1, 1],
      [4, 4, 20, 20],
    ]);
  });
});
