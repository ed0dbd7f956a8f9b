// What the CLI hands a pull request: the result's share link (printed) and, with --markdown
// FILE, the same GitHub markdown the page's "Copy for PR" makes. The link opens the result in
// the page served at the share base: the hosted page (package.json homepage) unless told otherwise.
import { writeOutput } from './output-paths';
import { UsageError } from '../core/errors';
import type { ResultJson } from '../core/report/json';
import { resultMarkdown } from '../core/report/markdown';
import { encodeShare, shareUrl } from '../core/report/share';

declare const __LAB_HOMEPAGE__: string | undefined;

/** `npm start` serves the page here: the base when package.json names no homepage. */
export const LOCAL_SHARE_BASE = 'http://127.0.0.1:4173/';
/** Where the built page is published (package.json `homepage`, baked into the CLI bundle). */
export const DEFAULT_SHARE_BASE: string = typeof __LAB_HOMEPAGE__ === 'string' && __LAB_HOMEPAGE__ ? __LAB_HOMEPAGE__ : LOCAL_SHARE_BASE;
export const SHARE_BASE_ENV = 'KERNEL_LAB_SHARE_BASE';

export const SHARE_OPTIONS = {
  markdown: { type: 'string' },
  'share-base': { type: 'string' },
} as const;

/** --share-base, else $KERNEL_LAB_SHARE_BASE, else package.json's homepage; must be http(s). */
export function shareBase(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const base = flag ?? env[SHARE_BASE_ENV] ?? DEFAULT_SHARE_BASE;
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new UsageError(`--share-base '${base}' is not a URL (e.g. https://example.org/kernel-lab/)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--share-base must be an http(s) URL, got '${base}'`);
  return url.href;
}

/** Prints the share link; writes the markdown (with the link) when a file is named. */
export async function writeShareOutputs(result: ResultJson, opts: { markdown?: string; base: string }, print: (line: string) => void): Promise<void> {
  let link: string | undefined;
  try {
    link = shareUrl(opts.base, await encodeShare(result));
    print(`share link: ${link}`);
  } catch (e) {
    // A result too large for a link still gets its markdown; the JSON file carries it whole.
    print(`share link: none (${(e as Error).message})`);
  }
  if (opts.markdown) writeOutput('--markdown', opts.markdown, resultMarkdown(result, link));
}
