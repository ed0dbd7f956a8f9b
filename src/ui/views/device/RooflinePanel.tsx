// This adapter's kernels on its roofline — measured in this session and stored from earlier
// runs (History) — memory-only ones are counted, not drawn.
import { createMemo, createResource, For, Show } from 'solid-js';
import { adapterFingerprint, type AdapterDescriptor } from '../../../core/adapter';
import { peaksFor } from '../../../core/metrics/roofline';
import { OPS } from '../../../core/ops/registry';
import { onRoofline, rooflineChart, SOURCE_COLOR, SOURCE_TITLE } from '../../charts/roofline-chart';
import { UPlot } from '../../charts/UPlot';
import { currentCalibration } from '../../calibration-state';
import { measuredKernels } from '../../session-results';
import { distinctKernels, storedKernels } from '../../measured-kernels';
import { labDb, storeVersion } from '../../run-store';
import { listRuns } from '../../../storage/runs';

/** Ops with a flop formula (the others are memory-only), read from each op's first matrix case. */
function opsWithFlops(): string[] {
  return OPS.filter((o) => o.flops(o.makeCase(o.matrix[0].dims, o.matrix[0].layout)) !== null).map((o) => o.name);
}

export function RooflinePanel(props: { adapter: AdapterDescriptor }) {
  const peaks = () => peaksFor(props.adapter, currentCalibration());
  const fingerprint = () => adapterFingerprint(props.adapter);
  // Storage that cannot be read (private mode) only means no stored kernels.
  const [stored] = createResource(
    () => ({ key: fingerprint(), version: storeVersion() }),
    async ({ key }) => {
      try {
        return (await listRuns(await labDb(), key)).flatMap((r) => (r.result ? storedKernels(r.result) : []));
      } catch {
        return [];
      }
    },
  );
  const mine = () => distinctKernels([...measuredKernels(), ...(stored.latest ?? [])].filter((k) => k.adapterFingerprint === fingerprint()));
  const placed = () => mine().filter(onRoofline);
  const memoryOnly = () => mine().filter((k) => k.metrics.gflops === null);
  const memoryOnlyOps = () => [...new Set(memoryOnly().map((k) => k.op))];
  const chart = createMemo(() => rooflineChart(mine(), peaks()));
  const sources = () => [...new Set(placed().map((k) => k.source))];
  return (
    <section class="panel" data-testid="roofline-panel">
      <h2>
        Roofline
        <span class="muted" data-testid="roofline-count">
          {placed().length} kernel{placed().length === 1 ? '' : 's'} on this adapter, this session and stored runs
        </span>
      </h2>
      <UPlot options={chart().options} data={chart().data} heightPx={320} testid="roofline" label="roofline: arithmetic intensity against GFLOP/s" />
      <p class="note chart-legend" data-testid="roofline-legend">
        <For each={sources()}>
          {(s) => (
            <>
              <span class="swatch" style={{ background: SOURCE_COLOR[s] }} /> {SOURCE_TITLE[s]}{' '}
            </>
          )}
        </For>
        <Show when={placed().length}>(rings: native kernels; hover a point for what it is) · </Show>
        <Show when={peaks().source} fallback="no roof: this adapter has no peaks yet (press Calibrate above). ">
          roof from the {peaks().source} peaks.{' '}
        </Show>
        <Show when={!placed().length}>{`Run an op with flops (${opsWithFlops().join(', ')}) on the Kernel, Lane or Sweep tab to place it here. `}</Show>
      </p>
      <Show when={memoryOnly().length}>
        <p class="note" data-testid="roofline-memory-only">
          {memoryOnly().length} memory-only kernel{memoryOnly().length === 1 ? '' : 's'} ({memoryOnlyOps().join(', ')}) left out: without flops they have no arithmetic intensity; their GB/s and %BW are in the results tables.
        </p>
      </Show>
    </section>
  );
}
