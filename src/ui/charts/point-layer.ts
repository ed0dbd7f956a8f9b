// Points drawn on a uPlot canvas, each with its own colour and hover label: scatter plots and
// roofline points, where several points may share an x (aligned series cannot hold those).
import uPlot from 'uplot';

export interface ChartPoint {
  readonly x: number;
  readonly y: number;
  readonly color: string;
  /** Shown in the tooltip when the cursor is near; lines separated by '\n'. */
  readonly label: string;
  /** Drawn as a ring (e.g. refused candidates), so filled points stay readable on top. */
  readonly hollow?: boolean;
}

const RADIUS_CSS_PX = 5;
/** How near (CSS px) the cursor must be for a point's label to show. */
const HOVER_CSS_PX = 12;

/** Draws `points` over the plot area and shows the nearest one's label beside the cursor. */
export function pointLayer(points: readonly ChartPoint[]): uPlot.Plugin {
  let tooltip: HTMLDivElement | null = null;
  const cssPos = (u: uPlot, p: ChartPoint) => [u.valToPos(p.x, 'x'), u.valToPos(p.y, 'y')] as const;
  return {
    hooks: {
      ready: (u) => {
        tooltip = document.createElement('div');
        tooltip.className = 'chart-tooltip';
        tooltip.dataset.testid = 'chart-tooltip'; // → data-testid
        tooltip.style.display = 'none';
        u.over.appendChild(tooltip);
      },
      draw: (u) => {
        const ctx = u.ctx;
        const r = RADIUS_CSS_PX * uPlot.pxRatio;
        ctx.save();
        ctx.beginPath();
        ctx.rect(u.bbox.left, u.bbox.top, u.bbox.width, u.bbox.height);
        ctx.clip();
        // Hollow (refused) first, so accepted points are drawn over them.
        const ordered = [...points].sort((a, b) => Number(!!b.hollow) - Number(!!a.hollow));
        for (const p of ordered) {
          const cx = u.valToPos(p.x, 'x', true);
          const cy = u.valToPos(p.y, 'y', true);
          ctx.beginPath();
          ctx.arc(cx, cy, r, 0, 2 * Math.PI);
          ctx.lineWidth = 1.5 * uPlot.pxRatio;
          ctx.strokeStyle = p.color;
          if (!p.hollow) {
            ctx.fillStyle = p.color;
            ctx.fill();
          }
          ctx.stroke();
        }
        ctx.restore();
        // Where each point sits in the overlay (CSS px): lets a test hover a point by its position.
        u.over.dataset.pointsCss = JSON.stringify(points.map((p) => cssPos(u, p).map((v) => Math.round(v))));
      },
      setCursor: (u) => {
        if (!tooltip) return;
        const { left, top } = u.cursor;
        if (left === undefined || top === undefined || left < 0 || top < 0) {
          tooltip.style.display = 'none';
          return;
        }
        let best: ChartPoint | null = null;
        let bestDist = HOVER_CSS_PX;
        for (const p of points) {
          const [px, py] = cssPos(u, p);
          const d = Math.hypot(px - left, py - top);
          if (d <= bestDist) {
            best = p;
            bestDist = d;
          }
        }
        if (!best) {
          tooltip.style.display = 'none';
          return;
        }
        tooltip.textContent = best.label;
        tooltip.style.display = 'block';
        // Beside the cursor, flipped to the left in the right half so it stays inside the plot.
        const flip = left > u.over.clientWidth / 2;
        tooltip.style.left = flip ? '' : `${left + 12}px`;
        tooltip.style.right = flip ? `${u.over.clientWidth - left + 12}px` : '';
        tooltip.style.top = `${top + 12}px`;
      },
    },
  };
}
