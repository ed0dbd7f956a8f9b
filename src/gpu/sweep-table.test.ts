import { describe, expect, it } from 'vitest';
import { UsageError } from '../core/errors';
import { SWEEP_CAPS } from '../core/input/caps';
import { opByName, REGISTRY } from '../core/ops/registry';
import { defaultSweepShapes } from '../core/ops/types';
import { checkSweepTable, sweepSpace } from './sweep';

describe("the sweep's table against the stored result's cap", () => {
  it('keeps every default sweep (no --shapes, no --space) within the cap, counting every matrix shape it names', () => {
    const over: string[] = [];
    for (const { op: name } of REGISTRY) {
      const op = opByName(name);
      if (op.noGeneratedPath) continue;
      const cells = sweepSpace(op).candidates.length * defaultSweepShapes(op).length;
      if (cells > SWEEP_CAPS.cells) over.push(`${name}: ${cells}`);
    }
    expect(over).toEqual([]);
    // The two ops on the tiled f32 family: 972 candidates; the whole matrices were 17 and 9 shapes (16 524 and 8748 cells).
    const mulMat = opByName('MUL_MAT');
    expect(sweepSpace(mulMat).candidates.length).toBe(972);
    expect(defaultSweepShapes(mulMat).map((e) => `${e.dims.join('x')} ${e.layout}`)).toEqual([
      '256x128x128 contiguous',
      '255x66x150 contiguous',
      '96x40x64x4 batched-broadcast',
      '256x64x128 src0-rows-strided',
      '128x32x64x2 src1-permuted',
      '128x64x96 src0-odd-stride',
      '96x80x16x4x2 both-permuted',
    ]);
    expect(defaultSweepShapes(opByName('OUT_PROD'))).toHaveLength(8);
    expect(defaultSweepShapes(opByName('ADD'))).toBe(opByName('ADD').matrix);
  });

  it('refuses a table over the cap before any GPU work, with the numbers and the way out', () => {
    expect(() => checkSweepTable(972, 8)).not.toThrow();
    expect(() => checkSweepTable(972, 17)).toThrow(UsageError);
    expect(() => checkSweepTable(972, 17)).toThrow("the sweep's table would be 972 candidates × 17 shapes = 16524 cells, over the cap of 8192 a stored sweep holds: narrow it with --shapes or --space");
    expect(() => checkSweepTable(8192, 1)).not.toThrow();
    expect(() => checkSweepTable(8193, 1)).toThrow(/8193 cells/);
  });
});
