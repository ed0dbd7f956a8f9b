// The census's bytes per op as bars (read + written, MiB), ops in the census's rank order;
// the bar's colour says whether the lab has the op.
import uPlot from 'uplot';
import type { CensusRow, LabHas } from '../../core/census/census';
import { GRID, TONE_COLOR } from './palette';
import type { ChartOptions } from './UPlot';

const LAB_COLOR: Readonly<Record<LabHas, string>> = { generated: TONE_COLOR.good, 'native-only': TONE_COLOR.neutral, none: TONE_COLOR.grey };
const MIB = 2 ** 20;

export function censusBars(rows: readonly CensusRow[]): { options: ChartOptions; data: uPlot.AlignedData } {
  const xs = rows.map((_, i) => i);
  const mib = rows.map((r) => (r.bytesRead + r.bytesWritten) / MIB);
  const drawBars = (u: uPlot) => {
    const ctx = u.ctx;
    const half = Math.max(1, (u.bbox.width / Math.max(1, rows.length)) * 0.35);
    const y0 = u.valToPos(0, 'y', true);
    ctx.save();
    rows.forEach((r, i) => {
      const x = u.valToPos(i, 'x', true);
      const y = u.valToPos(mib[i], 'y', true);
      ctx.fillStyle = LAB_COLOR[r.lab];
      ctx.fillRect(x - half, y, 2 * half, y0 - y);
    });
    ctx.restore();
  };
  const options: ChartOptions = {
    legend: { show: false },
    cursor: { x: false, y: false, drag: { x: false, y: false }, points: { show: false } },
    scales: { x: { time: false, range: () => [-0.5, Math.max(0.5, rows.length - 0.5)] }, y: { range: () => [0, Math.max(1e-6, ...mib) * 1.05] } },
    axes: [
      { label: 'op', splits: () => xs, values: (_u, splits) => splits.map((i) => rows[i]?.op ?? ''), rotate: -45, size: 120, grid: { show: false } },
      { label: 'MiB read + written', grid: { stroke: GRID }, size: 70 },
    ],
    series: [{}, { label: 'MiB', paths: () => null, points: { show: false } }],
    hooks: { draw: [drawBars] },
  };
  return { options, data: [xs, mib] };
}
