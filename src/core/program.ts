// What a session runs: one or more passes in order, with scratch buffers of their own. A
// native or generated kernel is a program of one pass; a user kernel's manifest may give
// several (a quantize pass then a GEMV, a reduction in two passes through scratch).
import type { KernelSpec, PassSpec } from './kernel';

export type { PassBinding, PassSpec } from './kernel';

export interface KernelProgram {
  readonly label: string;
  /** Run in order within one run (one compute pass: WebGPU orders the dispatches' writes). */
  readonly passes: readonly PassSpec[];
  /** Zero-filled before every run. */
  readonly scratch: readonly { readonly name: string; readonly sizeBytes: number }[];
  /**
   * Bind group layouts from the bindings (not 'auto'): a binding the WGSL declares but the
   * entry point leaves unused is still bound, as a user's manifest lists it.
   */
  readonly explicitLayout: boolean;
}

export function isProgram(k: KernelSpec | KernelProgram): k is KernelProgram {
  return 'passes' in k;
}

/** Every device feature a kernel's passes need (what its %FLOP is held to depends on them). */
export function kernelFeatures(k: KernelSpec | KernelProgram): { readonly features: readonly string[] } {
  return { features: isProgram(k) ? [...new Set(k.passes.flatMap((p) => p.features ?? []))] : (k.features ?? []) };
}

export function programOf(k: KernelSpec | KernelProgram): KernelProgram {
  return isProgram(k) ? k : { label: k.label, passes: [...(k.prelude ?? []), k], scratch: k.scratch ?? [], explicitLayout: false };
}
