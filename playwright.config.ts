// e2e: the BUILT page in Debian's headless Chromium with WebGPU (SwiftShader on a machine
// without a GPU). No browser is downloaded.
import { defineConfig } from '@playwright/test';
import { CHROMIUM_PATH, chromiumArgs } from './src/cli/chromium';

export default defineConfig({
  testDir: 'e2e',
  workers: 1,
  retries: 0,
  timeout: 180_000,
  reporter: [['list']],
  use: {
    baseURL: 'http://127.0.0.1:4173/',
    launchOptions: { executablePath: CHROMIUM_PATH, args: chromiumArgs() },
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: 'npx vite build && npx vite preview --port 4173 --strictPort',
    url: 'http://127.0.0.1:4173',
    reuseExistingServer: false,
    timeout: 120_000,
  },
});
