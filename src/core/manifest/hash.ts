// Which user kernel a result came from: SHA-256 of the manifest's text and of each WGSL file,
// through Web Crypto (globalThis.crypto.subtle: browsers, workers and Node ≥ 20 alike).
import type { LoadedManifest } from './load';

export interface UserKernelIdentity {
  readonly name: string;
  /** Hex SHA-256 of the manifest's text exactly as given. */
  readonly manifestSha256: string;
  /** One entry per distinct WGSL file, in the order kernels first use them. */
  readonly wgsl: readonly { readonly file: string; readonly sha256: string }[];
}

export async function sha256Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export async function userKernelIdentity(loaded: LoadedManifest): Promise<UserKernelIdentity> {
  const files = new Map<string, string>();
  for (const w of loaded.wgsl) if (!files.has(w.file)) files.set(w.file, w.text);
  const wgsl = await Promise.all([...files].map(async ([file, text]) => ({ file, sha256: await sha256Hex(text) })));
  return { name: loaded.manifest.name, manifestSha256: await sha256Hex(loaded.text), wgsl };
}

/** "lab-add@3f2a9c01d4e5": the name with the manifest hash's first 12 hex digits. */
export function shortKernelId(id: Pick<UserKernelIdentity, 'name' | 'manifestSha256'>): string {
  return `${id.name}@${id.manifestSha256.slice(0, 12)}`;
}
