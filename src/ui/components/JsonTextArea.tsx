// A monospace JSON editor that grows with its text, and the parse error under it (named, in
// red). The schedule editor and the sweep's space editor both use it.
import { InlineError } from './InlineError';

export interface JsonTextAreaProps {
  readonly id: string;
  readonly testId: string;
  readonly errorTestId: string;
  readonly text: string;
  readonly onText: (text: string) => void;
  readonly error: string | null;
  readonly minRows: number;
  readonly maxRows: number;
}

export function JsonTextArea(props: JsonTextAreaProps) {
  return (
    <>
      <textarea
        id={props.id}
        class="mono"
        data-testid={props.testId}
        rows={Math.min(props.maxRows, Math.max(props.minRows, props.text.split('\n').length))}
        spellcheck={false}
        aria-invalid={props.error !== null}
        value={props.text}
        onInput={(e) => props.onText(e.currentTarget.value)}
      />
      <InlineError message={props.error} testid={props.errorTestId} />
    </>
  );
}
