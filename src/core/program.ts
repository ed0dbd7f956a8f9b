// What a session runs: one or more passes in order, with scratch buffers of their own. A
// native or generated kernel is a program of one pass; a user kernel's manifest may give
// several (a quantize pass then a GEMV, a reduction in two passes through scratch).
import type { BindingRole, KernelSpec } from './kernel';

export interface PassBinding {
  readonly binding: number;
  /** An op tensor's role, or 'scratch' with the program's buffer name. */
  readonly role: BindingRole | 'scratch';
  readonly buffer?: string;
  readonly access: 'read' | 'read_write' | 'uniform';
}

export interface PassSpec {
  readonly label: string;
  readonly wgsl: string;
  readonly entryPoint: string;
  readonly bindings: readonly PassBinding[];
  readonly dispatch: readonly [number, number, number];
  readonly uniforms?: Uint32Array;
  /** Pipeline-overridable constants. */
  readonly constants?: Readonly<Record<string, number>>;
  readonly features?: readonly string[];
  /** Dispatches per run (default 1). */
  readonly repeat?: number;
}

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

export function programOf(k: KernelSpec | KernelProgram): KernelProgram {
  return isProgram(k) ? k : { label: k.label, passes: [...(k.prelude ?? []), k], scratch: k.scratch ?? [], explicitLayout: false };
}
