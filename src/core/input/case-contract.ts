// The index and binding contract of a case, checked before its inputs and oracle are built:
// every kernel (native or generated) indexes elements with u32 arithmetic and binds each tensor
// as one storage buffer, so a case past either limit can never run. Refusing it here costs
// nothing; refusing it after building inputs and the oracle once cost 35 s and 11.6 GB.
import type { AdapterDescriptor } from '../adapter';
import { UsageError } from '../errors';
import { deviceBufferSizeBytes } from '../hostdata';
import { MAX_U32_INDEX_ELEMENTS } from '../ops/contract';
import type { OpCase } from '../ops/types';
import { nelements, typeSizeBytes } from '../tensor';


/** The case cannot run on any kernel here: a usage error (the CLI exits 2) naming the tensor and the limit. */
export class ShapeContractError extends UsageError {
  override name = 'ShapeContractError';
}

function tensorNames(c: OpCase): { name: string; t: OpCase['dst'] }[] {
  return [...c.srcs.map((t, i) => ({ name: `src${i}`, t })), { name: 'dst', t: c.dst }];
}

/** Throws unless every tensor's elements fit u32 indices (no adapter needed). */
export function assertIndicesFit(c: OpCase): void {
  for (const { name, t } of tensorNames(c)) {
    const elements = nelements(t);
    const bufferElements = t.bufferSizeBytes / typeSizeBytes[t.type];
    if (elements > MAX_U32_INDEX_ELEMENTS || bufferElements > MAX_U32_INDEX_ELEMENTS) {
      throw new ShapeContractError(`${c.op} ${c.label}: ${name} spans ${Math.max(elements, bufferElements)} elements, past the ${MAX_U32_INDEX_ELEMENTS} a kernel's u32 indices reach: refused before building inputs`);
    }
  }
}

/** Throws unless the case fits u32 indices and each tensor's buffer fits one binding and one buffer on this adapter. */
export function assertCaseFits(c: OpCase, adapter: Pick<AdapterDescriptor, 'limits'>): void {
  assertIndicesFit(c);
  const { maxStorageBufferBindingSize, maxBufferSize } = adapter.limits;
  for (const { name, t } of tensorNames(c)) {
    const bytes = deviceBufferSizeBytes(t.bufferSizeBytes);
    const limit = Math.min(maxStorageBufferBindingSize, maxBufferSize ?? Infinity);
    if (bytes > limit) {
      const which = limit === maxStorageBufferBindingSize ? 'maxStorageBufferBindingSize' : 'maxBufferSize';
      throw new ShapeContractError(`${c.op} ${c.label}: ${name} needs a ${bytes} B buffer (guards included), over this adapter's ${which} of ${limit} B: refused before building inputs`);
    }
  }
}
