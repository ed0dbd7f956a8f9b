// The page: a header naming the adapter, the tabs, and the current tab's view — or, opened on a
// share link (#r=…), that result read-only (no GPU needed). The Matches are keyed: their branch
// gets the value, not an accessor that throws "Stale read from <Match>" when a share link arrives
// by hashchange while the lab's views (which read the adapter lazily) are still being torn down.
import { For, Match, Show, Switch } from 'solid-js';
import { Dynamic } from 'solid-js/web';
import { adapterName } from '../core/adapter';
import { createAdapterState } from './adapter-state';
import { ErrorBox } from './components/ErrorBox';
import { NoWebGpu } from './components/NoWebGpu';
import { createHashRoute, hrefFor } from './router';
import { createReportFragment, createSharePayload } from './share-route';
import { SharedCrossReport } from './views/SharedCrossReport';
import { SharedReport } from './views/SharedReport';
import { sharedAdapter } from './shared-adapter';
import { isSoftwareAdapter } from './software-adapter';
import { TABS } from './tabs';

export function App() {
  const adapterState = createAdapterState();
  const sharePayload = createSharePayload();
  const reportFragment = createReportFragment();
  const route = createHashRoute(
    TABS.map((t) => t.id),
    TABS[0].id,
  );
  const ready = () => {
    const s = adapterState();
    return s.status === 'ready' ? s.adapter : undefined;
  };
  const unavailable = () => {
    const s = adapterState();
    return s.status === 'unavailable' ? s : undefined;
  };
  const failed = () => {
    const s = adapterState();
    return s.status === 'failed' ? s : undefined;
  };
  const currentTab = () => TABS.find((t) => t.id === route()) ?? TABS[0];

  return (
    <div class="app">
      <header class="app-header">
        <h1>kernel-lab</h1>
        <span class="adapter-line" data-testid="adapter-line">
          <Switch>
            <Match when={reportFragment()}>shared report · many adapters</Match>
            <Match when={sharePayload()}>
              {/* A shared report: the result's adapter, not the viewer's. */}
              <Show when={sharedAdapter()} fallback="shared result">
                {(s) => <>shared result · measured on {adapterName(s())}</>}
              </Show>
            </Match>
            <Match when={ready()} keyed>
              {(a) => (
                <>
                  {adapterName(a)}
                  {isSoftwareAdapter(a) && (
                    <span class="badge badge-software" data-testid="software-badge" title="This adapter runs WGSL on the CPU.">
                      software adapter: timings are CPU numbers, not GPU numbers
                    </span>
                  )}
                </>
              )}
            </Match>
            <Match when={adapterState().status === 'opening'}>opening the GPU adapter…</Match>
          </Switch>
        </span>
      </header>
      <Switch>
        <Match when={reportFragment()} keyed>
          {(f) => (
            <main class="view">
              <SharedCrossReport fragment={f} />
            </main>
          )}
        </Match>
        <Match when={sharePayload()} keyed>
          {(p) => (
            <main class="view">
              <SharedReport payload={p} />
            </main>
          )}
        </Match>
        <Match when={ready()} keyed>
          {(a) => (
            <>
              <nav class="tabs">
                <For each={TABS}>
                  {(tab) => (
                    <a href={hrefFor(tab.id)} class="tab" classList={{ active: route() === tab.id }} data-testid={`tab-${tab.id}`}>
                      {tab.title}
                    </a>
                  )}
                </For>
              </nav>
              <main class="view">
                <Dynamic component={currentTab().view} adapter={a} />
              </main>
            </>
          )}
        </Match>
        <Match when={unavailable()} keyed>{(s) => <NoWebGpu reason={s.reason} />}</Match>
        <Match when={failed()} keyed>{(s) => <ErrorBox title="The lab could not start" error={s.error} />}</Match>
      </Switch>
    </div>
  );
}
