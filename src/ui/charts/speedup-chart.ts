// The lane's speedup per shape: a point at the median (t_native / t_generated) with min–max
// whiskers, a line at 1 (parity) and the tolerance band [1 − tol, 1] a median may sit in
// without being a regression. Shapes without timings (fallbacks, wrong) have no point.
import uPlot from 'uplot';
import type { LaneShape } from '../../core/results';
import { verdictTone } from '../views/lane/verdict-tone';
import { BAND_FILL, GRID, TONE_COLOR } from './palette';
import { pointLayer } from './point-layer';
import type { ChartOptions } from './UPlot';

const WHISKER_CAP_CSS_PX = 6;
/** Width of one character of an axis label (uPlot's 12 px system font), CSS px, generously. */
const X_LABEL_CHAR_PX = 7;

type SpeedupShape = Pick<LaneShape, 'shape' | 'speedupMedian' | 'speedupMin' | 'speedupMax' | 'verdict'>;

/** y from the smallest to the largest of the whiskers, 1 and the band, with a margin. */
/** Shades the band [1 − tolerance, 1] a lane median may sit in; `parityLine`: parity (1×) dashed across it. */
export function parityBand(tolerance: number, parityLine: boolean): (u: uPlot) => void {
  return (u) => {
    const ctx = u.ctx;
    const { left, width } = u.bbox;
    const y1 = u.valToPos(1, 'y', true);
    const yTol = u.valToPos(1 - tolerance, 'y', true);
    ctx.save();
    ctx.fillStyle = BAND_FILL;
    ctx.fillRect(left, y1, width, yTol - y1);
    if (parityLine) {
      ctx.strokeStyle = TONE_COLOR.neutral;
      ctx.lineWidth = uPlot.pxRatio;
      ctx.setLineDash([4 * uPlot.pxRatio, 3 * uPlot.pxRatio]);
      ctx.beginPath();
      ctx.moveTo(left, y1);
      ctx.lineTo(left + width, y1);
      ctx.stroke();
    }
    ctx.restore();
  };
}

export function speedupRange(shapes: readonly SpeedupShape[], tolerance: number): [number, number] {
  const ys = [1, 1 - tolerance, ...shapes.flatMap((s) => [s.speedupMin, s.speedupMax].filter((v): v is number => v !== null))];
  const lo = Math.min(...ys);
  const hi = Math.max(...ys);
  const pad = Math.max(0.05, (hi - lo) * 0.1);
  return [Math.max(0, lo - pad), hi + pad];
}

export function speedupChart(shapes: readonly SpeedupShape[], tolerance: number): { options: ChartOptions; data: uPlot.AlignedData } {
  const xs = shapes.map((_, i) => i);
  const [yMin, yMax] = speedupRange(shapes, tolerance);
  const timed = shapes.flatMap((s, i) =>
    s.speedupMedian === null
      ? []
      : [
          {
            x: i,
            y: s.speedupMedian,
            color: TONE_COLOR[verdictTone(s.verdict)],
            label: `${s.shape}: ${s.verdict}\nspeedup median ${s.speedupMedian.toFixed(3)}× [${s.speedupMin!.toFixed(3)}–${s.speedupMax!.toFixed(3)}]`,
          },
        ],
  );
  const drawWhiskers = (u: uPlot) => {
    const ctx = u.ctx;
    const cap = WHISKER_CAP_CSS_PX * uPlot.pxRatio;
    ctx.save();
    ctx.lineWidth = 1.5 * uPlot.pxRatio;
    shapes.forEach((s, i) => {
      if (s.speedupMin === null || s.speedupMax === null) return;
      const x = u.valToPos(i, 'x', true);
      const lo = u.valToPos(s.speedupMin, 'y', true);
      const hi = u.valToPos(s.speedupMax, 'y', true);
      ctx.strokeStyle = TONE_COLOR[verdictTone(s.verdict)];
      ctx.beginPath();
      ctx.moveTo(x, lo);
      ctx.lineTo(x, hi);
      ctx.moveTo(x - cap, lo);
      ctx.lineTo(x + cap, lo);
      ctx.moveTo(x - cap, hi);
      ctx.lineTo(x + cap, hi);
      ctx.stroke();
    });
    ctx.restore();
  };
  // Long or many labels stand vertical, with room for the longest: slanted ones ran off the
  // canvas to the left and were cut off under the axis.
  const longest = Math.max(0, ...shapes.map((s) => s.shape.length));
  const vertical = shapes.length > 5 || longest > 10;
  const xAxisPx = vertical ? Math.min(240, 24 + Math.ceil(longest * X_LABEL_CHAR_PX)) : 40;
  const options: ChartOptions = {
    legend: { show: false },
    cursor: { x: false, y: false, drag: { x: false, y: false }, points: { show: false } },
    scales: {
      x: { time: false, range: () => [-0.5, Math.max(0.5, shapes.length - 0.5)] },
      y: { range: () => [yMin, yMax] },
    },
    axes: [
      {
        label: 'shape',
        splits: () => xs,
        values: (_u, splits) => splits.map((i) => shapes[i]?.shape ?? ''),
        rotate: vertical ? -90 : 0,
        size: xAxisPx,
        grid: { show: false },
      },
      { label: 'speedup', values: (_u, splits) => splits.map((v) => `${v.toFixed(2)}×`), grid: { stroke: GRID }, size: 60 },
    ],
    // One invisible series carries the x values; points and whiskers are drawn by hand.
    series: [{}, { label: 'speedup median', paths: () => null, points: { show: false } }],
    hooks: { drawAxes: [parityBand(tolerance, true)], draw: [drawWhiskers] },
    plugins: [pointLayer(timed)],
  };
  return { options, data: [xs, shapes.map((s) => s.speedupMedian)] };
}
