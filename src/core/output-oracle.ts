// A device output read back as an oracle: the sweep holds a candidate to the variant it would
// replace (DESIGN.md "Sweep": same bound), not only to the f64 oracle.
import { GUARD_BYTES, readElement } from './hostdata';
import type { OpCase, OracleResult } from './ops/types';
import { forEachElement } from './tensor';

/**
 * `deviceBytes`: the whole dst buffer as readback() returns it (guards included). The bound's
 * floor and term count stay the oracle's; a sampled oracle keeps its sample.
 */
export function outputAsOracle(c: OpCase, deviceBytes: ArrayBuffer, oracle: OracleResult): OracleResult {
  const view = new DataView(deviceBytes);
  const ref = new Float64Array(oracle.indices ? oracle.indices.length : oracle.ref.length);
  const shifted = { ...c.dst, offsetBytes: c.dst.offsetBytes + GUARD_BYTES };
  let k = 0;
  forEachElement(shifted, (i, off) => {
    if (oracle.indices) {
      if (k < oracle.indices.length && oracle.indices[k] === i) ref[k++] = readElement(view, c.dst.type, off);
    } else ref[i] = readElement(view, c.dst.type, off);
  });
  return { ref, epsFloor: oracle.epsFloor, terms: oracle.terms, indices: oracle.indices };
}
