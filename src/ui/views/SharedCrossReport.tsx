// A cross-adapter report opened from its link (#report=…): decoded, checked, shown read-only and
// stored nowhere; a link that cannot be read says why. Needs no GPU.
import { createResource, Match, Switch } from 'solid-js';
import { decodeCrossReportLink } from '../../core/report/cross-adapter-share';
import { ShareErrorPage } from '../components/ShareErrorPage';
import { errorInfo } from '../errors';
import { CrossReportPanel } from './report/CrossReportPanel';

export function SharedCrossReport(props: { fragment: string }) {
  const [report] = createResource(() => props.fragment, (f) => decodeCrossReportLink(f));
  return (
    <div class="shared-report" data-testid="shared-cross-report">
      <Switch>
        <Match when={report.loading}>
          <p class="note">Opening the shared report…</p>
        </Match>
        <Match when={report.error}>
          <ShareErrorPage title="This report link cannot be opened" error={errorInfo(report.error)} />
        </Match>
        <Match when={report()}>
          <h2>Shared report (read-only)</h2>
          <CrossReportPanel report={report()!} />
        </Match>
      </Switch>
    </div>
  );
}
