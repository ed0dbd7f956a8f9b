// The JSON results the CLI writes and share links carry: plain, versioned, no WGSL text.
import type { Level1Result } from '../../gpu/level1';

export const RESULT_SCHEMA_VERSION = 1;

export function level1Json(r: Level1Result) {
  return {
    kind: 'level1' as const,
    schemaVersion: RESULT_SCHEMA_VERSION,
    op: r.op,
    shape: r.shape,
    layout: r.layout,
    variant: r.variant,
    scheduleKey: r.scheduleKey,
    schedule: r.schedule,
    fallback: r.fallback,
    correct: r.correct,
    maxErr: r.maxErr,
    bound: r.bound,
    correctness: {
      worstRatio: r.correctness.worstRatio,
      elements: r.correctness.elements,
      outOfBound: r.correctness.outOfBound,
      nonFinite: r.correctness.nonFinite,
      guardViolations: r.correctness.guardViolations,
      failures: r.correctness.failures,
    },
    timing: r.timing && {
      runs: r.timing.runs,
      minNs: r.timing.minNs,
      medianNs: r.timing.medianNs,
      maxNs: r.timing.maxNs,
      resolutionNs: r.timing.resolutionNs,
      method: r.timing.method,
      spanShort: r.timing.spanShort,
      note: r.timing.note,
    },
    flops: r.flops,
    readBytes: r.readBytes,
    writeBytes: r.writeBytes,
    dispatch: r.dispatch,
    adapter: r.adapter,
    startedAt: r.startedAt,
  };
}
