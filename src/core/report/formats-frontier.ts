// The accuracy/speed frontier of a formats run: each format that has both a time and a
// quantization error is a point (time or weight GB/s against NMSE, both on log scales); a format
// is on the frontier when no other is at least as fast and at least as accurate, and strictly
// better in one. The frontier is always by time (speed), whichever x the chart shows. Formats
// that cannot be placed are listed with why. Pure: the page's chart draws what this returns.
import type { FormatRow } from './formats';

export type FrontierAxis = 'time' | 'bandwidth';

export interface FrontierPoint {
  readonly format: string;
  /** µs (axis 'time') or GB/s of the weights as stored (axis 'bandwidth'). */
  readonly x: number;
  readonly medianNs: number;
  readonly weightGBps: number;
  readonly nmse: number;
  readonly bitsPerWeight: number;
  readonly onFront: boolean;
}

export interface Frontier {
  readonly axis: FrontierAxis;
  /** In the rows' order (fastest first). */
  readonly points: readonly FrontierPoint[];
  /** The frontier's formats, fastest first: the line the chart draws. */
  readonly front: readonly string[];
  /** Rows with no place on a log–log chart, and why. */
  readonly unplaced: readonly { readonly format: string; readonly why: string }[];
}

function whyUnplaced(r: FormatRow): string | null {
  if (r.medianNs === null || r.weightGBps === null) return r.reason ?? 'no time';
  if (r.nmse === null) return 'no quantization error (the f32/f16 reference, or a format the lab cannot encode)';
  if (!(r.nmse > 0)) return 'NMSE 0: exact on these weights, below any log scale';
  if (!(r.medianNs > 0)) return 'a zero time';
  return null;
}

export function formatsFrontier(rows: readonly FormatRow[], axis: FrontierAxis): Frontier {
  const unplaced: { format: string; why: string }[] = [];
  const placed: FormatRow[] = [];
  for (const r of rows) {
    const why = whyUnplaced(r);
    if (why === null) placed.push(r);
    else unplaced.push({ format: r.format, why });
  }
  const dominated = (a: FormatRow) => placed.some((b) => b !== a && b.medianNs! <= a.medianNs! && b.nmse! <= a.nmse! && (b.medianNs! < a.medianNs! || b.nmse! < a.nmse!));
  const points = placed.map(
    (r): FrontierPoint => ({
      format: r.format,
      x: axis === 'time' ? r.medianNs! / 1e3 : r.weightGBps!,
      medianNs: r.medianNs!,
      weightGBps: r.weightGBps!,
      nmse: r.nmse!,
      bitsPerWeight: r.bitsPerWeight,
      onFront: !dominated(r),
    }),
  );
  const front = points
    .filter((p) => p.onFront)
    .sort((a, b) => a.medianNs - b.medianNs)
    .map((p) => p.format);
  return { axis, points, front, unplaced };
}
