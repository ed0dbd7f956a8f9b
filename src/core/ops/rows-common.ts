// Shared pieces of the row ops (SOFT_MAX, SOFT_MAX_BACK, SUM_ROWS, REPEAT_BACK, ARGMAX,
// COUNT_EQUAL, the norms): dims padded to ggml's four, layout errors, and the views their
// layouts take.
import { contiguous, permute, stridedRows, type DType, type TensorDesc } from '../tensor';
import { OpCaseError, type MatrixEntry } from './types';

/** 1 to 4 dims padded with ones to ggml's ne[4]. */
export function dims4(op: string, dims: readonly number[], syntax: string): [number, number, number, number] {
  if (dims.length < 1 || dims.length > 4) throw new OpCaseError(`${op} takes 1 to 4 dims (${syntax}), got ${dims.length}`);
  const [a, b = 1, c = 1, d = 1] = dims;
  return [a, b, c, d];
}

export function layoutError(op: string, layout: string, layouts: readonly { name: string }[], why = ''): OpCaseError {
  return new OpCaseError(`${op} has no layout '${layout}'${why ? `: ${why}` : ''} (layouts: ${layouts.map((l) => l.name).join(', ')})`);
}

/** A view of shape ne whose rows sit in a wider packed tensor: ne0 + 3 elements apart, one element in. */
export function rowsStrided(ne: readonly number[], type: DType = 'f32'): TensorDesc {
  return stridedRows(type, ne, ne[0] + 3, 1);
}

/** permute(0,2,1,3) of a packed tensor: shape ne, rows contiguous, the ne1 and ne2 planes swapped. */
export function planesSwapped(ne: readonly number[], type: DType = 'f32'): TensorDesc {
  return permute(contiguous(type, [ne[0], ne[2], ne[1], ne[3]]), [0, 2, 1, 3]);
}

/** Matrix entries of one layout, one per shape: cases('inplace', [4096, 16], [4093, 7]). */
export function cases(layout: string, ...shapes: (readonly number[])[]): MatrixEntry[] {
  return shapes.map((dims) => ({ dims, layout }));
}

/** The two source views most row ops take (rowsStrided, planesSwapped of src0). */
export const SRC0_ROWS_STRIDED = Object.freeze({ name: 'src0-rows-strided', doc: 'src0 is a view whose rows sit in a wider packed tensor (odd row stride)' });
export const SRC0_PERMUTED = Object.freeze({ name: 'src0-permuted', doc: 'src0 is permute(0,2,1,3) of a packed tensor (rows contiguous, planes swapped)' });
