// Correctness before time: every output element against the oracle's bound, NaN/Inf, and the
// guard bands (every byte of the output buffer that is not an output element must be untouched).
import { GUARD_BYTES, readElement } from '../hostdata';
import type { OracleResult } from '../ops/types';
import type { InputRounding } from '../kernel';
import { epsOf, forEachElement, isContiguous, nelements, spanBytes, typeSizeBytes, type TensorDesc } from '../tensor';

export interface CorrectnessReport {
  readonly correct: boolean;
  /** Largest |out − ref| over all elements. */
  readonly maxErr: number;
  /** The bound at the element closest to failing (largest err / bound). */
  readonly bound: number;
  /** max over elements of |out − ref| / bound: ≤ 1 passes. */
  readonly worstRatio: number;
  readonly worstIndex: number;
  readonly elements: number;
  /** Elements compared with the oracle: all of them, or the sample when the oracle sampled. */
  readonly checked: number;
  readonly outOfBound: number;
  /** Outputs that are NaN or ±Inf where the reference is finite. */
  readonly nonFinite: number;
  /** Bytes outside the output elements that changed (out-of-bounds writes). */
  readonly guardViolations: number;
  /** Up to five descriptions of failing elements, for the page and the CLI. */
  readonly failures: readonly string[];
}

/**
 * The eps a declared rounding of the operands puts in the element bound: f16 staging, f16's; q8_1
 * activations (MMVQ), 2^-8 — a q8_1 block rounds each activation to a step of amax/127, so by at
 * most amax/254 ≈ 2^-8 of its block's largest. The element bound with it is loose on its own (its
 * Σ|w·x| term grows with K), so q8_1 outputs must also meet MMVQ_MAX_NMSE over the checked
 * elements: ggml test-backend-ops' NMSE threshold for MUL_MAT (5e-4), which a dropped or
 * mis-decoded block (NMSE ≈ 1/blocks per row and up) fails while q8_1 rounding (≈ 1e-5) passes.
 */
const ROUNDING_EPS: Readonly<Record<InputRounding, number>> = { f16: epsOf.f16, q8_1: 2 ** -8 };
export const MMVQ_MAX_NMSE = 5e-4;

/** |out − ref| ≤ sqrt(k) · 8 · eps(dtype) · (|ref| + epsFloor). */
export function elementBound(ref: number, epsFloor: number, terms: number, eps: number): number {
  return Math.sqrt(terms) * 8 * eps * (Math.abs(ref) + epsFloor);
}

/**
 * Checks a dst readback. `before` and `after` are the dst's whole device buffer (guards
 * included) before upload-time dispatch and after it; the tensor sits GUARD_BYTES in.
 */
export function checkOutput(dst: TensorDesc, oracle: OracleResult, before: ArrayBuffer, after: ArrayBuffer, inputRounding?: InputRounding): CorrectnessReport {
  const view = new DataView(after);
  // A kernel that rounds its operands (f16 staging, q8_1 activations) is held to that rounding's eps: its inputs moved.
  const eps = Math.max(epsOf[dst.type], inputRounding ? ROUNDING_EPS[inputRounding] : 0);
  let errSq = 0;
  let refSq = 0;
  let maxErr = 0;
  let worstRatio = 0;
  let worstIndex = -1;
  let bound = 0;
  let outOfBound = 0;
  let nonFinite = 0;
  const failures: string[] = [];
  const shifted: TensorDesc = { ...dst, offsetBytes: dst.offsetBytes + GUARD_BYTES };
  const sample = oracle.indices;
  let next = 0; // position in the sample
  forEachElement(shifted, (i, off, i0, i1, i2, i3) => {
    const out = readElement(view, dst.type, off);
    let k = i;
    if (sample) {
      if (next < sample.length && sample[next] === i) k = next++;
      else {
        // Not sampled: only finiteness can be checked (the inputs make every reference finite).
        if (!Number.isFinite(out)) {
          nonFinite++;
          if (failures.length < 5) failures.push(`[${i0},${i1},${i2},${i3}] = ${out}`);
        }
        return;
      }
    }
    const ref = oracle.ref[k];
    const b = elementBound(ref, oracle.epsFloor[k], oracle.terms, eps);
    if (!Number.isFinite(out) && Number.isFinite(ref)) {
      nonFinite++;
      if (failures.length < 5) failures.push(`[${i0},${i1},${i2},${i3}] = ${out}, expected ${ref}`);
      return;
    }
    const err = Math.abs(out - ref);
    errSq += err * err;
    refSq += ref * ref;
    if (err > maxErr) maxErr = err;
    const ratio = b > 0 ? err / b : err > 0 ? Infinity : 0;
    if (ratio > worstRatio || worstIndex < 0) {
      worstRatio = ratio;
      worstIndex = i;
      bound = b;
    }
    if (err > b) {
      outOfBound++;
      if (failures.length < 5) failures.push(`[${i0},${i1},${i2},${i3}] = ${out}, expected ${ref} (|err| ${err.toExponential(2)} > bound ${b.toExponential(2)})`);
    }
  });
  const guardViolations = countGuardViolations(shifted, before, after);
  if (guardViolations && failures.length < 5) failures.push(`${guardViolations} byte(s) outside the output changed (out-of-bounds write)`);
  const nmse = refSq > 0 ? errSq / refSq : errSq;
  const nmseBad = inputRounding === 'q8_1' && !(nmse <= MMVQ_MAX_NMSE);
  if (nmseBad) failures.unshift(`NMSE ${nmse.toExponential(2)} over the checked elements exceeds ${MMVQ_MAX_NMSE} (q8_1 activations: ggml test-backend-ops' MUL_MAT threshold)`);
  return Object.freeze({
    correct: outOfBound === 0 && nonFinite === 0 && guardViolations === 0 && !nmseBad,
    maxErr,
    bound,
    worstRatio,
    worstIndex,
    elements: nelements(dst),
    checked: sample ? sample.length : nelements(dst),
    outOfBound,
    nonFinite,
    guardViolations,
    failures: Object.freeze(failures),
  });
}

/** Bytes that changed outside the tensor's elements (the tensor given at its device offset). */
export function countGuardViolations(t: TensorDesc, before: ArrayBuffer, after: ArrayBuffer): number {
  const a = new Uint8Array(before);
  const b = new Uint8Array(after);
  const n = Math.min(a.length, b.length);
  let bad = Math.abs(a.length - b.length);
  if (isContiguous(t)) {
    const start = t.offsetBytes;
    const end = start + spanBytes(t);
    for (let i = 0; i < start; i++) if (a[i] !== b[i]) bad++;
    for (let i = end; i < n; i++) if (a[i] !== b[i]) bad++;
    return bad;
  }
  const mask = new Uint8Array(n);
  const ts = typeSizeBytes[t.type];
  forEachElement(t, (_i, off) => mask.fill(1, off, off + ts));
  for (let i = 0; i < n; i++) if (!mask[i] && a[i] !== b[i]) bad++;
  return bad;
}
