import { describe, expect, it } from 'vitest';
import { inputSeed, makeInputs } from './inputs';
import { opByName } from './ops/registry';

describe('makeInputs', () => {
  const add = opByName('ADD');

  it('fills each source from its own seed: the same bytes in every runtime', () => {
    const c = add.makeCase([4, 2], 'contiguous');
    const [src0, src1] = makeInputs(c, 1).map((b) => new Float32Array(b));
    expect(src0.length).toBe(8);
    // mulberry32(7919) and mulberry32(7919 + 104729), mapped to [-1, 1) and rounded to f32.
    expect([...src0.slice(0, 3)]).toEqual([0.38019898533821106, 0.4832879304885864, -0.24583342671394348]);
    expect([...src1.slice(0, 3)]).toEqual([-0.18740087747573853, 0.21381351351737976, -0.5948518514633179]);
    expect([...new Float32Array(makeInputs(c, 2)[0]).slice(0, 3)]).toEqual([0.7470020651817322, 0.870900571346283, -0.3074858784675598]);
  });

  it("covers a view's whole backing buffer, unread bytes included", () => {
    const c = add.makeCase([4, 2], 'src0-rows-strided');
    const inputs = makeInputs(c, 1);
    expect(inputs.map((b) => b.byteLength)).toEqual(c.srcs.map((t) => t.bufferSizeBytes));
    expect(inputs[0].byteLength).toBeGreaterThan(4 * 2 * 4);
  });

  it('keeps seeds apart per source', () => {
    expect(inputSeed(1, 0)).toBe(7919);
    expect(inputSeed(1, 1)).toBe(112648);
    expect(inputSeed(3, 2)).toBe(3 * 7919 + 2 * 104729);
  });
});
