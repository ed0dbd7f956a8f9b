// The manifest's two kinds of "no": the manifest itself is wrong (ManifestError, a usage error
// naming the field), or it is well-formed but does not take this case here (ManifestRefusal,
// with a stable code; the unclaimed-* codes are the kernel's own declared refusals).
import { LabError } from '../errors';

export class ManifestError extends LabError {
  override name = 'ManifestError';
  constructor(
    /** Where in the manifest: 'kernels[0].uniforms[2].type', '' for the whole document. */
    readonly path: string,
    detail: string,
  ) {
    super(path ? `manifest ${path}: ${detail}` : `manifest: ${detail}`);
  }
}

export type RefusalCode =
  | 'unclaimed-op'
  | 'unclaimed-layout'
  | 'unclaimed-type'
  | 'unclaimed-param'
  | 'unclaimed-shape'
  | 'missing-feature'
  | 'dispatch-over-limits'
  | 'workgroup-over-limits'
  | 'buffer-over-limits'
  | 'bindings-over-limits';

/** Codes the manifest itself declares (its claims): the case is outside them, not a failure. */
export const DECLARED_REFUSALS: readonly RefusalCode[] = ['unclaimed-op', 'unclaimed-layout', 'unclaimed-type', 'unclaimed-param', 'unclaimed-shape'];

export class ManifestRefusal extends LabError {
  override name = 'ManifestRefusal';
  constructor(
    readonly code: RefusalCode,
    readonly reason: string,
  ) {
    super(`${code}: ${reason}`);
  }

  /** True for a case outside the kernel's claims; false for a limit or feature of the device. */
  get declared(): boolean {
    return DECLARED_REFUSALS.includes(this.code);
  }
}
