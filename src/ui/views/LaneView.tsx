// The promotion lane: native vs generated over each pair's shape matrix on this adapter, with
// the verdict per shape, the counters, the promotion checklist and a speedup chart per pair.
import { runTab } from '../components/RunPanel';
import { LaneOptions } from './lane/LaneOptions';
import { LaneResultView } from './lane/LaneResultView';
import { laneState } from './lane/lane-state';

export const LaneView = runTab({
  name: 'lane',
  title: 'Lane: native vs generated, shape by shape',
  runLabel: 'Run lane',
  errorTitle: 'The lane could not run',
  state: laneState,
  options: (form) => <LaneOptions form={form} />,
  result: (r) => <LaneResultView result={r} />,
});
