// A result drawn with a net under it: every result from outside passed its checks, but should a
// view still throw on one, the page shows that error in the report's place (named, with its
// message) and keeps working — never a blank or a half-drawn report.
import { ErrorBoundary, type JSX } from 'solid-js';
import { errorInfo } from '../errors';
import { ErrorBox } from './ErrorBox';

export function SafeReport(props: { children: JSX.Element }) {
  return <ErrorBoundary fallback={(e) => <ErrorBox title="This result could not be drawn" error={errorInfo(e)} testid="report-error" />}>{props.children}</ErrorBoundary>;
}
