// How the lab starts Debian's Chromium headless with WebGPU: shared by the CLI's browser
// runtime and the Playwright e2e config. No browser is downloaded.
export const CHROMIUM_PATH = process.env.KERNEL_LAB_CHROMIUM ?? '/usr/bin/chromium';

export function chromiumArgs(): string[] {
  const args = [
    // WebGPU on Linux (SwiftShader without a GPU); also turns off timestamp quantization.
    '--enable-unsafe-webgpu',
    '--enable-features=Vulkan',
    // This machine's network is closed: no background connections, updates or sync.
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ];
  // Chromium refuses to run as root with its sandbox on.
  if (typeof process.getuid === 'function' && process.getuid() === 0) args.push('--no-sandbox');
  return args;
}
