// A case of an op and the error that refuses one: a leaf module (tensor types only), so the
// schedule families can name the case they generate for without importing the op model.
import type { TensorDesc } from '../tensor';

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

export class OpCaseError extends Error {
  override name = 'OpCaseError';
}
