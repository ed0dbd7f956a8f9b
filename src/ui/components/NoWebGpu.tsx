// The full-page message when this browser offers no usable WebGPU adapter: what went wrong and
// what to do about it — never a blank page.
import { Show } from 'solid-js';
import type { ErrorInfo } from '../errors';

export function NoWebGpu(props: { reason: ErrorInfo | null }) {
  return (
    <section class="no-webgpu" data-testid="no-webgpu">
      <h2>WebGPU is not available here</h2>
      <p>kernel-lab runs every kernel on your GPU through WebGPU, and this page could not get a WebGPU adapter.</p>
      <Show when={props.reason} fallback={<p class="reason">This browser does not expose <code>navigator.gpu</code>.</p>}>
        {(r) => (
          <p class="reason">
            <span class="error-name">{r().name}</span>: {r().message}
          </p>
        )}
      </Show>
      <h3>What to do</h3>
      <ul>
        <li>Use a recent Chrome or Edge (113 or later), or Safari 26 or later.</li>
        <li>
          On Linux, start Chrome with WebGPU enabled: <code>google-chrome --enable-unsafe-webgpu --enable-features=Vulkan</code>
        </li>
        <li>
          Open <code>chrome://gpu</code> and look at the WebGPU line: a blocklisted GPU or a missing Vulkan / Metal / D3D12 driver shows
          there.
        </li>
        <li>If the page was opened with <code>?device=…</code>, check that the named adapter is present on this machine.</li>
      </ul>
    </section>
  );
}
