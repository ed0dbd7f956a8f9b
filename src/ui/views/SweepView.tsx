// The sweep: every valid candidate of an op's schedule space, checked against the oracle and the
// variant it would replace, then timed; refusals with their reasons; a proposal to review.
import { runTab } from '../components/RunPanel';
import { SweepOptions } from './sweep/SweepOptions';
import { SweepResultView } from './sweep/SweepResultView';
import { sweepState } from './sweep/sweep-state';

export const SweepView = runTab({
  name: 'sweep',
  title: "Sweep: search an op's schedule space (writes nothing)",
  runLabel: 'Run sweep',
  errorTitle: 'The sweep could not run',
  state: sweepState,
  options: (form) => <SweepOptions form={form} />,
  result: (r) => <SweepResultView result={r} />,
});
