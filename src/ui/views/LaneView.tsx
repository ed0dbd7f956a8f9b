// The promotion lane: native vs generated over each pair's shape matrix on this adapter, with
// the verdict per shape, the counters, the promotion checklist and a speedup chart per pair.
import { RunPanel } from '../components/RunPanel';
import { LaneOptions } from './lane/LaneOptions';
import { LaneResultView } from './lane/LaneResultView';
import { laneState } from './lane/lane-state';
import type { ViewProps } from './view-props';

export function LaneView(props: ViewProps) {
  const { form, action } = laneState(() => props.adapter);
  return (
    <div class="lane-view" data-testid="lane-view">
      <RunPanel
        name="lane"
        title="Lane: native vs generated, shape by shape"
        runLabel="Run lane"
        errorTitle="The lane could not run"
        form={form}
        action={action}
        options={<LaneOptions form={form} />}
        result={(r) => <LaneResultView result={r} />}
      />
    </div>
  );
}
