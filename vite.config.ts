import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Server } from 'node:http';
import type { Plugin } from 'vite';
import solid from 'vite-plugin-solid';
import { defineConfig } from 'vitest/config';

const { version, homepage } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string; homepage?: string };
const codeHash = (await import('./scripts/code-hash.mjs')).codeHash(fileURLToPath(new URL('.', import.meta.url)));

/**
 * index.html's Content-Security-Policy allows only the site's own styles; the dev server injects
 * CSS as <style> elements, so `vite` (dev only) relaxes style-src. The built page keeps it strict.
 */
const devStyleCsp: Plugin = {
  name: 'kernel-lab:dev-style-csp',
  apply: 'serve',
  transformIndexHtml: (html) => html.replace("style-src 'self';", "style-src 'self' 'unsafe-inline';"),
};

/**
 * vite preview and dev read request lines and headers up to the lab's cap, MAX_REQUEST_HEADER_BYTES
 * in src/core/input/caps.ts (written out here: the config imports no extensionless TS; a test
 * pins the two equal). Node's default, 16 KiB, answered a 14 KB run query with a bare 431.
 */
const MAX_REQUEST_HEADER_BYTES = 64 * 1024;
const requestLimit: Plugin = {
  name: 'kernel-lab:request-limit',
  configureServer: (server) => void (server.httpServer && ((server.httpServer as Server & { maxHeaderSize: number }).maxHeaderSize = MAX_REQUEST_HEADER_BYTES)),
  configurePreviewServer: (server) => void (server.httpServer && ((server.httpServer as Server & { maxHeaderSize: number }).maxHeaderSize = MAX_REQUEST_HEADER_BYTES)),
};

// The page: a static site (index.html + a module worker). Tests: vitest runs src/**/*.test.ts.
export default defineConfig({
  define: { __LAB_VERSION__: JSON.stringify(version), __CODE_HASH__: JSON.stringify(codeHash), __LAB_HOMEPAGE__: JSON.stringify(homepage ?? '') },
  base: './',
  plugins: [solid(), devStyleCsp, requestLimit],
  worker: { format: 'es' },
  build: { target: 'es2022', outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1024 },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // One process per file: CLI tests spawn Dawn children, fake-indexeddb keeps global state.
    pool: 'forks',
  },
});
