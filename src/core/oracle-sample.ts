// Which dst elements the oracle computes. The f64 oracle runs on the CPU: above a few hundred
// million multiply-adds it would take minutes, so it checks a seeded sample instead (the rest
// of the output is still checked for NaN/Inf and the guard bands for stray writes).
import { prng } from './hostdata';
import type { OpCase, OpDef } from './ops/types';
import { nelements } from './tensor';

/** Above this many multiply-adds (or output elements) the oracle checks a sample. */
export const FULL_ORACLE_MAX_TERMS = 3e8;
export const ORACLE_SAMPLE_SIZE = 16384;

/** The oracle's cost in terms: one per output element at least, else flops / 2 (multiply-adds). */
export function oracleTerms(op: Pick<OpDef, 'flops'>, c: OpCase): number {
  return Math.max(nelements(c.dst), (op.flops(c) ?? 0) / 2);
}

/** All elements (undefined), or a sorted, seeded sample that always holds the first and the last. */
export function oracleSample(op: Pick<OpDef, 'flops'>, c: OpCase, seed = 1): Int32Array | undefined {
  const n = nelements(c.dst);
  if (oracleTerms(op, c) <= FULL_ORACLE_MAX_TERMS || n <= ORACLE_SAMPLE_SIZE) return undefined;
  const next = prng(seed * 31 + 17);
  const picked = new Set<number>([0, n - 1]);
  while (picked.size < ORACLE_SAMPLE_SIZE) picked.add(Math.floor(next() * n));
  return Int32Array.from([...picked].sort((a, b) => a - b));
}
