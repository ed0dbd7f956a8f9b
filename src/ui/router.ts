// A hash router small enough to read: '#/device' → 'device'. The page is static (base './'),
// so the hash is the only part of the URL it may own.
import { createSignal, onCleanup, type Accessor } from 'solid-js';

export function routeFromHash(hash: string, ids: readonly string[], fallback: string): string {
  const id = hash.replace(/^#\/?/, '').split(/[/?]/)[0];
  return ids.includes(id) ? id : fallback;
}

export function hrefFor(id: string): string {
  return `#/${id}`;
}

/** The current tab id, following hashchange (back/forward included). */
export function createHashRoute(ids: readonly string[], fallback: string): Accessor<string> {
  const [route, setRoute] = createSignal(routeFromHash(location.hash, ids, fallback));
  const onChange = () => setRoute(routeFromHash(location.hash, ids, fallback));
  window.addEventListener('hashchange', onChange);
  onCleanup(() => window.removeEventListener('hashchange', onChange));
  return route;
}
