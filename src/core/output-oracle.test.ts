import { describe, expect, it } from 'vitest';
import { GUARD_BYTES } from './hostdata';
import { caseData } from './inputs';
import { opByName } from './ops/registry';
import { outputAsOracle } from './output-oracle';

describe('a device output as the oracle', () => {
  const add = opByName('ADD');
  const c = add.makeCase([4, 2], 'contiguous');
  const { oracle } = caseData(add, c, 1);
  // What readback() returns: [guard | 8 f32 | padding and guard].
  const device = new ArrayBuffer(GUARD_BYTES + 32 + GUARD_BYTES);
  new Float32Array(device, GUARD_BYTES, 8).set([0.5, -1.25, 2, 3, 4, 5, 6, -7.5]);
  new Uint8Array(device, 0, GUARD_BYTES).fill(0xff);

  it('reads every element past the guard band, keeping the bound the oracle had', () => {
    const r = outputAsOracle(c, device, oracle);
    expect([...r.ref]).toEqual([0.5, -1.25, 2, 3, 4, 5, 6, -7.5]);
    expect(r.terms).toBe(oracle.terms);
    expect(r.epsFloor).toBe(oracle.epsFloor);
    expect(r.indices).toBeUndefined();
  });

  it('keeps a sampled oracle sampled: only its indices, in order', () => {
    const sampled = { ...oracle, ref: new Float64Array(2), indices: Int32Array.from([1, 7]) };
    const r = outputAsOracle(c, device, sampled);
    expect([...r.ref]).toEqual([-1.25, -7.5]);
    expect([...r.indices!]).toEqual([1, 7]);
  });
});

describe('caseData', () => {
  it("gives the seeded inputs and the oracle's answer on them", () => {
    const add = opByName('ADD');
    const { inputs, oracle } = caseData(add, add.makeCase([4, 2], 'contiguous'), 1);
    expect(inputs).toHaveLength(2);
    // src0[0] + src1[0] from the seeded inputs (inputs.test.ts pins both).
    expect(oracle.ref[0]).toBe(0.38019898533821106 + -0.18740087747573853);
    expect(oracle.ref.length).toBe(8);
  });
});
