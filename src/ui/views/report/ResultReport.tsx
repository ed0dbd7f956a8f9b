// Any result, read-only, by kind, with the views its own tab uses (they render the result
// JSON): what a stored run and a shared link show.
import { Match, Switch, type JSX } from 'solid-js';
import type { CalibrationJson, FormatsJson, LaneJson, Level1Json, ResultJson, SweepJson } from '../../../core/report/json';
import { FormatsResultView } from '../formats/FormatsResultView';
import { ResultActions } from '../../components/ResultActions';
import { SafeReport } from '../../components/SafeReport';
import { ResultPanel } from '../kernel/ResultPanel';
import { LaneResultView } from '../lane/LaneResultView';
import { SweepResultView } from '../sweep/SweepResultView';
import { CalibrationReport } from './CalibrationReport';

/** `shared`: opened from a link — notes speak of the adapter it ran on, not the viewer's. */
export function ResultReport(props: { result: ResultJson; shared?: boolean }) {
  const as = <K extends ResultJson['kind']>(kind: K) => (props.result.kind === kind ? (props.result as Extract<ResultJson, { kind: K }>) : undefined);
  return (
    <Switch>
      <Match when={as('level1')}>{(r) => <ResultPanel result={r() as Level1Json} shared={props.shared} />}</Match>
      <Match when={as('lane')}>{(r) => <LaneResultView result={r() as LaneJson} />}</Match>
      <Match when={as('sweep')}>{(r) => <SweepResultView result={r() as SweepJson} />}</Match>
      <Match when={as('formats')}>{(r) => <FormatsResultView result={r() as FormatsJson} />}</Match>
      <Match when={as('calibration')}>{(r) => <CalibrationReport result={r() as CalibrationJson} />}</Match>
    </Switch>
  );
}

/** A stored or shared result as its view shows it, with Share link and Copy for PR (and what the caller adds), kept from breaking the page. */
export function ResultWithActions(props: { result: ResultJson; shared?: boolean; children?: JSX.Element }) {
  return (
    <SafeReport>
      <ResultReport result={props.result} shared={props.shared} />
      <ResultActions result={props.result} />
      {props.children}
    </SafeReport>
  );
}
