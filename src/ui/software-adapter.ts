// A software adapter (SwiftShader, llvmpipe, WARP) runs WGSL on the CPU: its timings are not
// GPU numbers, and the page says so wherever it shows one.
import type { AdapterDescriptor } from '../core/adapter';

const SOFTWARE_NAMES = /swiftshader|llvmpipe|lavapipe|softpipe|microsoft basic render|\bwarp\b/i;

export function isSoftwareAdapter(a: AdapterDescriptor): boolean {
  return a.isFallbackAdapter || SOFTWARE_NAMES.test([a.vendor, a.architecture, a.device, a.description].join(' '));
}
