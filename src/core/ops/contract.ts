// Contract conditions every generated kernel shares: its buffers must fit one storage binding,
// and its element indices must fit the u32 arithmetic the WGSL does.
import type { AdapterDescriptor } from '../adapter';
import { deviceBufferSizeBytes } from '../hostdata';
import { nelements, typeSizeBytes } from '../tensor';
import type { OpCase, Rejection } from './types';

export const MAX_U32_INDEX_ELEMENTS = 2 ** 32 - 1;

export function commonRejection(c: OpCase, adapter: Pick<AdapterDescriptor, 'limits'>): Rejection | null {
  const tensors = [...c.srcs, c.dst];
  for (const t of tensors) {
    const bytes = deviceBufferSizeBytes(t.bufferSizeBytes);
    if (bytes > adapter.limits.maxStorageBufferBindingSize) {
      return { code: 'exceeds-binding-size', reason: `a ${bytes} B buffer exceeds maxStorageBufferBindingSize ${adapter.limits.maxStorageBufferBindingSize}` };
    }
  }
  for (const t of tensors) {
    if (nelements(t) > MAX_U32_INDEX_ELEMENTS || t.bufferSizeBytes / typeSizeBytes[t.type] > MAX_U32_INDEX_ELEMENTS) {
      return { code: 'index-overflow-u32', reason: `${nelements(t)} elements overflow the kernels' u32 indices` };
    }
  }
  return null;
}


/**
 * What no kernel can do with this case on this adapter, native included: a buffer over the
 * binding or buffer size, element indices past u32. Level 1, the lane, the page's Run button and
 * the CLI refuse such a case before any allocation or GPU work (the native kernel would only
 * fail later, after the inputs and the oracle were computed).
 */
export function limitRefusal(c: OpCase, adapter: Pick<AdapterDescriptor, 'limits'>): Rejection | null {
  const common = commonRejection(c, adapter);
  if (common) return common;
  for (const t of [...c.srcs, c.dst]) {
    const bytes = deviceBufferSizeBytes(t.bufferSizeBytes);
    if (bytes > adapter.limits.maxBufferSize) return { code: 'exceeds-buffer-size', reason: `a ${bytes} B buffer exceeds maxBufferSize ${adapter.limits.maxBufferSize}` };
  }
  return null;
}
