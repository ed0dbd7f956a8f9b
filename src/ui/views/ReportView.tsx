// The Report tab: every run stored in this browser, of every adapter (imported from a CI matrix's
// artifacts or teammates' files in History), merged into one cross-adapter table — with its own
// share link and PR markdown. Runs of other code are left out unless asked for (then marked).
import { createMemo, createResource, createSignal, Show } from 'solid-js';
import { buildCrossAdapterReport } from '../../core/report/cross-adapter';
import { crossReportMarkdown } from '../../core/report/cross-adapter-render';
import { encodeCrossReportLink } from '../../core/report/cross-adapter-share';
import { withDeadline } from '../../storage/open';
import { readStoredRuns } from '../../storage/stored-runs';
import { ErrorBox } from '../components/ErrorBox';
import { errorInfo, type ErrorInfo } from '../errors';
import { labDb, storeVersion } from '../run-store';
import { hrefFor } from '../router';
import { CrossReportPanel } from './report/CrossReportPanel';
import type { ViewProps } from './view-props';

const READ_DEADLINE_MS = 15_000;

export function ReportView(_props: ViewProps) {
  const [stored] = createResource(storeVersion, async () => withDeadline(labDb().then(readStoredRuns), READ_DEADLINE_MS, 'reading the stored runs'));
  const [allowStale, setAllowStale] = createSignal(false);
  const [link, setLink] = createSignal<string | null>(null);
  const [markdown, setMarkdown] = createSignal<string | null>(null);
  const [failure, setFailure] = createSignal<ErrorInfo | null>(null);
  const report = createMemo(() => {
    const runs = stored.latest?.runs ?? [];
    const inputs = runs.filter((r) => r.result).map((r) => ({ source: `${r.kind} run #${r.id} (${r.savedAt.slice(0, 19).replace('T', ' ')})`, result: r.result! }));
    return buildCrossAdapterReport(inputs, { allowStale: allowStale() });
  });
  const share = async () => {
    setFailure(null);
    try {
      const fragment = await encodeCrossReportLink(report());
      const url = `${location.href.split('#')[0]}${fragment}`;
      setLink(url);
      setMarkdown(crossReportMarkdown(report(), url));
      await navigator.clipboard?.writeText(url).catch(() => undefined);
    } catch (e) {
      setFailure(errorInfo(e));
    }
  };
  return (
    <div class="report-view" data-testid="report-view">
      <section class="panel form">
        <h2>Report: every stored run, every adapter, one table</h2>
        <p class="note">
          Import result files from many machines (a CI matrix's artifacts, teammates' exports) in <a href={hrefFor('history')}>History</a>; they appear here side by side. For the command line: <code>npm run lab -- report results/</code>.
        </p>
        <label>
          <input type="checkbox" data-testid="report-allow-stale" checked={allowStale()} onChange={(e) => setAllowStale(e.currentTarget.checked)} /> include runs of other code (marked stale)
        </label>
        <div class="actions">
          <button type="button" data-testid="report-share" disabled={!report().rows.length} onClick={() => void share()}>
            Share link and PR markdown
          </button>
        </div>
        <Show when={link()}>{(l) => <input class="share-link" readonly value={l()} data-testid="report-link" />}</Show>
        <Show when={markdown()}>{(m) => <textarea class="markdown" readonly rows={8} data-testid="report-markdown" value={m()} />}</Show>
        <Show when={failure()}>{(f) => <ErrorBox error={f()} testid="report-error" />}</Show>
      </section>
      <Show when={stored.error}>
        <ErrorBox title="The stored runs could not be read" error={errorInfo(stored.error)} testid="report-error" />
      </Show>
      <Show when={report().rows.length} fallback={<p class="note" data-testid="report-empty">No stored run to report yet: run the lane, or import result files in History.</p>}>
        <section class="panel">
          <CrossReportPanel report={report()} />
        </section>
      </Show>
    </div>
  );
}
