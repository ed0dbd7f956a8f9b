// The frame of a log–log scatter (the roofline, the formats frontier): both scales log over fixed
// ranges, no legend or cursor crosshair, points drawn by the point layer, and the caller's own
// drawing (a roof, a frontier line) on top. One invisible series carries the x range.
import uPlot from 'uplot';
import { GRID_LOG } from './palette';
import { pointLayer, type ChartPoint } from './point-layer';
import type { ChartOptions } from './UPlot';

/** uPlot hands log axes null splits where it skips a label. */
export const logValues = (_u: uPlot, splits: (number | null)[]) => splits.map((v) => (v === null ? '' : v >= 1e4 || v < 1e-2 ? v.toExponential(0) : String(v)));

/** The power of ten at or below v: a log axis's lower end. */
export function decadeBelow(v: number): number {
  return 10 ** Math.floor(Math.log10(v));
}

/** The power of ten at or above v: a log axis's upper end. */
export function decadeAbove(v: number): number {
  return 10 ** Math.ceil(Math.log10(v));
}

/** What the caller's drawing gets: the canvas context (clipped to the plot, restored after), value → canvas px, the plot's left edge. */
export interface ScatterCanvas {
  readonly ctx: CanvasRenderingContext2D;
  readonly px: (x: number) => number;
  readonly py: (y: number) => number;
  readonly left: number;
}

export interface LogScatter {
  readonly x: readonly [number, number];
  readonly y: readonly [number, number];
  readonly xLabel: string;
  readonly yLabel: string;
  readonly points: readonly ChartPoint[];
  /** Drawn after the axes (uPlot's drawAxes hook): under the points. */
  readonly draw: (c: ScatterCanvas) => void;
}

/** Runs `draw` on the plot area, clipped, with the context saved and restored around it. */
function clippedDraw(draw: (c: ScatterCanvas) => void): (u: uPlot) => void {
  return (u) => {
    const ctx = u.ctx;
    const { left, top, width, height } = u.bbox;
    ctx.save();
    ctx.beginPath();
    ctx.rect(left, top, width, height);
    ctx.clip();
    // uPlot leaves its axis text alignment and dashes on the context: a drawing sets its own.
    ctx.setLineDash([]);
    draw({ ctx, px: (x) => u.valToPos(x, 'x', true), py: (y) => u.valToPos(y, 'y', true), left });
    ctx.restore();
  };
}

export function logScatter(s: LogScatter): { options: ChartOptions; data: uPlot.AlignedData } {
  const [x0, x1] = s.x;
  const [y0, y1] = s.y;
  const options: ChartOptions = {
    legend: { show: false },
    cursor: { x: false, y: false, drag: { x: false, y: false }, points: { show: false } },
    scales: {
      x: { time: false, distr: 3, range: () => [x0, x1] },
      y: { distr: 3, range: () => [y0, y1] },
    },
    axes: [
      { label: s.xLabel, values: logValues, grid: { stroke: GRID_LOG } },
      { label: s.yLabel, values: logValues, grid: { stroke: GRID_LOG }, size: 60 },
    ],
    series: [{}, { label: s.yLabel, paths: () => null, points: { show: false } }],
    hooks: { drawAxes: [clippedDraw(s.draw)] },
    plugins: [pointLayer(s.points)],
  };
  return { options, data: [[x0, x1], [null, null]] };
}
