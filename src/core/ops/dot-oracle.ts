// The f64 oracle of a batched product dst[m, n, i2, i3] = Σ_k A[m, k, i2/r2, i3/r3] · B[n, k, i2, i3]
// over gathered (packed, ggml-order) sources: MUL_MAT's rows run along K, OUT_PROD's along m and n;
// only the element strides in the packed arrays differ. epsFloor = Σ|a·b| / sqrt(K), so an element
// whose terms cancel is held to the size of its terms. With `sample` only those dst elements.
import { nelements, type TensorDesc } from '../tensor';
import type { OracleResult } from './types';

/** Element strides of an operand in its packed array: along its row index (m or n) and along K. */
export interface PackedAccess {
  readonly row: number;
  readonly k: number;
}

export function dotOracle(dst: TensorDesc, K: number, srcBatches: readonly [number, number], a: Float64Array, aAt: PackedAccess, b: Float64Array, bAt: PackedAccess, sample?: Int32Array): OracleResult {
  const [M, N, ne2, ne3] = dst.ne;
  const [ne02, ne03] = srcBatches;
  const r2 = ne2 / ne02;
  const r3 = ne3 / ne03;
  const count = sample ? sample.length : nelements(dst);
  const ref = new Float64Array(count);
  const epsFloor = new Float64Array(count);
  const rootK = Math.sqrt(K);
  for (let s = 0; s < count; s++) {
    const e = sample ? sample[s] : s;
    const m = e % M;
    const rest = (e - m) / M;
    const n = rest % N;
    const batch = (rest - n) / N;
    const i2 = batch % ne2;
    const i3 = (batch - i2) / ne2;
    const aBase = m * aAt.row + M * K * (Math.floor(i2 / r2) + ne02 * Math.floor(i3 / r3));
    const bBase = n * bAt.row + N * K * batch;
    let sum = 0;
    let mag = 0;
    for (let k = 0; k < K; k++) {
      const p = a[aBase + k * aAt.k] * b[bBase + k * bAt.k];
      sum += p;
      mag += Math.abs(p);
    }
    ref[s] = sum;
    epsFloor[s] = mag / rootK;
  }
  return sample ? { ref, epsFloor, terms: K, indices: sample } : { ref, epsFloor, terms: K };
}
