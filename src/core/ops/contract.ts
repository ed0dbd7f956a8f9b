// Contract conditions every generated kernel shares: its buffers must fit one storage binding,
// and its element indices must fit the u32 arithmetic the WGSL does. The rule itself is
// src/core/input/case-contract.ts (one rule for the contract, the planner and the inputs).
import type { AdapterDescriptor } from '../adapter';
import { limitFindings } from '../input/case-contract';
import type { OpCase, Rejection } from './types';

export { limitRefusal, MAX_U32_INDEX_ELEMENTS } from '../input/case-contract';

/** The binding and u32 findings (not maxBufferSize: a generated kernel's own contract). */
export function commonRejection(c: OpCase, adapter: Pick<AdapterDescriptor, 'limits'>): Rejection | null {
  const f = limitFindings(c, adapter.limits).find((x) => x.code !== 'exceeds-buffer-size');
  return f ? { code: f.code, reason: f.reason } : null;
}
