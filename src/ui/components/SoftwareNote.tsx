// Under a result measured on a software adapter: its times are CPU timings, not GPU numbers.
import { Show } from 'solid-js';
import type { AdapterDescriptor } from '../../core/adapter';
import { isSoftwareAdapter } from '../software-adapter';

export function SoftwareNote(props: { adapter: AdapterDescriptor }) {
  return (
    <Show when={isSoftwareAdapter(props.adapter)}>
      <p class="note warn">software adapter: these are CPU timings of the WGSL, not GPU numbers</p>
    </Show>
  );
}
