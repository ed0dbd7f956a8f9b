#!/usr/bin/env node
// `npm run lab -- …`: rebuilds the CLI bundle when a source is newer, then runs it in a child
// node whose environment can find a Vulkan driver (SwiftShader from Debian's chromium when the
// machine has no GPU driver), since the loader's search path is fixed at process start.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfStale } from './build-if-stale.mjs';
import { gpuEnv } from './gpu-env.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bundle = join(root, 'dist-cli', 'lab.mjs');

const built = await buildIfStale(root, 'vite.cli.config.ts', bundle, ['src', 'kernels', 'vite.cli.config.ts', 'package.json']);
// The TensorFlow.js peer bundle (bench --peer tfjs); the CLI build above empties dist-cli/.
if (built || !existsSync(join(root, 'dist-cli', 'peer-tfjs.mjs'))) {
  await buildIfStale(root, 'vite.peer.config.ts', join(root, 'dist-cli', 'peer-tfjs.mjs'), ['src/cli/peer-tfjs.ts', 'vite.peer.config.ts', 'package.json']).catch((e) => {
    process.stderr.write(`kernel-lab: the TensorFlow.js peer bundle was not built (${e.message}); bench --peer tfjs will say so\n`);
  });
}

const env = gpuEnv();
const child = spawnSync(process.execPath, [bundle, ...process.argv.slice(2)], { stdio: 'inherit', env });
process.exit(child.status ?? 1);
