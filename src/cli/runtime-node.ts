// The Node runtime: Dawn from the 'webgpu' package (or a dawn.node named by KERNEL_LAB_DAWN, as
// on a GPU server where no node_modules travel), behind the same Engine the page's worker uses.
import { createRequire } from 'node:module';
import { AdapterError } from '../core/errors';
import { Engine } from '../gpu/engine';
import { loadCalibration, saveCalibration } from './calibration-cache';

interface DawnModule {
  create(flags: string[]): GPU;
  globals: Record<string, unknown>;
}

async function loadDawn(): Promise<DawnModule> {
  const path = process.env.KERNEL_LAB_DAWN;
  try {
    if (path) return createRequire(import.meta.url)(path) as DawnModule;
    return (await import('webgpu')) as unknown as DawnModule;
  } catch (e) {
    throw new AdapterError(`could not load Dawn (${path ? `KERNEL_LAB_DAWN=${path}` : "the 'webgpu' package"}): ${(e as Error).message}`);
  }
}

/**
 * The Dawn toggles the lab enables: shader-f16 on NVIDIA always (Dawn hides it there by default;
 * no effect elsewhere), and unsafe APIs — experimental features such as
 * chromium-experimental-subgroup-matrix — only on request (--unsafe-apis or KERNEL_LAB_UNSAFE_APIS=1).
 */
export function dawnToggles(unsafeApis = process.env.KERNEL_LAB_UNSAFE_APIS === '1', extra = process.env.KERNEL_LAB_DAWN_TOGGLES ?? ''): string[] {
  // KERNEL_LAB_DAWN_TOGGLES (comma-separated) is for diagnosis only, e.g. what robustness costs
  // (disable_robustness): browsers never offer such toggles, and the adapter's description names them.
  const more = extra.split(',').map((t) => t.trim()).filter((t) => /^[a-z0-9_]+$/.test(t));
  return ['vulkan_enable_f16_on_nvidia', ...(unsafeApis ? ['allow_unsafe_apis'] : []), ...more];
}

/** Dawn's flags: unquantized timestamps always, and the toggles above. */
export function dawnFlags(toggles: readonly string[] = dawnToggles()): string[] {
  return ['disable-dawn-features=timestamp_quantization', `enable-dawn-features=${toggles.join(',')}`];
}

export async function openNodeEngine(deviceMatch?: string, timestamps = true): Promise<Engine & { close(): Promise<void>; gpu: GPU }> {
  const dawn = await loadDawn();
  // WebGPU's enums (GPUBufferUsage…) are globals in a browser; Dawn hands them over here.
  for (const [k, v] of Object.entries(dawn.globals)) if (!(k in globalThis)) (globalThis as Record<string, unknown>)[k] = v;
  const toggles = dawnToggles();
  const gpu = dawn.create(dawnFlags(toggles));
  const copyMiB = Number(process.env.KERNEL_LAB_COPY_MB) || undefined;
  const engine = new Engine(() => gpu, { runtime: 'node', deviceMatch, timestamps, loadCalibration, onCalibration: (c) => void saveCalibration(c), calibrationCopyMiB: copyMiB, dawnToggles: toggles });
  // The same Dawn GPU object: a peer (the bench's TensorFlow.js) opens its own device on it.
  return Object.assign(engine, { gpu });
}
