// A calibration, read-only: the adapter's measured peaks and how each was measured.
import { For } from 'solid-js';
import { adapterName } from '../../../core/adapter';
import { fmtNs, fmtRatio } from '../../../core/report/format';
import type { CalibrationJson } from '../../../core/report/json';

export function CalibrationReport(props: { result: CalibrationJson }) {
  const r = () => props.result;
  return (
    <section class="panel report" data-testid="calibration-report">
      <h2>Calibration · {adapterName(r().adapter)}</h2>
      <table class="kv">
        <tbody>
          <tr>
            <th>stream copy</th>
            <td class="num">{fmtRatio(r().copyGBps, 1)} GB/s</td>
          </tr>
          <tr>
            <th>f32 FMA</th>
            <td class="num">{fmtRatio(r().f32Gflops, 1)} GFLOP/s</td>
          </tr>
          <tr>
            <th>f16 FMA</th>
            <td class="num">{r().f16Gflops === null ? '— (no shader-f16)' : `${fmtRatio(r().f16Gflops, 1)} GFLOP/s`}</td>
          </tr>
          <tr>
            <th>empty dispatch</th>
            <td class="num">{fmtNs(r().emptyDispatchNs)}</td>
          </tr>
          <tr>
            <th>measured</th>
            <td class="mono">{r().measuredAt}</td>
          </tr>
        </tbody>
      </table>
      <ul class="note">
        <For each={r().details}>{(d) => <li class="mono">{d}</li>}</For>
      </ul>
    </section>
  );
}
