// Test helpers for the row ops: a tensor's packed buffer with given values at its elements.
import { writeElement } from '../hostdata';
import { forEachElement, type TensorDesc } from '../tensor';

/** A tensor's packed buffer with `values` (ggml order) at its elements and `fill` in every gap. */
export function bufferFor(t: TensorDesc, values: readonly number[], fill = 100): ArrayBuffer {
  const buf = new ArrayBuffer(t.bufferSizeBytes);
  const view = new DataView(buf);
  const size = t.type === 'f16' ? 2 : 4;
  for (let off = 0; off + size <= buf.byteLength; off += size) writeElement(view, t.type, off, fill);
  forEachElement(t, (i, off) => writeElement(view, t.type, off, values[i]));
  return buf;
}
