import { defineConfig } from 'vite';

// The bench's TensorFlow.js peer as its own ES module (dist-cli/peer-tfjs.mjs), tfjs bundled in,
// so GPU servers without node_modules can run `bench --peer tfjs`. lab.mjs loads it by dynamic
// import; it is built after vite.cli.config.ts, which empties dist-cli/.
export default defineConfig({
  logLevel: 'warn',
  build: {
    ssr: 'src/cli/peer-tfjs.ts',
    outDir: 'dist-cli',
    emptyOutDir: false,
    target: 'node20',
    minify: false,
    rollupOptions: { output: { entryFileNames: 'peer-tfjs.mjs', codeSplitting: false } },
  },
  ssr: { noExternal: true },
});
