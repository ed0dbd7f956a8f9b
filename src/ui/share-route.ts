// Whether the page was opened on a share link (#r=…), following hash changes: the link's data,
// or null for the lab itself.
import { createSignal, onCleanup, type Accessor } from 'solid-js';
import { sharePayloadFromHash } from '../core/report/share';

export function createSharePayload(): Accessor<string | null> {
  const [payload, setPayload] = createSignal(sharePayloadFromHash(location.hash));
  const onChange = () => setPayload(sharePayloadFromHash(location.hash));
  window.addEventListener('hashchange', onChange);
  onCleanup(() => window.removeEventListener('hashchange', onChange));
  return payload;
}
