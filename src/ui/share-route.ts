// Whether the page was opened on a share link (#r=…), following hash changes: the link's data,
// or null for the lab itself.
import { createSignal, onCleanup, type Accessor } from 'solid-js';
import { REPORT_HASH_PREFIX } from '../core/report/cross-adapter-share';
import { sharePayloadFromHash } from '../core/report/share';

export function createSharePayload(): Accessor<string | null> {
  const [payload, setPayload] = createSignal(sharePayloadFromHash(location.hash));
  const onChange = () => setPayload(sharePayloadFromHash(location.hash));
  window.addEventListener('hashchange', onChange);
  onCleanup(() => window.removeEventListener('hashchange', onChange));
  return payload;
}

/** Whether the page was opened on a report link (#report=…): the fragment, or null. */
export function createReportFragment(): Accessor<string | null> {
  const read = () => (location.hash.startsWith(REPORT_HASH_PREFIX) ? location.hash : null);
  const [fragment, setFragment] = createSignal(read());
  const onChange = () => setFragment(read());
  window.addEventListener('hashchange', onChange);
  onCleanup(() => window.removeEventListener('hashchange', onChange));
  return fragment;
}
