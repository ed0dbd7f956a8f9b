// A result opened from a share link (#r=…): decoded, checked, shown read-only, and stored
// nowhere. A link that cannot be read — cut, altered, oversized, from a newer lab — gets a page
// that says which, instead of a result. Needs no GPU: it opens on any browser.
import { createResource, Match, Show, Switch } from 'solid-js';
import { adapterName } from '../../core/adapter';
import { resultAdapter } from '../../core/report/json';
import { validateResult } from '../../core/report/validate';
import { decodeShare, ShareLinkError, shareRounding, type ShareErrorReason } from '../../core/report/share';
import { ShareErrorPage } from '../components/ShareErrorPage';
import { errorInfo } from '../errors';
import { hrefFor } from '../router';
import { RerunPanel } from './report/RerunPanel';
import { ResultWithActions } from './report/ResultReport';
import { setSharedAdapter } from '../shared-adapter';

const WHAT_TO_DO: Record<ShareErrorReason, string> = {
  malformed: 'Check that the whole link was pasted, starting at #r=.',
  damaged: 'The link was cut short or changed on its way (a chat or mail client may wrap or shorten long links). Ask for it again, or for the result as a JSON file (History → Export) and import that.',
  'too-large': 'This page refuses links above its size caps, so a hostile link cannot exhaust memory. Share large results as a JSON file (History → Export) instead.',
  'future-version': 'The link was made by a newer kernel-lab. Open it in that version of the lab, or update this page.',
  'invalid-result': 'The link decodes, but what it holds is not a result this lab can show.',
};

function kindTitle(kind: string): string {
  return kind === 'level1' ? 'Level 1 result' : kind === 'lane' ? 'lane result' : kind === 'sweep' ? 'sweep result' : kind === 'formats' ? 'formats result' : 'calibration';
}

export function SharedReport(props: { payload: string }) {
  const [result] = createResource(
    () => props.payload,
    async (payload) => {
      const r = await decodeShare(payload, undefined, undefined, validateResult);
      // The header names the result's adapter, not the viewer's.
      setSharedAdapter(resultAdapter(r));
      return r;
    },
  );
  const failure = () => {
    if (!result.error) return null;
    const e = result.error;
    return { info: errorInfo(e), reason: e instanceof ShareLinkError ? e.reason : ('damaged' as const) };
  };
  return (
    <div class="shared-report" data-testid="shared-report">
      <Switch>
        <Match when={result.loading}>
          <p class="note">Opening the shared result…</p>
        </Match>
        <Match when={failure()}>
          {(f) => (
            <ShareErrorPage title="This share link cannot be opened" error={f().info}>
              <p>{WHAT_TO_DO[f().reason]}</p>
            </ShareErrorPage>
          )}
        </Match>
        <Match when={result()}>
          {(r) => (
            <>
              <div class="shared-notice" role="note" data-testid="shared-notice">
                <strong>Shared copy, read-only.</strong> This {kindTitle(r().kind)} was measured on <span class="mono">{adapterName(resultAdapter(r()))}</span> by kernel-lab{' '}
                <span class="mono">{r().labVersion ?? 'unknown'}</span>
                <Show when={r().codeHash}>{(h) => <span class="mono"> (code {h()})</span>}</Show>. It was decoded from the link: it was not run here, and it is not stored.{' '}
                <Show when={shareRounding(props.payload)}>{(d) => <span data-testid="shared-rounding">To fit the link, its numbers were rounded to {d()} significant digits (verdicts are as measured). </span>}</Show>
                <a href={hrefFor('kernel')}>Open the lab</a>
              </div>
              <ResultWithActions result={r()} shared>
                <RerunPanel result={r()} />
              </ResultWithActions>
            </>
          )}
        </Match>
      </Switch>
    </div>
  );
}
