// For op tests: a tensor's packed buffer holding hand-written values at its elements.
import { writeElement } from '../hostdata';
import { forEachElement, type TensorDesc } from '../tensor';

/** `values` (ggml order) at the tensor's elements, `fill` in every other slot (a view's gaps). */
export function bufferFor(t: TensorDesc, values: readonly number[], fill = 100): ArrayBuffer {
  const buf = new ArrayBuffer(t.bufferSizeBytes);
  const view = new DataView(buf);
  const slots = t.bufferSizeBytes / (t.type === 'f16' ? 2 : 4);
  for (let i = 0; i < slots; i++) writeElement(view, t.type, i * (t.type === 'f16' ? 2 : 4), fill);
  forEachElement(t, (i, off) => writeElement(view, t.type, off, values[i]));
  return buf;
}
