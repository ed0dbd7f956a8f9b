import { defineConfig } from 'vite';

// The Node CLI as one ES module (dist-cli/lab.mjs): WGSL imported with ?raw is inlined, so the
// file runs with plain node here and on a GPU server where no node_modules travel.
export default defineConfig({
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
