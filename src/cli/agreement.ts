// The agreement check: the same kernel and shape must time the same in Level 1 and in the lane,
// whatever the order of the lane's shapes (the H200 once read one MUL_MAT 2.5× slow in a lane
// when it followed another shape, and a 1.97× kernel came out parity). Native and generated of
// each shape: Level 1 alone, then lanes over all shapes in order and reversed.
import type { LabApi } from '../core/lab-api';
import { fmtNs } from '../core/report/format';

export const AGREEMENT_SHAPES = {
  full: [
    [4096, 1, 4096],
    [4096, 8, 4096],
    [4096, 512, 4096],
    [4096, 4096, 4096],
  ],
  small: [
    [128, 8, 128],
    [128, 64, 128],
  ],
} as const;

/** Level 1 and lane medians within this of each other: they agree. */
export const AGREEMENT_TOLERANCE = 0.03;

export interface AgreementRow {
  readonly shape: string;
  readonly variant: 'native' | 'generated';
  readonly level1Ns: number | null;
  readonly laneForwardNs: number | null;
  readonly laneReverseNs: number | null;
  /** Largest |lane − Level 1| / Level 1 over both orders. */
  readonly worstDiff: number | null;
}

export async function runAgreement(lab: LabApi, size: 'full' | 'small', onLine: (s: string) => void = () => undefined): Promise<AgreementRow[]> {
  const shapes = AGREEMENT_SHAPES[size].map((d) => [...d]);
  const level1 = new Map<string, number | null>();
  for (const dims of shapes) {
    for (const variant of ['native', 'auto'] as const) {
      const r = await lab.time({ op: 'MUL_MAT', dims, variant: { kind: variant }, timing: { minRuns: 20 } });
      level1.set(`${r.shape} ${r.variant}`, r.timing?.medianNs ?? null);
      onLine(`agreement: Level 1 MUL_MAT ${r.shape} ${r.variant} ${fmtNs(r.timing?.medianNs ?? null)}`);
    }
  }
  const lane = async (order: number[][]) => {
    const r = await lab.lane({ shapes: order.map((dims) => ({ op: 'MUL_MAT', dims })), repeat: 5, prefer: ['MUL_MAT'] });
    const out = new Map<string, number | null>();
    for (const s of r.pairs.flatMap((p) => p.shapes)) {
      out.set(`${s.shape} native`, s.nativeMedianNs);
      out.set(`${s.shape} generated`, s.generatedMedianNs);
    }
    return out;
  };
  const forward = await lane(shapes);
  const reverse = await lane([...shapes].reverse());
  const rows: AgreementRow[] = [];
  for (const dims of shapes) {
    for (const variant of ['native', 'generated'] as const) {
      const key = `${dims.join('x')} ${variant}`;
      const l1 = level1.get(key) ?? null;
      const f = forward.get(key) ?? null;
      const b = reverse.get(key) ?? null;
      const diffs = [f, b].filter((x): x is number => x !== null && l1 !== null).map((x) => Math.abs(x - l1!) / l1!);
      rows.push({ shape: dims.join('x'), variant, level1Ns: l1, laneForwardNs: f, laneReverseNs: b, worstDiff: diffs.length ? Math.max(...diffs) : null });
    }
  }
  return rows;
}
