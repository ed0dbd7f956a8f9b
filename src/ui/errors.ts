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
