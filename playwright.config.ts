// e2e: the BUILT page in Debian's headless Chromium with WebGPU (SwiftShader on a machine
// without a GPU). No browser is downloaded.
import { defineConfig } from '@playwright/test';
import { CHROMIUM_PATH, chromiumArgs } from './src/cli/chromium';

/**
 * The e2e server's own port: not 4173, where `npm start` serves the lab, so `npm test` passes
 * while the lab runs. E2E_PORT overrides it.
 */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4279);

export default defineConfig({
  testDir: 'e2e',
  workers: 1,
  retries: 0,
  timeout: 180_000,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}/`,
    launchOptions: { executablePath: CHROMIUM_PATH, args: chromiumArgs() },
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: `npx vite build && npx vite preview --port ${E2E_PORT} --strictPort`,
    url: `http://127.0.0.1:${E2E_PORT}`,
    reuseExistingServer: false,
    timeout: 120_000,
  },
});
