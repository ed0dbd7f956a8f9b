// Test support: a tensor's packed buffer with given values at its elements (ggml order) and a
// marker everywhere else, so an oracle or kernel reading a gap shows up.
import { writeElement } from '../hostdata';
import { forEachElement, typeSizeBytes, type TensorDesc } from '../tensor';

export function bufferFor(t: TensorDesc, values: readonly number[], fill = 100): ArrayBuffer {
  const buf = new ArrayBuffer(t.bufferSizeBytes);
  const view = new DataView(buf);
  const step = typeSizeBytes[t.type];
  for (let off = 0; off + step <= buf.byteLength; off += step) writeElement(view, t.type, off, fill);
  forEachElement(t, (i, off) => writeElement(view, t.type, off, values[i]));
  return buf;
}
