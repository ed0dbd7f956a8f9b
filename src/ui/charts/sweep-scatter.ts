// The sweep's candidates on one shape: x = median µs, y = gain over the reference; accepted
// candidates coloured, refused ones grey rings, each point's key, status and reason on hover.
// A dashed vertical line marks the reference's median, a solid one gain 0.
import uPlot from 'uplot';
import type { SweepRecord } from '../../core/schema/results';
import { ACCENT, GRID, TONE_COLOR } from './palette';
import { pointLayer, type ChartPoint } from './point-layer';
import type { ChartOptions } from './UPlot';

export function sweepPoints(r: SweepRecord, shape: string): ChartPoint[] {
  return r.candidates.flatMap((c) => {
    const cell = c.shapes.find((s) => s.shape === shape);
    if (!cell || cell.medianNs === null || cell.gain === null) return [];
    const accepted = c.status === 'accepted';
    return [
      {
        x: cell.medianNs / 1e3,
        y: cell.gain * 100,
        color: accepted ? ACCENT : TONE_COLOR.grey,
        hollow: !accepted,
        label: `${c.key}\n${c.status}: ${c.reason}\n${shape}: ${(cell.medianNs / 1e3).toFixed(2)} µs, gain ${cell.gain >= 0 ? '+' : ''}${(cell.gain * 100).toFixed(1)}% (${cell.outcome ?? '—'})`,
      },
    ];
  });
}

function padded(lo: number, hi: number, frac: number, minPad: number): [number, number] {
  const pad = Math.max(minPad, (hi - lo) * frac);
  return [lo - pad, hi + pad];
}

export function sweepScatter(r: SweepRecord, shape: string): { options: ChartOptions; data: uPlot.AlignedData; points: number } {
  const points = sweepPoints(r, shape);
  const refUs = (r.reference.find((x) => x.shape === shape)?.medianNs ?? NaN) / 1e3;
  const xs = [...points.map((p) => p.x), ...(Number.isFinite(refUs) ? [refUs] : [])];
  const ys = [0, ...points.map((p) => p.y)];
  const xLo = xs.length ? Math.min(...xs) : 0;
  const xHi = xs.length ? Math.max(...xs) : 1;
  const [x0, x1] = padded(xLo, xHi, 0.08, Math.max(xHi * 0.05, 1e-3));
  const [y0, y1] = padded(Math.min(...ys), Math.max(...ys), 0.1, 2);
  const drawGuides = (u: uPlot) => {
    const ctx = u.ctx;
    const { left, top, width, height } = u.bbox;
    ctx.save();
    ctx.lineWidth = uPlot.pxRatio;
    ctx.strokeStyle = TONE_COLOR.neutral;
    const yZero = u.valToPos(0, 'y', true);
    ctx.beginPath();
    ctx.moveTo(left, yZero);
    ctx.lineTo(left + width, yZero);
    ctx.stroke();
    if (Number.isFinite(refUs)) {
      const xRef = u.valToPos(refUs, 'x', true);
      ctx.setLineDash([4 * uPlot.pxRatio, 3 * uPlot.pxRatio]);
      ctx.beginPath();
      ctx.moveTo(xRef, top);
      ctx.lineTo(xRef, top + height);
      ctx.stroke();
    }
    ctx.restore();
  };
  const options: ChartOptions = {
    legend: { show: false },
    cursor: { x: false, y: false, drag: { x: false, y: false }, points: { show: false } },
    scales: { x: { time: false, range: () => [Math.max(0, x0), x1] }, y: { range: () => [y0, y1] } },
    axes: [
      { label: `median µs on ${shape}`, grid: { stroke: GRID } },
      { label: 'gain over the reference', values: (_u, splits) => splits.map((v) => `${v > 0 ? '+' : ''}${v.toFixed(0)}%`), grid: { stroke: GRID }, size: 60 },
    ],
    // One invisible series carries the x range; the points are drawn by the point layer.
    series: [{}, { label: 'gain', paths: () => null, points: { show: false } }],
    hooks: { drawAxes: [drawGuides] },
    plugins: [pointLayer(points)],
  };
  return { options, data: [[Math.max(0, x0), x1], [null, null]], points: points.length };
}
