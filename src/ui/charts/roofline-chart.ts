// The roofline, log–log: x = arithmetic intensity (flop per byte), y = GFLOP/s; the bandwidth
// slope (GB/s × AI) up to the ridge, the f32 compute ceiling after it, and each kernel measured
// in this session as a point. Memory-only kernels have no flops: the caller leaves them out.
import uPlot from 'uplot';
import { ridge, type Peaks } from '../../core/metrics/roofline';
import { fmtGBps, fmtGflops } from '../../core/report/format';
import type { MeasuredKernel } from '../session-results';
import { decadeAbove, decadeBelow, logScatter, type ScatterCanvas } from './log-scatter';
import { TONE_COLOR } from './palette';
import type { ChartPoint } from './point-layer';
import type { ChartOptions } from './UPlot';

export const SOURCE_COLOR: Readonly<Record<MeasuredKernel['source'], string>> = {
  level1: '#0b5cad',
  lane: '#8250df',
  sweep: '#bf8700',
};

export const SOURCE_TITLE: Readonly<Record<MeasuredKernel['source'], string>> = {
  level1: 'Level 1',
  lane: 'lane',
  sweep: 'sweep',
};

/** Kernels a roofline can place: flops and a positive intensity and rate. */
export function onRoofline(k: MeasuredKernel): boolean {
  const m = k.metrics;
  return m.gflops !== null && m.arithmeticIntensity !== null && m.gflops > 0 && m.arithmeticIntensity > 0;
}

export function rooflineChart(kernels: readonly MeasuredKernel[], peaks: Peaks): { options: ChartOptions; data: uPlot.AlignedData } {
  const placed = kernels.filter(onRoofline);
  const points: ChartPoint[] = placed.map((k) => ({
    x: k.metrics.arithmeticIntensity!,
    y: k.metrics.gflops!,
    color: SOURCE_COLOR[k.source],
    hollow: k.variant === 'native',
    label: `${SOURCE_TITLE[k.source]} · ${k.op} ${k.shape}\n${k.variant}\nAI ${k.metrics.arithmeticIntensity!.toFixed(2)} flop/B · ${fmtGflops(k.metrics.gflops)} · ${fmtGBps(k.metrics.gbps)}${k.metrics.bottleneck ? ` · ${k.metrics.bottleneck}` : ''}`,
  }));
  const ridgeAi = ridge(peaks);
  const bw = peaks.bandwidthGBps;
  const peak = peaks.f32Gflops;
  const xs = [...points.map((p) => p.x), ...(ridgeAi ? [ridgeAi] : [])];
  const ys = [...points.map((p) => p.y), ...(peak ? [peak] : [])];
  const x0 = decadeBelow((xs.length ? Math.min(...xs) : 1) / 2);
  const x1 = decadeAbove((xs.length ? Math.max(...xs) : 10) * 2);
  const yLow = Math.min(...(ys.length ? ys : [1]), ...(bw ? [bw * x0] : []));
  const y0 = decadeBelow(yLow / 2);
  // Headroom above the ceiling for its label.
  const y1 = decadeAbove((ys.length ? Math.max(...ys) : 10) * 3);

  const drawRoof = ({ ctx, px, py, left }: ScatterCanvas) => {
    if (!bw || !peak || !ridgeAi) return;
    ctx.lineWidth = 2 * uPlot.pxRatio;
    ctx.strokeStyle = TONE_COLOR.neutral;
    ctx.beginPath();
    ctx.moveTo(px(x0), py(bw * x0));
    ctx.lineTo(px(ridgeAi), py(peak));
    ctx.lineTo(px(x1), py(peak));
    ctx.stroke();
    // Labels above the roof, either side of the ridge: the slope's left, the ceiling's right.
    // (uPlot leaves its axis text alignment on the context: set ours.)
    const gap = 6 * uPlot.pxRatio;
    ctx.fillStyle = TONE_COLOR.neutral;
    ctx.font = `${11 * uPlot.pxRatio}px system-ui, sans-serif`;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'bottom';
    ctx.fillText(`f32 ceiling ${fmtGflops(peak)} · ridge ${ridgeAi.toFixed(2)} flop/B`, Math.max(px(ridgeAi), left) + gap, py(peak) - gap);
    ctx.textAlign = 'right';
    ctx.fillText(`bandwidth ${fmtGBps(bw)}`, px(ridgeAi) - gap, py(peak) - gap);
  };
  return logScatter({ x: [x0, x1], y: [y0, y1], xLabel: 'arithmetic intensity (flop / byte)', yLabel: 'GFLOP/s', points, draw: drawRoof });
}
