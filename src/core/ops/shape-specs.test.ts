import { describe, expect, it } from 'vitest';
import { opByName } from './registry';
import { parseCaseSpec, parseShapeList } from './shape-specs';

describe('shape lists as typed', () => {
  it("reads shapes like the CLI's --shapes; empty means the matrix", () => {
    const add = opByName('ADD');
    expect(parseShapeList('', add)).toEqual([]);
    expect(parseShapeList('256x16, 128x8:inplace', add)).toEqual([{ dims: [256, 16] }, { dims: [128, 8], layout: 'inplace' }]);
    expect(() => parseShapeList('256x16:a:b=1:c', add)).toThrow("'256x16:a:b=1:c' is not DIMS[:LAYOUT][:k=v;…]");
    expect(() => parseShapeList('256x16:a:b', add)).toThrow("param 'b' is not name=value");
    expect(parseShapeList('256x16:eps=1e-5, 8x8:inplace:eps=0.5', opByName('RMS_NORM'))).toEqual([
      { dims: [256, 16], params: { eps: 1e-5 } },
      { dims: [8, 8], layout: 'inplace', params: { eps: 0.5 } },
    ]);
  });

  it("reads a lane case like the CLI's --shape, checked against the op", () => {
    expect(parseCaseSpec('add:256x16:inplace')).toEqual({ op: 'ADD', dims: [256, 16], layout: 'inplace' });
    expect(parseCaseSpec('MUL_MAT:64x32x48')).toEqual({ op: 'MUL_MAT', dims: [64, 32, 48] });
    expect(() => parseCaseSpec('ADD')).toThrow("'ADD' is not OP:DIMS[:LAYOUT][:k=v,…]");
    expect(parseCaseSpec('RMS_NORM:64x8:inplace:eps=1e-5')).toEqual({ op: 'RMS_NORM', dims: [64, 8], layout: 'inplace', params: { eps: 1e-5 } });
    expect(parseCaseSpec('RMS_NORM:64x8:eps=1e-5')).toEqual({ op: 'RMS_NORM', dims: [64, 8], params: { eps: 1e-5 } });
    expect(() => parseCaseSpec('RMS_NORM:64x8:eps=-1')).toThrow('RMS_NORM: eps = -1 is out of range (eps is a finite number, 0 ≤ eps)');
    expect(() => parseCaseSpec('ADD:64x8:alpha=2')).toThrow('ADD takes no params, got alpha');
    expect(() => parseCaseSpec('ADD:8x8:diagonal')).toThrow("ADD has no layout 'diagonal'");
  });
});
