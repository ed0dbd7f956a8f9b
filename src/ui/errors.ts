// Errors as the page shows them: a name that says which kind, and the message. Comlink carries
// name and message across the worker boundary, so the worker's LabError names survive.
export interface ErrorInfo {
  readonly name: string;
  readonly message: string;
}

export function errorInfo(e: unknown): ErrorInfo {
  if (e instanceof Error) return { name: e.name || 'Error', message: e.message };
  if (e && typeof e === 'object' && 'message' in e) {
    const o = e as { name?: unknown; message: unknown };
    return { name: typeof o.name === 'string' ? o.name : 'Error', message: String(o.message) };
  }
  return { name: 'Error', message: String(e) };
}

/** A form's checked value ({ ok, … } or { error }): the error's words, or null when it is ok. */
export function errorOf(r: object): string | null {
  return 'error' in r && typeof r.error === 'string' ? r.error : null;
}

/** A form's checked value: its ok variant (with whatever it carries beside `ok`), or null. */
export function okOf<R extends object>(r: R): Extract<R, { ok: unknown }> | null {
  return 'ok' in r ? (r as Extract<R, { ok: unknown }>) : null;
}
