import { describe, expect, it } from 'vitest';
import { opByName } from './registry';
import { parseCaseSpec, parseShapeList } from './shape-specs';

describe('shape lists as typed', () => {
  it("reads shapes like the CLI's --shapes; empty means the matrix", () => {
    const add = opByName('ADD');
    expect(parseShapeList('', add)).toEqual([]);
    expect(parseShapeList('256x16, 128x8:inplace', add)).toEqual([{ dims: [256, 16] }, { dims: [128, 8], layout: 'inplace' }]);
    expect(() => parseShapeList('256x16:a:b', add)).toThrow("'256x16:a:b' is not DIMS[:LAYOUT]");
  });

  it("reads a lane case like the CLI's --shape, checked against the op", () => {
    expect(parseCaseSpec('add:256x16:inplace')).toEqual({ op: 'ADD', dims: [256, 16], layout: 'inplace' });
    expect(parseCaseSpec('MUL_MAT:64x32x48')).toEqual({ op: 'MUL_MAT', dims: [64, 32, 48] });
    expect(() => parseCaseSpec('ADD')).toThrow("'ADD' is not OP:DIMS[:LAYOUT]");
    expect(() => parseCaseSpec('ADD:8x8:diagonal')).toThrow("ADD has no layout 'diagonal'");
  });
});
