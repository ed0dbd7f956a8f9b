// "Share link" and "Copy for PR" for any result: drop <ResultActions result={json} /> under a
// result, where json is what the CLI's --json writes (level1Json, laneJson, sweepJson,
// calibrationJson). The link opens the result read-only on this page (#r=…); the markdown is the
// CLI's --markdown, with the link. What was copied also shows in a field, since a browser may
// refuse the clipboard.
import { createEffect, createSignal, on, Show } from 'solid-js';
import { resultMarkdown } from '../../core/report/markdown';
import type { ResultJson } from '../../core/report/json';
import { encodeShare, shareUrl } from '../../core/report/share';
import { errorInfo } from '../errors';
import { writeClipboard } from './CopyButton';

/** The share link of a result, on this page's address (or another base). */
export async function resultLink(result: ResultJson, base: string = location.href): Promise<string> {
  return shareUrl(base, await encodeShare(result));
}

/** The PR markdown of a result, with its share link (none when the result is too large for one). */
export async function prMarkdown(result: ResultJson, base: string = location.href): Promise<string> {
  const link = await resultLink(result, base).catch(() => undefined);
  return resultMarkdown(result, link);
}

type Shown = { readonly what: 'link' | 'markdown'; readonly text: string; readonly status: string; readonly ok: boolean };

export function ResultActions(props: { result: ResultJson }) {
  const [shown, setShown] = createSignal<Shown | null>(null);
  const [busy, setBusy] = createSignal(false);
  // A new result: what was shown belongs to the old one.
  createEffect(on(() => props.result, () => setShown(null), { defer: true }));

  const act = async (what: Shown['what']) => {
    setBusy(true);
    try {
      const text = what === 'link' ? await resultLink(props.result) : await prMarkdown(props.result);
      const copied = await writeClipboard(text);
      const size = what === 'link' ? ` (${(text.length / 1024).toFixed(1)} KB)` : '';
      setShown({ what, text, ok: copied, status: copied ? `${what === 'link' ? 'Link' : 'Markdown'} copied to the clipboard${size}.` : `The browser refused the clipboard: select the text below and copy it${size}.` });
    } catch (e) {
      const info = errorInfo(e);
      setShown({ what, text: '', ok: false, status: `${info.name}: ${info.message}` });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="result-actions" data-testid="result-actions">
      <div class="result-actions-buttons">
        <button type="button" data-testid="share-link-button" disabled={busy()} onClick={() => void act('link')} title="A link that opens this result read-only, on any machine">
          Share link
        </button>
        <button type="button" data-testid="copy-pr-button" disabled={busy()} onClick={() => void act('markdown')} title="A GitHub markdown table of this result, with its link">
          Copy for PR
        </button>
        <Show when={shown()}>
          {(s) => (
            <span class="note" classList={{ warn: !s().ok }} data-testid="copy-status" role="status">
              {s().status}
            </span>
          )}
        </Show>
      </div>
      <Show when={shown()?.text}>
        <Show
          when={shown()?.what === 'link'}
          fallback={<textarea class="copy-output mono" data-testid="pr-markdown" readOnly rows={8} value={shown()!.text} onFocus={(e) => e.currentTarget.select()} />}
        >
          <div class="share-output">
            <input class="copy-output mono" data-testid="share-link" readOnly value={shown()!.text} onFocus={(e) => e.currentTarget.select()} />
            <a href={shown()!.text} target="_blank" rel="noopener" data-testid="share-link-open">
              open
            </a>
          </div>
        </Show>
      </Show>
    </div>
  );
}
