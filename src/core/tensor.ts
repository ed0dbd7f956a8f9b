// ggml-style tensor descriptors: ne[4] element counts, nb[4] byte strides, a byte offset
// into a packed buffer. Descriptors are plain frozen data; host data lives elsewhere.

/** i32 holds indices and labels (GET_ROWS rows, ROPE positions, ARGMAX results): compared exactly. */
export type DType = 'f32' | 'f16' | 'i32';

export const typeSizeBytes: Readonly<Record<DType, number>> = Object.freeze({ f32: 4, f16: 2, i32: 4 });

/** Unit roundoff per type (the machine epsilon ggml's tests use: 2^-23 for f32, 2^-10 for f16; 0 for integers). */
export const epsOf: Readonly<Record<DType, number>> = Object.freeze({ f32: 2 ** -23, f16: 2 ** -10, i32: 0 });

/** Integer types carry exact values: their bound is 0 and the oracle must give the exact integer. */
export function isIntegerType(type: DType): boolean {
  return type === 'i32';
}

export type Dims4 = readonly [number, number, number, number];

export interface TensorDesc {
  readonly type: DType;
  /** Elements per dimension, ggml order: ne[0] is the innermost (row length). */
  readonly ne: Dims4;
  /** Byte stride per dimension. */
  readonly nb: Dims4;
  /** Byte offset of element [0,0,0,0] inside the packed buffer. */
  readonly offsetBytes: number;
  /** Size of the packed buffer this tensor lives in (a view shares its parent's). */
  readonly bufferSizeBytes: number;
  /** How the tensor was made, for labels: 'contiguous', 'permute(0,2,1,3)', 'rows-strided'… */
  readonly layout: string;
}

export class TensorError extends Error {
  override name = 'TensorError';
}

function checkDims(ne: readonly number[]): Dims4 {
  if (ne.length < 1 || ne.length > 4) throw new TensorError(`a tensor has 1 to 4 dimensions, got ${ne.length}`);
  const out = [1, 1, 1, 1];
  ne.forEach((n, i) => {
    if (!Number.isInteger(n) || n < 1) throw new TensorError(`ne[${i}] must be a positive integer, got ${n}`);
    out[i] = n;
  });
  return out as unknown as Dims4;
}

function freeze(t: TensorDesc): TensorDesc {
  return Object.freeze({ ...t, ne: Object.freeze([...t.ne]) as unknown as Dims4, nb: Object.freeze([...t.nb]) as unknown as Dims4 });
}

/** A new packed tensor, as ggml_new_tensor_4d lays it out. */
export function contiguous(type: DType, ne: readonly number[]): TensorDesc {
  const dims = checkDims(ne);
  const ts = typeSizeBytes[type];
  const nb: number[] = [ts, ts * dims[0], ts * dims[0] * dims[1], ts * dims[0] * dims[1] * dims[2]];
  return freeze({
    type,
    ne: dims,
    nb: nb as unknown as Dims4,
    offsetBytes: 0,
    bufferSizeBytes: ts * dims[0] * dims[1] * dims[2] * dims[3],
    layout: 'contiguous',
  });
}

/** ggml_view_4d: a view with its own ne, nb[1..3] and a byte offset; nb[0] is the type size. */
export function view(parent: TensorDesc, ne: readonly number[], nb123: readonly [number, number, number], offsetBytes: number, layout = 'view'): TensorDesc {
  const dims = checkDims(ne);
  const nb = [typeSizeBytes[parent.type], nb123[0], nb123[1], nb123[2]] as unknown as Dims4;
  const t = freeze({ type: parent.type, ne: dims, nb, offsetBytes: parent.offsetBytes + offsetBytes, bufferSizeBytes: parent.bufferSizeBytes, layout });
  if (t.offsetBytes < 0 || t.offsetBytes + spanBytes(t) > t.bufferSizeBytes) {
    throw new TensorError(`view ${dims.join('x')} at +${offsetBytes} B reaches past its ${parent.bufferSizeBytes} B buffer`);
  }
  return t;
}

/**
 * ggml_permute(a, axis0, axis1, axis2, axis3): source dimension i moves to position axis_i.
 * The result is a view (no copy); its rows are contiguous only if axis0 == 0.
 */
export function permute(t: TensorDesc, axes: readonly [number, number, number, number]): TensorDesc {
  const sorted = [...axes].sort();
  if (sorted.join() !== '0,1,2,3') throw new TensorError(`permute axes must be a permutation of 0..3, got ${axes.join(',')}`);
  const ne = [0, 0, 0, 0];
  const nb = [0, 0, 0, 0];
  axes.forEach((dst, src) => {
    ne[dst] = t.ne[src];
    nb[dst] = t.nb[src];
  });
  return freeze({ ...t, ne: ne as unknown as Dims4, nb: nb as unknown as Dims4, layout: `permute(${axes.join(',')})` });
}

