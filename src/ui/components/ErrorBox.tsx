// A visible error: its name (which kind) and its whole message, newlines kept (WGSL compile
// errors carry the source line and a caret).
import type { ErrorInfo } from '../errors';

export function ErrorBox(props: { error: ErrorInfo; title?: string; testid?: string }) {
  return (
    <div class="error-box" role="alert" data-testid={props.testid ?? 'error'}>
      <div class="error-title">
        {props.title ? `${props.title}: ` : ''}
        <span class="error-name">{props.error.name}</span>
      </div>
      <pre class="error-message">{props.error.message}</pre>
    </div>
  );
}
