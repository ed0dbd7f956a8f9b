// The op model: what one op file declares. The lane, the sweep and the UI read only this.
import type { AdapterDescriptor } from '../adapter';
import type { KernelSpec } from '../kernel';
import type { Family, Schedule } from '../schedule/schedule';
import { nelements, nrows, type TensorDesc } from '../tensor';

/** A concrete instance of an op: tensors (views included), aliasing and parameters. */
export interface OpCase {
  readonly op: string;
  /** The dims as the user writes them (dst ne for ADD and the norms, M,N,K for MUL_MAT). */
  readonly dims: readonly number[];
  /** Which layout variant built the tensors: 'contiguous', 'inplace', 'src0-rows-strided'… */
  readonly layout: string;
  /** "4096x512" or "4096x512 inplace": how results name this case. */
  readonly label: string;
  readonly srcs: readonly TensorDesc[];
  readonly dst: TensorDesc;
  /** dst is a view of src0's buffer (ggml's *_inplace): the kernel must not bind it twice. */
  readonly inplace: boolean;
  readonly params: Readonly<Record<string, number>>;
}

/** The oracle's answer for every dst element, ggml order, accumulated in f64. */
export interface OracleResult {
  readonly ref: Float64Array;
  /**
   * Per element: the magnitude rounding error scales with (the size of the terms that met
   * there), so an element whose terms cancel to ~0 is not held to a bound of 0.
   */
  readonly epsFloor: Float64Array;
  /** k: terms accumulated into each element (1 for elementwise ops). */
  readonly terms: number;
  /**
   * When present, ref and epsFloor hold only these dst elements (ggml order, ascending): the
   * oracle was asked for a sample because the whole output costs too much on a CPU. Every
   * element is still checked for NaN/Inf, and the guard bands in full.
   */
  readonly indices?: Int32Array;
}

/** A contract rejection: a shape the generated path declines, with a stable code. */
export interface Rejection {
  readonly code: string;
  readonly reason: string;
}

export interface ByteCounts {
  /** Bytes the op must read at least once (each source element once). */
  readonly readBytes: number;
  readonly writeBytes: number;
}

export class OpCaseError extends Error {
  override name = 'OpCaseError';
}

export interface LayoutSpec {
  readonly name: string;
  readonly doc: string;
}

export interface MatrixEntry {
  readonly dims: readonly number[];
  readonly layout: string;
}

export interface OpDef {
  /** ggml's name: 'ADD', 'RMS_NORM', 'RMS_NORM_BACK', 'MUL_MAT'. */
  readonly name: string;
  readonly summary: string;
  /** How --shape is written for this op, e.g. 'ne0xne1[xne2xne3] of dst' or 'MxNxK'. */
  readonly shapeSyntax: string;
  /** Layout variants (views, aliasing, broadcasts); the first is the default. */
  readonly layouts: readonly LayoutSpec[];
  /** The default shape matrix: what the page offers and the lane runs. */
  readonly matrix: readonly MatrixEntry[];
  /** Checks dims and builds the case; throws OpCaseError naming what is wrong. */
  makeCase(dims: readonly number[], layout?: string, params?: Readonly<Record<string, number>>): OpCase;
  /**
   * The reference result. `srcs` are the packed source buffers (no guards). With `sample`
   * (ascending dst element indices) an op may compute only those elements and say so in
   * `indices`; an op that ignores it returns every element.
   */
  oracle(c: OpCase, srcs: readonly ArrayBuffer[], sample?: Int32Array): OracleResult;
  /**
   * Seeded host inputs, one packed buffer per source, when random values in [-1, 1) would be
   * wrong for the op (row indices in range, positions, probability labels). Default: randomBuffer.
   */
  inputs?(c: OpCase, seed: number): ArrayBuffer[];
  /** Floating-point operations; null for memory-only ops (no GFLOP/s column). */
  flops(c: OpCase): number | null;
  bytes(c: OpCase): ByteCounts;
  /** Named numbers the shape rules and the sweep reason about (ne0, rows, M, N, K…). */
  features(c: OpCase): Readonly<Record<string, number>>;
  /** The hand-written kernel, which takes every case makeCase accepts. */
  native(c: OpCase): KernelSpec;
  /** The generated path. */
  readonly family: Family;
  /** The generated path's contract: null when it takes the case, else a declared rejection. */
  require(c: OpCase, adapter: Pick<AdapterDescriptor, 'limits' | 'features'>): Rejection | null;
  /** Why a valid schedule cannot take this case (e.g. vectorWidth 4 with ne0 % 4 ≠ 0). */
  fits(s: Schedule, c: OpCase): string[];
  /** Pure codegen: schedule + case → WGSL and its dispatch. */
  generate(s: Schedule, c: OpCase): KernelSpec;
}

/** Features of row-wise ops (ADD, the norms): row length, row count, elements. */
export function rowFeatures(c: OpCase): Readonly<Record<string, number>> {
  return { ne0: c.dst.ne[0], rows: nrows(c.dst), n: nelements(c.dst) };
}

/** "4096x512" → [4096, 512]; throws naming the bad part. */
export function parseDims(text: string): number[] {
  const trimmed = text.trim();
  if (!/^\d+(x\d+)*$/i.test(trimmed)) throw new OpCaseError(`shape '${text}' is not of the form AxBxC (positive integers joined by 'x')`);
  const dims = trimmed.toLowerCase().split('x').map(Number);
  dims.forEach((d, i) => {
    if (!Number.isSafeInteger(d) || d < 1) throw new OpCaseError(`shape '${text}': dimension ${i} must be a positive integer, got ${d}`);
  });
  return dims;
}

export function dimsLabel(dims: readonly number[]): string {
  return dims.join('x');
}

export function caseLabel(dims: readonly number[], layout: string, defaultLayout: string): string {
  return layout === defaultLayout ? dimsLabel(dims) : `${dimsLabel(dims)} ${layout}`;
}
