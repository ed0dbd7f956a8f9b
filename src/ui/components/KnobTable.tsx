// A schedule family's knobs: name, the values the sweep enumerates, what each does.
import { For } from 'solid-js';
import { SPACES, type Family } from '../../core/schedule/schedule';

export function KnobTable(props: { family: Family }) {
  return (
    <table class="knobs">
      <tbody>
        <For each={Object.entries(SPACES[props.family])}>
          {([knob, spec]) => (
            <tr>
              <td class="mono">{knob}</td>
              <td class="mono">{spec.values.join(', ')}</td>
              <td class="muted">{spec.doc}</td>
            </tr>
          )}
        </For>
      </tbody>
    </table>
  );
}
