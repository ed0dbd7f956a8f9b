import { defineConfig } from 'vite';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const { version, homepage } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string; homepage?: string };
const codeHash = (await import('./scripts/code-hash.mjs')).codeHash(fileURLToPath(new URL('.', import.meta.url)));

// The Node CLI as one ES module (dist-cli/lab.mjs): WGSL imported with ?raw is inlined, so the
// file runs with plain node here and on a GPU server where no node_modules travel.
export default defineConfig({
  // homepage: where the built page is published (.github/workflows/pages.yml), the default share base.
  define: { __LAB_VERSION__: JSON.stringify(version), __CODE_HASH__: JSON.stringify(codeHash), __LAB_HOMEPAGE__: JSON.stringify(homepage ?? '') },
  logLevel: 'warn',
  build: {
    ssr: 'src/cli/lab.ts',
    outDir: 'dist-cli',
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    rollupOptions: { output: { entryFileNames: 'lab.mjs', codeSplitting: false } },
  },
  ssr: { external: ['webgpu', 'playwright-core'] },
});
