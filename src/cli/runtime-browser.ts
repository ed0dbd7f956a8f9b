// The browser runtime: headless Chromium (Debian's, through Playwright) opens the built page,
// and every LabApi call runs in that page's worker — the same code a user's browser runs.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AdapterError, LabError } from '../core/errors';
import type { LabApi, Progress, ProgressFn } from '../worker/api';
import { CHROMIUM_PATH, chromiumArgs } from './chromium';
import { projectRoot } from './project-root';
import { serveStatic } from './static-server';
import { buildIfStale } from '../../scripts/build-if-stale.mjs';

/** Builds dist/ when it is missing or older than the sources. */
export async function ensurePageBuilt(root = projectRoot()): Promise<string> {
  const dist = join(root, 'dist');
  await buildIfStale(root, 'vite.config.ts', join(dist, 'index.html'), ['src', 'kernels', 'index.html', 'public', 'vite.config.ts']);
  return dist;
}

type Remote = { ok: unknown } | { error: { name: string; message: string } };

export async function openBrowserEngine(deviceMatch?: string, timestamps = true): Promise<LabApi & { close(): Promise<void> }> {
  if (!existsSync(CHROMIUM_PATH)) throw new AdapterError(`no Chromium at ${CHROMIUM_PATH}: apt-get install -y chromium (or set KERNEL_LAB_CHROMIUM)`);
  const dist = await ensurePageBuilt();
  const { url, server } = await serveStatic(dist);
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: chromiumArgs() });
  const close = async () => {
    await browser.close().catch(() => undefined);
    server.close();
  };
  try {
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    let progress: ProgressFn | undefined;
    await page.exposeFunction('__labProgress', (p: Progress) => progress?.(p));
    const params = new URLSearchParams();
    if (deviceMatch) params.set('device', deviceMatch);
    if (!timestamps) params.set('timer', 'wallclock');
    const query = params.size ? `?${params}` : '';
    await page.goto(url + query);
    await page.waitForFunction(() => (window as unknown as { __labReady?: boolean }).__labReady === true, null, { timeout: 30_000 }).catch(() => {
      throw new LabError(`the page did not start its worker${pageErrors.length ? `: ${pageErrors.join('; ')}` : ''}`);
    });
    const call = async (method: string, args: unknown[], onProgress?: ProgressFn) => {
      progress = onProgress;
      const r = (await page.evaluate(([m, a]) => (window as unknown as { __labCall(m: string, a: unknown[]): Promise<Remote> }).__labCall(m, a), [method, args] as const)) as Remote;
      progress = undefined;
      if ('error' in r) {
        const err = new LabError(r.error.message);
        err.name = r.error.name;
        throw err;
      }
      return r.ok;
    };
    // Every LabApi method forwards the same way; a trailing function argument is the progress callback.
    const api = new Proxy({} as LabApi & { close(): Promise<void> }, {
      get(_t, prop: string) {
        if (prop === 'close') return close;
        if (prop === 'then') return undefined;
        return (...args: unknown[]) => {
          const last = args[args.length - 1];
          const onProgress = typeof last === 'function' ? (last as ProgressFn) : undefined;
          return call(prop, onProgress ? args.slice(0, -1) : args, onProgress);
        };
      },
    });
    return api;
  } catch (e) {
    await close();
    throw e;
  }
}
