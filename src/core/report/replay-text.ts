// Replays and the sensitivity report as text for the CLI.
import { NATIVE_STABLE_SPREAD, SEEN_SHARE, sensitivityGroups, type PlantedRates, type ReplayShape, type SensitivityShape } from '../lane/replay';
import { fmtUs, textTable } from './format';

const pct = (x: number | null) => (x === null ? '—' : `${(100 * x).toFixed(1)}%`);

export function formatReplays(shapes: readonly ReplayShape[], replays: number): string {
  const rows = shapes.map((s) => [
    s.op,
    s.shape,
    Object.entries(s.counts)
      .map(([v, n]) => `${v} ${n}`)
      .join(', '),
    pct(s.flipRate),
    s.nativeStable === null ? '—' : `${s.nativeStable ? 'stable' : 'UNSTABLE'} (${pct(s.nativeSpread)})`,
  ]);
  const flips = shapes.filter((s) => s.flipRate > 0).length;
  const unstable = shapes.filter((s) => s.nativeStable === false).length;
  return [
    `replays: ${replays} lanes in one session — verdict counts per shape, the flip rate (replays off the most common verdict), and the native column across replays (stable: spread ≤ ${100 * NATIVE_STABLE_SPREAD}%)`,
    textTable(['op', 'shape', 'verdicts', 'flip rate', 'native column'], rows),
    `${shapes.length} shapes: ${flips} flipped at least once, ${unstable} with an unstable native column`,
  ].join('\n');
}

/** One planted factor on one shape: measured factor, detection and slower rates, or the refusal. */
function plantedCell(r: PlantedRates | undefined): string {
  if (!r) return '—';
  const refused = r.refused ? `refused ${r.refused}×${r.smallestFactor !== null ? ` (≥ ${r.smallestFactor}×)` : ''}` : '';
  if (!r.replays) return refused;
  return `${r.measuredFactor === null ? '—' : `${r.measuredFactor.toFixed(3)}×`} det ${pct(r.detected)} slower ${pct(r.slower)}${refused ? `; ${refused}` : ''}`;
}

export function formatSensitivity(shapes: readonly SensitivityShape[], replays: number, tolerance: number): string {
  const factors = [...new Set(shapes.flatMap((s) => Object.keys(s.planted)))].sort((a, b) => Number(a) - Number(b));
  const groups = sensitivityGroups(shapes);
  const out = [
    `sensitivity: ${replays} replays per control at tolerance ${tolerance} — per shape: A/A replays not parity (false detections; of them faster or slower: false verdicts), and per planted factor the factor Level 1 measured inside the kernel's dispatch (median over replays), the share of replays detecting it (verdict not parity) and judging it slower; the smallest factor detected in ≥ ${100 * SEEN_SHARE}% of replays. Grouped by the kernel's native median.`,
  ];
  for (const g of groups) {
    const rows = shapes
      .filter((s) => s.durationClass === g.durationClass)
      .map((s) => [s.op, s.shape, fmtUs(s.nativeMedianNs), `${s.aaDetected}/${s.aaReplays} (${s.aaFalse} false)`, ...factors.map((f) => plantedCell(s.planted[f])), s.smallestDetected === null ? 'none' : `${s.smallestDetected}×`]);
    out.push(
      '',
      `kernels ${g.durationClass} (${g.shapes} shapes)`,
      textTable(['op', 'shape', 'native µs', 'A/A detected', ...factors.map((f) => `planted ${f}×`), 'smallest detected'], rows),
      `  A/A: ${g.aaDetected} of ${g.aaReplays} shape-replays detected a difference, ${g.aaFalse} false verdicts; ${factors
        .filter((f) => g.planted[f])
        .map((f) => `${f}×: detected ${pct(g.planted[f].detected)}, slower ${pct(g.planted[f].slower)} of ${g.planted[f].replays}${g.planted[f].refused ? ` (${g.planted[f].refused} refused as controls)` : ''}`)
        .join('; ')}`,
    );
  }
  const unclassed = shapes.filter((s) => s.durationClass === null);
  if (unclassed.length) out.push('', `never timed: ${unclassed.map((s) => `${s.op} ${s.shape}`).join(', ')}`);
  return out.join('\n');
}