/** ggml_transpose: swap the first two dimensions. */
export function transpose(t: TensorDesc): TensorDesc {
  return { ...permute(t, [1, 0, 2, 3]), layout: 'transpose' };
}

/**
 * Rows taken out of a wider packed tensor: each row has `ne[0]` elements but rows are
 * `rowStrideElements` apart (the view ggml makes when a graph slices a fused QKV tensor).
 */
export function stridedRows(type: DType, ne: readonly number[], rowStrideElements: number, offsetElements = 0): TensorDesc {
  const dims = checkDims(ne);
  if (rowStrideElements < dims[0]) throw new TensorError(`row stride ${rowStrideElements} is shorter than the row (${dims[0]})`);
  const parent = contiguous(type, [rowStrideElements, dims[1], dims[2], dims[3]]);
  const ts = typeSizeBytes[type];
  return view(parent, dims, [parent.nb[1], parent.nb[2], parent.nb[3]], offsetElements * ts, `rows-strided(${rowStrideElements})`);
}

export function nelements(t: TensorDesc): number {
  return t.ne[0] * t.ne[1] * t.ne[2] * t.ne[3];
}

export function nrows(t: TensorDesc): number {
  return t.ne[1] * t.ne[2] * t.ne[3];
}

/** Bytes from element [0,0,0,0] to one past the furthest element (the extent the tensor touches). */
export function spanBytes(t: TensorDesc): number {
  let last = 0;
  for (let d = 0; d < 4; d++) last += (t.ne[d] - 1) * Math.abs(t.nb[d]);
  return last + typeSizeBytes[t.type];
}

/** ggml_is_contiguous: packed in ggml order, no gaps. */
export function isContiguous(t: TensorDesc): boolean {
  let expect = typeSizeBytes[t.type];
  for (let d = 0; d < 4; d++) {
    if (t.ne[d] !== 1 && t.nb[d] !== expect) return false;
    expect *= t.ne[d];
  }
  return true;
}

/** Elements inside a row are adjacent (nb[0] == type size): what most ggml kernels need. */
export function rowsContiguous(t: TensorDesc): boolean {
  return t.nb[0] === typeSizeBytes[t.type] || t.ne[0] === 1;
}

/** ggml_is_transposed. */
export function isTransposed(t: TensorDesc): boolean {
  return t.nb[0] > t.nb[1];
}

/** ggml_are_same_shape. */
export function sameShape(a: TensorDesc, b: TensorDesc): boolean {
  return a.ne.every((n, i) => n === b.ne[i]);
}

/** ggml_can_repeat(b, a): b broadcasts over a when each of a's dims is a multiple of b's. */
export function canRepeat(b: TensorDesc, a: TensorDesc): boolean {
  return a.ne.every((n, i) => n % b.ne[i] === 0);
}

/** Strides in elements (nb / type size): what kernels index with. */
export function elementStrides(t: TensorDesc): number[] {
  const ts = typeSizeBytes[t.type];
  return t.nb.map((b) => b / ts);
}

export function byteOffsetOf(t: TensorDesc, i0: number, i1: number, i2: number, i3: number): number {
  return t.offsetBytes + i0 * t.nb[0] + i1 * t.nb[1] + i2 * t.nb[2] + i3 * t.nb[3];
}

/** Calls fn for every element in ggml order (i0 fastest) with its logical index and byte offset. */
export function forEachElement(t: TensorDesc, fn: (linear: number, byteOffset: number, i0: number, i1: number, i2: number, i3: number) => void): void {
  let linear = 0;
  for (let i3 = 0; i3 < t.ne[3]; i3++)
    for (let i2 = 0; i2 < t.ne[2]; i2++)
      for (let i1 = 0; i1 < t.ne[1]; i1++) {
        const rowBase = t.offsetBytes + i1 * t.nb[1] + i2 * t.nb[2] + i3 * t.nb[3];
        for (let i0 = 0; i0 < t.ne[0]; i0++) fn(linear++, rowBase + i0 * t.nb[0], i0, i1, i2, i3);
      }
}

/** "4096x512x1x1 f32 contiguous" — for labels and errors. */
export function describeTensor(t: TensorDesc): string {
  const ne = [...t.ne];
  while (ne.length > 1 && ne[ne.length - 1] === 1) ne.pop();
  return `${ne.join('x')} ${t.type}${t.layout === 'contiguous' ? '' : ' ' + t.layout}`;
}
