// The adapter the worker opened, as the lab records it: identity, its peaks (spec and measured,
// with Calibrate), the roofline of this session's kernels, features and the limits that
// schedules are validated against.
import { For, Show } from 'solid-js';
import { adapterFingerprint } from '../../core/adapter';
import { fmtBytes } from '../../core/report/format';
import { isSoftwareAdapter } from '../software-adapter';
import { PeaksPanel } from './device/PeaksPanel';
import { RooflinePanel } from './device/RooflinePanel';
import type { ViewProps } from './view-props';

/** Limits that are sizes in bytes print with a unit; the rest are counts. */
const BYTE_LIMITS = new Set(['maxComputeWorkgroupStorageSize', 'maxStorageBufferBindingSize', 'maxBufferSize', 'minStorageBufferOffsetAlignment']);

export function DeviceView(props: ViewProps) {
  const a = () => props.adapter;
  const identity = (): [string, string][] => [
    ['vendor', a().vendor || '—'],
    ['architecture', a().architecture || '—'],
    ['device', a().device || '—'],
    ['description', a().description || '—'],
    ['fallback adapter', a().isFallbackAdapter ? 'yes' : 'no'],
    ['software (CPU)', isSoftwareAdapter(a()) ? 'yes: timings are not GPU numbers' : 'no'],
    ['runtime', a().runtime],
    ['subgroup sizes', a().subgroupMinSize ? `${a().subgroupMinSize} – ${a().subgroupMaxSize}` : 'not reported'],
    ['fingerprint', adapterFingerprint(a())],
  ];
  return (
    <div class="device-view" data-testid="device-view">
      <section class="panel">
        <h2>Adapter</h2>
        <table class="kv">
          <tbody>
            <For each={identity()}>
              {([k, v]) => (
                <tr>
                  <th>{k}</th>
                  <td class="mono">{v}</td>
                </tr>
              )}
            </For>
          </tbody>
        </table>
      </section>
      <PeaksPanel adapter={a()} />
      <RooflinePanel adapter={a()} />
      <section class="panel">
        <h2>Features</h2>
        <Show when={a().features.length} fallback={<p class="muted">none</p>}>
          <ul class="feature-list">
            <For each={a().features}>{(f) => <li class="mono">{f}</li>}</For>
          </ul>
        </Show>
      </section>
      <section class="panel">
        <h2>Limits</h2>
        <table class="data">
          <thead>
            <tr>
              <th>limit</th>
              <th class="num">value</th>
            </tr>
          </thead>
          <tbody>
            <For each={Object.entries(a().limits)}>
              {([k, v]) => (
                <tr>
                  <td class="mono">{k}</td>
                  <td class="num" title={String(v)}>
                    {BYTE_LIMITS.has(k) ? `${fmtBytes(v)}` : v.toLocaleString('en-US')}
                  </td>
                </tr>
              )}
            </For>
          </tbody>
        </table>
      </section>
    </div>
  );
}
