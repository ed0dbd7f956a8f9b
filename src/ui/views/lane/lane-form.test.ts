import { describe, expect, it } from 'vitest';
import { defaultLaneOps, parseLaneShapes } from './lane-form';
import { OPS, registryEntry } from '../../../core/ops/registry';

describe('lane form', () => {
  it('runs every op with a generated kernel by default', () => {
    const expected = OPS.filter((o) => !['native-only', 'retired'].includes(registryEntry(o.name).state)).map((o) => o.name);
    expect(defaultLaneOps()).toEqual(expected);
    expect(defaultLaneOps({ vendor: 'nvidia', architecture: 'hopper' })).not.toContain('RMS_NORM_BACK');
  });

  it("reads a shape list like the CLI's --shape, commas or spaces between entries", () => {
    expect(parseLaneShapes('ADD:256x16, mul_mat:64x64x64\nADD:256x16:inplace')).toEqual([
      { op: 'ADD', dims: [256, 16] },
      { op: 'MUL_MAT', dims: [64, 64, 64] },
      { op: 'ADD', dims: [256, 16], layout: 'inplace' },
    ]);
    expect(parseLaneShapes('  ')).toEqual([]);
    expect(parseLaneShapes('RMS_NORM:64x8:eps=1e-5, RMS_NORM:64x8:inplace:eps=0.5,ADD:8x8')).toEqual([
      { op: 'RMS_NORM', dims: [64, 8], params: { eps: 1e-5 } },
      { op: 'RMS_NORM', dims: [64, 8], layout: 'inplace', params: { eps: 0.5 } },
      { op: 'ADD', dims: [8, 8] },
    ]);
  });

  it('names the entry that is wrong', () => {
    expect(() => parseLaneShapes('ADD:256x16, NOPE:4x4')).toThrow("unknown op 'NOPE'");
    expect(() => parseLaneShapes('ADD')).toThrow("'ADD' is not OP:DIMS[:LAYOUT]");
    expect(() => parseLaneShapes('ADD:64xx8')).toThrow("shape '64xx8' is not of the form");
    expect(() => parseLaneShapes('ADD:64x8:sideways')).toThrow(/sideways/);
  });
});
