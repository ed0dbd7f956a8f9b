// A cross-adapter report opened from its link (#report=…): decoded, checked, shown read-only and
// stored nowhere; a link that cannot be read says why. Needs no GPU.
import { createResource, Match, Switch } from 'solid-js';
import { decodeCrossReportLink } from '../../core/report/cross-adapter-share';
import { ErrorBox } from '../components/ErrorBox';
import { errorInfo } from '../errors';
import { hrefFor } from '../router';
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
          <section class="error-page" role="alert" data-testid="share-error">
            <h2>This report link cannot be opened</h2>
            <ErrorBox error={errorInfo(report.error)} />
            <p class="note">Nothing from this link was stored.</p>
            <p>
              <a href={hrefFor('kernel')}>Open the lab</a>
            </p>
          </section>
        </Match>
        <Match when={report()}>
          <h2>Shared report (read-only)</h2>
          <CrossReportPanel report={report()!} />
        </Match>
      </Switch>
    </div>
  );
}
