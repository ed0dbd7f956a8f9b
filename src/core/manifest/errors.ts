// The manifest's two kinds of "no": the manifest itself is wrong (ManifestError, a usage error
// naming the field), or it is well-formed but does not take this case here (ManifestRefusal,
// with a stable code; the unclaimed-* codes are the kernel's own declared refusals).
import { LabError } from '../errors';

export class ManifestError extends LabError {
  override name = 'ManifestError';
  /** Every problem found, this one first (one, unless `all` gathered several). */
  readonly problems: readonly ManifestError[];
  constructor(
    /** Where in the manifest: 'kernels[0].uniforms[2].type', '' for the whole document. */
    readonly path: string,
    detail: string,
    problems?: readonly ManifestError[],
  ) {
    super(path ? `manifest ${path}: ${detail}` : `manifest: ${detail}`);
    this.problems = problems ?? [this];
  }

  /** One error for all the problems found (each on its line), so a manifest is mended in one go. */
  static all(problems: readonly ManifestError[]): ManifestError {
    if (problems.length === 1) return problems[0];
    const first = problems[0];
    const detail = `${problems.length} problems:\n${problems.map((p, i) => `  ${i + 1}. ${p.message}`).join('\n')}`;
    return new ManifestError('', detail, problems.flatMap((p) => p.problems)).at(first.path);
  }

  private at(path: string): ManifestError {
    // The first problem's field stays the error's path (tests and the page point at it).
    Object.defineProperty(this, 'path', { value: path });
    return this;
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
