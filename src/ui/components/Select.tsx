// A select of plain values (an op, a shape, an axis): each option a value, or a value with its
// label; the current value selected; the new value handed to onChange.
import { For } from 'solid-js';

export type SelectOption = string | { readonly value: string; readonly label: string };

export function Select(props: { id?: string; testid: string; value: string; options: readonly SelectOption[]; onChange: (value: string) => void; ariaLabel?: string }) {
  return (
    <select id={props.id} data-testid={props.testid} aria-label={props.ariaLabel} onChange={(e) => props.onChange(e.currentTarget.value)}>
      <For each={props.options}>
        {(o) => {
          const value = typeof o === 'string' ? o : o.value;
          return (
            <option value={value} selected={value === props.value}>
              {typeof o === 'string' ? o : o.label}
            </option>
          );
        }}
      </For>
    </select>
  );
}
