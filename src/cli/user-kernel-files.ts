// `--kernel manifest.json`: the manifest and the WGSL files it names, read relative to it. Every
// file is checked before it is opened — a regular file (a FIFO would block open(), a device such
// as /dev/zero never ends), inside the manifest's folder, under its cap — and read capped anyway.
import { realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { ManifestError } from '../core/manifest/errors';
import { parseManifest } from '../core/manifest/format';
import type { UserKernelSource } from '../core/manifest/source';
import { UsageError } from '../core/errors';
import { MANIFEST_CAPS, MAX_WGSL_FILE_BYTES } from '../core/input/caps';
import { notRegularFile, readCappedText } from './read-capped';

const code = (e: unknown) => (e as NodeJS.ErrnoException).code ?? (e as Error).message;

/** What is wrong with reading `path` as a text file of at most `maxBytes`, or null when nothing is. */
function fileProblem(path: string, maxBytes: number): string | null {
  let st;
  try {
    st = statSync(path); // follows symlinks: a link to /dev/zero is a device
  } catch (e) {
    return `cannot read it (${code(e)})`;
  }
  const what = notRegularFile(st);
  if (what) return `it is ${what}, not a regular file`;
  if (st.size > maxBytes) return `it is ${st.size} bytes, over the cap of ${maxBytes}`;
  return null;
}

export function readUserKernel(path: string): UserKernelSource {
  const problem = fileProblem(path, MANIFEST_CAPS.chars);
  if (problem) throw new UsageError(`--kernel ${path}: ${problem}`);
  const manifest = readCappedText(path, MANIFEST_CAPS.chars, `--kernel ${path}`);
  const parsed = parseManifest(manifest);
  const folder = realpathSync(dirname(resolve(path)));
  const files: Record<string, string> = {};
  const names = [
    ...parsed.kernels.map((k, i) => ({ wgsl: k.wgsl, where: `kernels[${i}].wgsl` })),
    ...parsed.variants.flatMap((v, j) => v.manifest.kernels.map((k, i) => ({ wgsl: k.wgsl, where: `variants[${j}].kernels[${i}].wgsl` }))),
  ];
  for (const { wgsl, where } of names) {
    if (wgsl.text !== undefined || wgsl.file in files) continue;
    const full = resolve(folder, wgsl.file);
    // Relative to the manifest and inside its folder, links resolved: a manifest names its own files, not /etc/….
    let real: string;
    try {
      real = realpathSync(full);
    } catch (e) {
      throw new ManifestError(where, `cannot read '${wgsl.file}' (${full}): ${code(e)}`);
    }
    const rel = relative(folder, real);
    if (isAbsolute(wgsl.file) || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
      throw new ManifestError(where, `'${wgsl.file}' is outside the manifest's folder (${folder}): a manifest names WGSL files beside it or below it`);
    }
    const bad = fileProblem(real, MAX_WGSL_FILE_BYTES);
    if (bad) throw new ManifestError(where, `cannot read '${wgsl.file}' (${full}): ${bad}`);
    try {
      files[wgsl.file] = readCappedText(real, MAX_WGSL_FILE_BYTES, wgsl.file);
    } catch (e) {
      throw new ManifestError(where, `cannot read '${wgsl.file}' (${full}): ${(e as Error).message}`);
    }
  }
  return { manifest, files };
}
