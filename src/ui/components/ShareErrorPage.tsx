// The page a link that cannot be opened gets (a result's #r=…, a report's #report=…): what is
// wrong with it, what to do (the caller's words), that nothing was stored, and the way back.
import type { JSX } from 'solid-js';
import type { ErrorInfo } from '../errors';
import { hrefFor } from '../router';

export function ShareErrorPage(props: { title: string; error: ErrorInfo; children?: JSX.Element }) {
  return (
    <section class="error-page" role="alert" data-testid="share-error">
      <h2>{props.title}</h2>
      <p class="error-message">
        <span class="error-name">{props.error.name}</span>: {props.error.message}
      </p>
      {props.children}
      <p class="note">Nothing from this link was stored.</p>
      <p>
        <a href={hrefFor('kernel')}>Open the lab</a>
      </p>
    </section>
  );
}
