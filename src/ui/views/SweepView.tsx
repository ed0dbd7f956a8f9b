// The sweep: every valid candidate of an op's schedule space, checked against the oracle and the
// variant it would replace, then timed; refusals with their reasons; a proposal to review.
import { RunPanel } from '../components/RunPanel';
import { SweepOptions } from './sweep/SweepOptions';
import { SweepResultView } from './sweep/SweepResultView';
import { sweepState } from './sweep/sweep-state';
import type { ViewProps } from './view-props';

export function SweepView(props: ViewProps) {
  const { form, action } = sweepState(() => props.adapter);
  return (
    <div class="sweep-view" data-testid="sweep-view">
      <RunPanel
        name="sweep"
        title="Sweep: search an op's schedule space (writes nothing)"
        runLabel="Run sweep"
        errorTitle="The sweep could not run"
        form={form}
        action={action}
        options={<SweepOptions form={form} />}
        result={(r) => <SweepResultView result={r} />}
      />
    </div>
  );
}
