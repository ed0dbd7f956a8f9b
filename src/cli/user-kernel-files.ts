// `--kernel manifest.json`: the manifest and the WGSL files it names, read relative to it.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ManifestError } from '../core/manifest/errors';
import { parseManifest } from '../core/manifest/format';
import type { UserKernelSource } from '../core/manifest/source';
import { UsageError } from '../core/errors';

export function readUserKernel(path: string): UserKernelSource {
  let manifest: string;
  try {
    manifest = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`--kernel ${path}: cannot read the manifest (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const parsed = parseManifest(manifest);
  const files: Record<string, string> = {};
  parsed.kernels.forEach((k, i) => {
    if (k.wgsl.text !== undefined || k.wgsl.file in files) return;
    const full = resolve(dirname(path), k.wgsl.file);
    try {
      files[k.wgsl.file] = readFileSync(full, 'utf8');
    } catch (e) {
      throw new ManifestError(`kernels[${i}].wgsl`, `cannot read '${k.wgsl.file}' (${full}): ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  });
  return { manifest, files };
}
