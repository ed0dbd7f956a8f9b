// The adapter's peaks side by side: the spec table's (published) and this session's measured
// calibration, which ones metrics use, and the Calibrate button.
import { For, Show } from 'solid-js';
import type { AdapterDescriptor } from '../../../core/adapter';
import { peaksFor } from '../../../core/metrics/roofline';
import { specFor } from '../../../core/metrics/spec-table';
import { fmtGBps, fmtGflops, fmtNs } from '../../../core/report/format';
import { calibrateAction, currentCalibration } from '../../calibration-state';
import { ErrorBox } from '../../components/ErrorBox';
import { ResultActions } from '../../components/ResultActions';
import { CancelledNote, RunProgress } from '../../components/RunProgress';
import { SaveStatus } from '../../components/SaveStatus';
import { isSoftwareAdapter } from '../../software-adapter';

export function PeaksPanel(props: { adapter: AdapterDescriptor }) {
  const action = calibrateAction(() => props.adapter);
  const spec = () => specFor(props.adapter);
  const cal = currentCalibration;
  const inUse = () => peaksFor(props.adapter, cal());
  const software = () => props.adapter.isFallbackAdapter || isSoftwareAdapter(props.adapter);
  const specBlank = () => (software() ? 'software adapter: no published peaks (it runs on the CPU)' : 'not in the spec table');
  const ratio = (measured: number | null | undefined, published: number | null | undefined) =>
    measured && published ? ` (${((100 * measured) / published).toFixed(0)}% of spec)` : '';
  const rows = (): [string, string, string][] => {
    const s = spec();
    const c = cal();
    return [
      ['what', s ? s.name : '—', c ? `calibration, ${c.measuredAt}` : '—'],
      ['bandwidth', s ? fmtGBps(s.bandwidthGBps) : '—', c ? `copy ${fmtGBps(c.copyGBps)}${ratio(c.copyGBps, s?.bandwidthGBps)}` : '—'],
      ['f32', s ? fmtGflops(s.f32Gflops) : '—', c ? `FMA ${fmtGflops(c.f32Gflops)}${ratio(c.f32Gflops, s?.f32Gflops)}` : '—'],
      ['f16', s ? (s.f16Gflops ? fmtGflops(s.f16Gflops) : 'not published') : '—', c ? (c.f16Gflops ? `FMA ${fmtGflops(c.f16Gflops)}${ratio(c.f16Gflops, s?.f16Gflops)}` : 'not measured (no shader-f16)') : '—'],
      ['empty-dispatch floor', '—', c ? fmtNs(c.emptyDispatchNs) : '—'],
      ['source', s ? s.source : specBlank(), c ? 'stream copy, FMA loop and empty dispatch on this adapter' : 'not measured yet: press Calibrate'],
    ];
  };
  return (
    <section class="panel" data-testid="peaks">
      <h2>
        Peaks
        <Show when={software()}>
          <span class="badge badge-software" data-testid="peaks-software">
            software: measured peaks are CPU numbers
          </span>
        </Show>
      </h2>
      <table class="data peaks-table">
        <thead>
          <tr>
            <th />
            <th>spec</th>
            <th>measured</th>
          </tr>
        </thead>
        <tbody>
          <For each={rows()}>
            {([k, s, m]) => (
              <tr>
                <th>{k}</th>
                <td class="mono" data-testid={`spec-${k.split(' ')[0]}`}>
                  {s}
                </td>
                <td class="mono" data-testid={`measured-${k.split(' ')[0]}`}>
                  {m}
                </td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
      <p class="note" data-testid="peaks-in-use">
        metrics use{' '}
        {inUse().source === 'spec'
          ? 'the spec peaks (the published ceiling)'
          : inUse().source === 'measured'
            ? 'the measured peaks (this adapter is not in the spec table)'
            : 'no peaks: %-of-peak and bottleneck stay blank until you calibrate'}
        {inUse().launchFloorNs !== null ? `; the launch floor is the measured ${fmtNs(inUse().launchFloorNs)}` : ''}. Kernels timed before a calibration keep the peaks they were timed with.
      </p>
      <div class="actions flush">
        <button type="button" class="primary" data-testid="calibrate-button" disabled={action.running()} onClick={() => void action.run()}>
          {action.running() ? 'Calibrating…' : cal() ? 'Calibrate again' : 'Calibrate'}
        </button>
        <Show when={action.running()}>
          <RunProgress progress={action.progress()} startedAtMs={action.startedAtMs()} onCancel={() => void action.cancel()} cancelling={action.cancelling()} />
        </Show>
        <span class="hint">measures copy bandwidth, FMA throughput and the empty-dispatch floor (seconds)</span>
      </div>
      <CancelledNote when={action.cancelled()} />
      <Show when={action.error()}>{(e) => <ErrorBox title="Calibration failed" error={e()} />}</Show>
      <Show when={action.json()}>{(j) => <ResultActions result={j()} />}</Show>
      <SaveStatus outcome={action.saved()} />
      <Show when={cal()}>
        {(c) => (
          <details class="calibration-details">
            <summary>how each number was measured</summary>
            <ul>
              <For each={c().details}>{(d) => <li class="mono">{d}</li>}</For>
            </ul>
          </details>
        )}
      </Show>
    </section>
  );
}
