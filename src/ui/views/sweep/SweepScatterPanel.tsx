// The sweep's scatter on one shape (a selector when it swept several): time against gain.
import { createMemo, createSignal, Show } from 'solid-js';
import type { SweepRecord } from '../../../core/schema/results';
import { sweepScatter } from '../../charts/sweep-scatter';
import { UPlot } from '../../charts/UPlot';
import { Select } from '../../components/Select';

export function SweepScatterPanel(props: { result: SweepRecord }) {
  const [shape, setShape] = createSignal(props.result.shapes[0]);
  const current = () => (props.result.shapes.includes(shape()) ? shape() : props.result.shapes[0]);
  const chart = createMemo(() => sweepScatter(props.result, current()));
  const untimed = () => props.result.candidates.filter((c) => !c.shapes.length && c.status !== 'invalid').length;
  return (
    <section class="panel" data-testid="sweep-scatter-panel">
      <h2>
        Time against gain
        <Show when={props.result.shapes.length > 1}>
          <Select testid="sweep-scatter-shape" ariaLabel="shape" value={current()} options={props.result.shapes} onChange={setShape} />
        </Show>
      </h2>
      <UPlot options={chart().options} data={chart().data} heightPx={280} testid="sweep-scatter" label={`sweep candidates on ${current()}: median µs against gain`} />
      <p class="note chart-legend">
        <span class="swatch accepted" /> accepted <span class="swatch refused" /> refused (hover a point for its reason) · dashed: the reference's median · {chart().points} candidate
        {chart().points === 1 ? '' : 's'} timed on {current()}
        <Show when={untimed()}>{(n) => ` · ${n()} refused before timing (wrong, rejected by the device, too slow) are in the table only`}</Show>
      </p>
    </section>
  );
}
