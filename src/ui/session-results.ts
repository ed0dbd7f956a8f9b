// The kernels measured in this page session (Level 1, lane shapes, sweep cells), in the order
// they ran: the views append, the roofline reads. Not persisted: storage keeps whole runs.
import { createSignal } from 'solid-js';
import type { Metrics } from '../core/metrics/roofline';

export interface MeasuredKernel {
  readonly source: 'level1' | 'lane' | 'sweep';
  readonly op: string;
  /** The case label: '256x256x256', '4096x512 inplace'. */
  readonly shape: string;
  /** 'native', 'generated', a schedule key, or a sweep candidate's key. */
  readonly variant: string;
  readonly metrics: Metrics;
  readonly adapterFingerprint: string;
}

const [measured, setMeasured] = createSignal<readonly MeasuredKernel[]>([]);

export const measuredKernels = measured;

export function addMeasured(kernels: readonly MeasuredKernel[]): void {
  if (kernels.length) setMeasured((prev) => [...prev, ...kernels]);
}
