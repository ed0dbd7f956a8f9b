// The adapter a shared report's result ran on: the page header names it (not the viewer's
// adapter) while a share link is open. SharedReport sets it once the link is decoded.
import { createSignal } from 'solid-js';
import type { AdapterDescriptor } from '../core/adapter';

const [sharedAdapter, setSharedAdapter] = createSignal<AdapterDescriptor | null>(null);

export { setSharedAdapter, sharedAdapter };
