// A field's problem, under it, as an alert: shown only while there is one (null or '' hides it).
import { Show } from 'solid-js';

export function InlineError(props: { message: string | null | undefined; testid?: string }) {
  return (
    <Show when={props.message}>
      {(msg) => (
        <p class="inline-error" data-testid={props.testid} role="alert">
          {msg()}
        </p>
      )}
    </Show>
  );
}
