// The index and binding contract of a case — the one limit rule. Every kernel (native or
// generated) indexes elements with u32 arithmetic and binds each tensor as one storage buffer, so a
// case past either limit can never run. Refusing it before its inputs and oracle are built costs
// nothing; refusing it after once cost 35 s and 11.6 GB. The op contract's common rejection, the
// planner's refusal and the inputs' guard all read this rule's findings.
import type { AdapterDescriptor } from '../adapter';
import { UsageError } from '../errors';
import { deviceBufferSizeBytes } from '../hostdata';
import type { OpCase, Rejection } from '../ops/types';
import { nelements, typeSizeBytes } from '../tensor';

/** The most elements a kernel's u32 index arithmetic reaches. */
export const MAX_U32_INDEX_ELEMENTS = 2 ** 32 - 1;

/** The case cannot run on any kernel here: a usage error (the CLI exits 2) naming the tensor and the limit. */
export class ShapeContractError extends UsageError {
  override name = 'ShapeContractError';
}

export type LimitCode = 'exceeds-binding-size' | 'index-overflow-u32' | 'exceeds-buffer-size';

/** One limit a tensor of the case is past. */
export interface LimitFinding extends Rejection {
  readonly code: LimitCode;
  /** 'src0', 'src1'…, 'dst'. */
  readonly tensor: string;
  /** Elements (u32 rule) or device bytes, guards included (size rules). */
  readonly amount: number;
  readonly limit: number;
}

type Limits = Pick<AdapterDescriptor['limits'], 'maxStorageBufferBindingSize'> & { readonly maxBufferSize?: number };

function tensorNames(c: OpCase): { name: string; t: OpCase['dst'] }[] {
  return [...c.srcs.map((t, i) => ({ name: `src${i}`, t })), { name: 'dst', t: c.dst }];
}

/**
 * Every limit the case is past, in the order they are reported: a binding over
 * maxStorageBufferBindingSize (guards included), then element indices past u32, then a buffer over
 * maxBufferSize. Without limits only the u32 rule applies (it needs no adapter).
 */
export function limitFindings(c: OpCase, limits?: Limits): readonly LimitFinding[] {
  // Memoized per case and limits: the op contract, the planner and the inputs' guard ask the same case.
  const key = limits ? `${limits.maxStorageBufferBindingSize}/${limits.maxBufferSize}` : '-';
  let byLimits = memo.get(c);
  if (!byLimits) memo.set(c, (byLimits = new Map()));
  let found = byLimits.get(key);
  if (!found && !limits && byLimits.size) {
    // The u32 rule needs no adapter: any adapter's findings already hold its answer.
    found = Object.freeze(byLimits.values().next().value!.filter((f) => f.code === 'index-overflow-u32'));
    byLimits.set(key, found);
  }
  if (!found) byLimits.set(key, (found = Object.freeze(findings(c, limits))));
  return found;
}

const memo = new WeakMap<OpCase, Map<string, readonly LimitFinding[]>>();

/** How often the rule itself ran (not its memo): a test pins that one case is judged once. */
export const limitRuleRuns = { count: 0 };

function findings(c: OpCase, limits?: Limits): LimitFinding[] {
  limitRuleRuns.count++;
  const tensors = tensorNames(c);
  const out: LimitFinding[] = [];
  if (limits) {
    for (const { name, t } of tensors) {
      const bytes = deviceBufferSizeBytes(t.bufferSizeBytes);
      if (bytes > limits.maxStorageBufferBindingSize) out.push({ code: 'exceeds-binding-size', tensor: name, amount: bytes, limit: limits.maxStorageBufferBindingSize, reason: `a ${bytes} B buffer exceeds maxStorageBufferBindingSize ${limits.maxStorageBufferBindingSize}` });
    }
  }
  for (const { name, t } of tensors) {
    const elements = nelements(t);
    const bufferElements = t.bufferSizeBytes / typeSizeBytes[t.type];
    if (elements > MAX_U32_INDEX_ELEMENTS || bufferElements > MAX_U32_INDEX_ELEMENTS) {
      out.push({ code: 'index-overflow-u32', tensor: name, amount: Math.max(elements, bufferElements), limit: MAX_U32_INDEX_ELEMENTS, reason: `${Math.max(elements, bufferElements)} elements overflow the kernels' u32 indices` });
    }
  }
  if (limits?.maxBufferSize !== undefined) {
    for (const { name, t } of tensors) {
      const bytes = deviceBufferSizeBytes(t.bufferSizeBytes);
      if (bytes > limits.maxBufferSize) out.push({ code: 'exceeds-buffer-size', tensor: name, amount: bytes, limit: limits.maxBufferSize, reason: `a ${bytes} B buffer exceeds maxBufferSize ${limits.maxBufferSize}` });
    }
  }
  return out;
}

/** Throws unless every tensor's elements fit u32 indices (no adapter needed). */
export function assertIndicesFit(c: OpCase): void {
  const f = limitFindings(c)[0];
  if (f) throw new ShapeContractError(`${c.op} ${c.label}: ${f.tensor} spans ${f.amount} elements, past the ${f.limit} a kernel's u32 indices reach: refused before building inputs`);
}

/** The first limit the case is past on this adapter (any kernel, native included), or null. */
export function limitRefusal(c: OpCase, adapter: { readonly limits: Limits }): LimitFinding | null {
  return limitFindings(c, adapter.limits)[0] ?? null;
}
