// The graph run's loss per step as a line (steps 1..n).
import type uPlot from 'uplot';
import { GRID, TONE_COLOR } from './palette';
import type { ChartOptions } from './UPlot';

export function lossCurve(losses: readonly number[]): { options: ChartOptions; data: uPlot.AlignedData } {
  const steps = losses.map((_, i) => i + 1);
  const options: ChartOptions = {
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: false } },
    axes: [
      { label: 'step', grid: { show: false } },
      { label: 'loss', grid: { stroke: GRID }, size: 60 },
    ],
    series: [{}, { label: 'loss', stroke: TONE_COLOR.good, width: 2, points: { show: true, size: 5 } }],
  };
  return { options, data: [steps, [...losses]] };
}
