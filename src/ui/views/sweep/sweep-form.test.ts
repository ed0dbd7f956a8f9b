import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../../core/adapter';
import { opByName } from '../../../core/ops/registry';
import { enumerateSpace, SPACES, validateSchedule } from '../../../core/schedule/schedule';
import { parseSpace, parseSweepShapes, spaceCandidates, spaceText } from './sweep-form';

describe('sweep form', () => {
  it("prefills the family's whole space, which enumerates exactly the family's candidates", () => {
    for (const family of ['elementwise', 'norm', 'matmul'] as const) {
      const space = parseSpace(spaceText(family), family);
      expect(Object.keys(space)).toEqual(Object.keys(SPACES[family]));
      expect(spaceCandidates(family, space)).toHaveLength(enumerateSpace(family).length);
    }
  });

  it('restricts knob by knob; knobs left out keep every value', () => {
    const c = spaceCandidates('elementwise', parseSpace('{"workgroupSize": [64, 2048], "vectorWidth": [4]}', 'elementwise'));
    expect(c).toHaveLength(2 * SPACES.elementwise.elementsPerThread.values.length);
    expect(c.filter((s) => validateSchedule(s, { limits: DEFAULT_LIMITS, features: [] }).length === 0)).toHaveLength(4);
  });

  it('names the knob or value that is wrong', () => {
    expect(() => parseSpace('{"tile": [4]}', 'elementwise')).toThrow("unknown knob 'tile' for family elementwise");
    expect(() => parseSpace('{"workgroupSize": []}', 'elementwise')).toThrow('space.workgroupSize must be a non-empty list');
    expect(() => parseSpace('{"staging": ["triple"]}', 'matmul')).toThrow('space.staging: "triple" is not one of');
    expect(() => parseSpace('{"workgroupSize": [0]}', 'elementwise')).toThrow('is not a positive integer');
    expect(() => parseSpace('[1]', 'elementwise')).toThrow('space is a JSON object');
    expect(() => parseSpace('{', 'elementwise')).toThrow('space is not valid JSON');
  });

  it("reads shapes like the CLI's --shapes; empty means the matrix", () => {
    const add = opByName('ADD');
    expect(parseSweepShapes('', add)).toEqual([]);
    expect(parseSweepShapes('256x16, 128x8:inplace', add)).toEqual([{ dims: [256, 16] }, { dims: [128, 8], layout: 'inplace' }]);
    expect(() => parseSweepShapes('256x16:a:b', add)).toThrow("'256x16:a:b' is not DIMS[:LAYOUT]");
  });
});
