// A uPlot chart as a Solid component: built when mounted, rebuilt when its options or data
// change, resized with its container, destroyed with the view.
import { createEffect, onCleanup, onMount } from 'solid-js';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export type ChartOptions = Omit<uPlot.Options, 'width' | 'height'>;

/** Narrower than this and axis labels collide; the container scrolls instead. */
const MIN_WIDTH_PX = 320;

export function UPlot(props: { options: ChartOptions; data: uPlot.AlignedData; heightPx: number; testid?: string; label: string }) {
  let el!: HTMLDivElement;
  let chart: uPlot | null = null;
  const widthPx = () => Math.max(MIN_WIDTH_PX, el.clientWidth);
  onMount(() => {
    createEffect(() => {
      const options = props.options;
      const data = props.data;
      chart?.destroy();
      // uPlot adds plugin hooks into the options' hooks object: hand it a copy, so a rebuild
      // from the same options never runs a hook twice.
      chart = new uPlot({ ...options, hooks: { ...options.hooks }, width: widthPx(), height: props.heightPx }, data, el);
    });
    // Width follows the container; the height is the caller's.
    const resize = new ResizeObserver(() => {
      if (chart && chart.width !== widthPx()) chart.setSize({ width: widthPx(), height: props.heightPx });
    });
    resize.observe(el);
    onCleanup(() => {
      resize.disconnect();
      chart?.destroy();
      chart = null;
    });
  });
  return <div ref={el} class="chart" role="img" aria-label={props.label} data-testid={props.testid} />;
}
