import { defineConfig } from 'vitest/config';
import solid from 'vite-plugin-solid';

// The page: a static site (index.html + a module worker). Tests: vitest runs src/**/*.test.ts.
export default defineConfig({
  base: './',
  plugins: [solid()],
  worker: { format: 'es' },
  build: { target: 'es2022', outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1024 },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Dawn (node runtime tests) and fake-indexeddb are happiest in one process per file.
    pool: 'forks',
  },
});
