// Two lane runs side by side. A speedup never leaves its run (DESIGN.md): before two runs'
// speedups stand beside each other, the native column — the same native kernel on the same
// shape — must have stayed put between them; if it moved, the machine changed (clocks, load,
// driver) and the runs are not compared.
import { adapterFingerprint } from '../adapter';
import type { LaneJson } from './json';

type LaneShapeJson = LaneJson['pairs'][number]['shapes'][number];

export interface NativeCheck {
  readonly key: string;
  readonly nativeANs: number | null;
  readonly nativeBNs: number | null;
  /** (b − a) / a of the native medians; null when either side has none. */
  readonly change: number | null;
  readonly stable: boolean;
}

export interface CompareRow {
  /** "ADD 4096x512 inplace" */
  readonly key: string;
  readonly a: LaneShapeJson;
  readonly b: LaneShapeJson;
  readonly native: NativeCheck;
}

export type LaneComparison =
  | { readonly comparable: true; readonly tolerance: number; readonly rows: readonly CompareRow[]; readonly onlyInA: readonly string[]; readonly onlyInB: readonly string[] }
  | { readonly comparable: false; readonly reason: string; readonly tolerance: number; readonly checks: readonly NativeCheck[] };

function shapesByKey(r: LaneJson): Map<string, LaneShapeJson> {
  return new Map(r.pairs.flatMap((p) => p.shapes.map((s) => [`${p.op} ${s.shape}`, s] as const)));
}

function pct(x: number): string {
  return `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
}

/**
 * Compares run b with run a. Native medians may differ by at most the runs' tolerance (the
 * larger of the two) on every shape both timed; otherwise the comparison is refused, naming
 * the shapes whose native moved.
 */
export function compareLanes(a: LaneJson, b: LaneJson): LaneComparison {
  const tolerance = Math.max(a.settings.tolerance, b.settings.tolerance);
  if (adapterFingerprint(a.adapter) !== adapterFingerprint(b.adapter)) {
    return { comparable: false, tolerance, checks: [], reason: 'the runs are on different adapters: a speedup is only compared on the adapter it was measured on' };
  }
  const sa = shapesByKey(a);
  const sb = shapesByKey(b);
  const shared = [...sa.keys()].filter((k) => sb.has(k));
  if (!shared.length) return { comparable: false, tolerance, checks: [], reason: 'the runs share no (op, shape): there is nothing to compare' };
  const rows: CompareRow[] = shared.map((key) => {
    const x = sa.get(key)!;
    const y = sb.get(key)!;
    const change = x.nativeMedianNs && y.nativeMedianNs ? (y.nativeMedianNs - x.nativeMedianNs) / x.nativeMedianNs : null;
    return { key, a: x, b: y, native: { key, nativeANs: x.nativeMedianNs, nativeBNs: y.nativeMedianNs, change, stable: change === null || Math.abs(change) <= tolerance } };
  });
  const timed = rows.filter((r) => r.native.change !== null);
  if (!timed.length) return { comparable: false, tolerance, checks: rows.map((r) => r.native), reason: 'no shape has a native time in both runs: the native column cannot be checked' };
  const moved = rows.filter((r) => !r.native.stable);
  if (moved.length) {
    return {
      comparable: false,
      tolerance,
      checks: rows.map((r) => r.native),
      reason: `the native column moved beyond the ${(tolerance * 100).toFixed(0)}% tolerance on ${moved.length} of ${timed.length} shapes (${moved
        .slice(0, 3)
        .map((r) => `${r.key} ${pct(r.native.change!)}`)
        .join(', ')}${moved.length > 3 ? ', …' : ''}): the machine changed between the runs, so their speedups are not compared`,
    };
  }
  return { comparable: true, tolerance, rows, onlyInA: [...sa.keys()].filter((k) => !sb.has(k)), onlyInB: [...sb.keys()].filter((k) => !sa.has(k)) };
}
