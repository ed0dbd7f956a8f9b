// Host inputs for a case: one buffer per source, filled from a seeded generator, so the same
// seed gives the same bytes in every runtime (Node, the page's worker, headless Chromium).
import { randomBuffer } from './hostdata';
import { assertIndicesFit } from './input/case-contract';
import type { OpCase, OpDef, OracleResult } from './ops/types';
import { oracleSample } from './oracle-sample';

/** Distinct, well-spread generator seeds per (run seed, source index). */
export function inputSeed(seed: number, srcIndex: number): number {
  return seed * 7919 + srcIndex * 104729;
}

/**
 * One buffer per source, the whole of its backing buffer (a view's unread bytes included). An op
 * whose sources need other values than [-1, 1) (row indices in range, positions, labels) gives
 * its own `inputs`.
 */
export function makeInputs(c: OpCase, seed = 1, op?: Pick<OpDef, 'inputs'>): ArrayBuffer[] {
  assertIndicesFit(c); // never build the inputs of a case no kernel can index
  if (op?.inputs) return op.inputs(c, seed);
  return c.srcs.map((t, i) => randomBuffer(t, inputSeed(seed, i)));
}

/** A case's inputs and the oracle's answer on them (sampled above FULL_ORACLE_MAX_TERMS). */
export function caseData(op: OpDef, c: OpCase, seed = 1): { inputs: ArrayBuffer[]; oracle: OracleResult } {
  const inputs = makeInputs(c, seed, op);
  return { inputs, oracle: op.oracle(c, inputs, oracleSample(op, c, seed)) };
}
