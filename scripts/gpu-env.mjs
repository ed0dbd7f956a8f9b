// The environment a process needs to find a Vulkan driver: on a machine without a GPU driver,
// SwiftShader from Debian's chromium package (its loader and ICD live in /usr/lib/chromium).
// The loader's library path is fixed at process start, so callers spawn a child with this env.
import { existsSync, readdirSync } from 'node:fs';

export function gpuEnv(base = process.env) {
  const env = { ...base };
  const swiftshaderIcd = '/usr/lib/chromium/vk_swiftshader_icd.json';
  const hasDriver = ['/usr/share/vulkan/icd.d', '/etc/vulkan/icd.d'].some((d) => existsSync(d) && readdirSync(d).length > 0);
  if (!env.VK_ICD_FILENAMES && !env.VK_DRIVER_FILES && !hasDriver && existsSync(swiftshaderIcd)) {
    env.VK_ICD_FILENAMES = swiftshaderIcd;
    env.LD_LIBRARY_PATH = ['/usr/lib/chromium', env.LD_LIBRARY_PATH].filter(Boolean).join(':');
  }
  return env;
}
