#!/usr/bin/env node
// `npm run lab -- …`: rebuilds the CLI bundle when a source is newer, then runs it in a child
// node whose environment can find a Vulkan driver (SwiftShader from Debian's chromium when the
// machine has no GPU driver), since the loader's search path is fixed at process start.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gpuEnv } from './gpu-env.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bundle = join(root, 'dist-cli', 'lab.mjs');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

const sources = Math.max(newestMtime(join(root, 'src')), newestMtime(join(root, 'kernels')), statSync(join(root, 'vite.cli.config.ts')).mtimeMs);
if (!existsSync(bundle) || statSync(bundle).mtimeMs < sources) {
  const { build } = await import('vite');
  await build({ configFile: join(root, 'vite.cli.config.ts'), root, logLevel: 'warn' });
}

const env = gpuEnv();
const child = spawnSync(process.execPath, [bundle, ...process.argv.slice(2)], { stdio: 'inherit', env });
process.exit(child.status ?? 1);
