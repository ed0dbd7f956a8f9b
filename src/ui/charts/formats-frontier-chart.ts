// The accuracy/speed frontier, log–log: x = median µs (or weight GB/s), y = NMSE against the f32
// weights; one point per format, named beside it, the frontier's formats filled and joined by a
// line (fastest first), the others rings. Points and the frontier come from core
// (formats-frontier.ts); this only draws them.
import uPlot from 'uplot';
import type { Frontier } from '../../core/report/formats-frontier';
import { fmtGBps } from '../../core/report/format';
import { decadeAbove, decadeBelow, logScatter, type ScatterCanvas } from './log-scatter';
import { ACCENT, TONE_COLOR } from './palette';
import type { ChartPoint } from './point-layer';
import type { ChartOptions } from './UPlot';

export const FRONTIER_X_LABEL: Readonly<Record<Frontier['axis'], string>> = {
  time: 'median µs (lower is faster)',
  bandwidth: 'GB/s of the weights as stored (higher is faster)',
};

export function frontierChart(f: Frontier): { options: ChartOptions; data: uPlot.AlignedData } {
  const points: ChartPoint[] = f.points.map((p) => ({
    x: p.x,
    y: p.nmse,
    color: p.onFront ? ACCENT : TONE_COLOR.neutral,
    hollow: !p.onFront,
    label: `${p.format} · ${p.bitsPerWeight} bits/weight${p.onFront ? ' · on the frontier' : ''}\n${(p.medianNs / 1e3).toPrecision(3)} µs · ${fmtGBps(p.weightGBps)} · NMSE ${p.nmse.toExponential(2)}`,
  }));
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const x0 = decadeBelow((xs.length ? Math.min(...xs) : 1) / 1.5);
  const x1 = decadeAbove((xs.length ? Math.max(...xs) : 10) * 1.5);
  const y0 = decadeBelow((ys.length ? Math.min(...ys) : 1e-4) / 1.5);
  const y1 = decadeAbove((ys.length ? Math.max(...ys) : 1e-1) * 1.5);
  const byFormat = new Map(f.points.map((p) => [p.format, p]));

  const drawFront = ({ ctx, px, py }: ScatterCanvas) => {
    ctx.lineWidth = 1.5 * uPlot.pxRatio;
    ctx.strokeStyle = ACCENT;
    ctx.setLineDash([5 * uPlot.pxRatio, 4 * uPlot.pxRatio]);
    ctx.beginPath();
    f.front.forEach((name, i) => {
      const p = byFormat.get(name)!;
      if (i === 0) ctx.moveTo(px(p.x), py(p.nmse));
      else ctx.lineTo(px(p.x), py(p.nmse));
    });
    ctx.stroke();
    ctx.setLineDash([]);
    // Each point's name beside it.
    ctx.fillStyle = TONE_COLOR.neutral;
    ctx.font = `${11 * uPlot.pxRatio}px system-ui, sans-serif`;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'bottom';
    for (const p of f.points) ctx.fillText(p.format, px(p.x) + 7 * uPlot.pxRatio, py(p.nmse) - 3 * uPlot.pxRatio);
  };
  return logScatter({ x: [x0, x1], y: [y0, y1], xLabel: FRONTIER_X_LABEL[f.axis], yLabel: 'NMSE vs the f32 weights', points, draw: drawFront });
}
