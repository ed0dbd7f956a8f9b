#!/usr/bin/env node
// `npm run lab -- …`: rebuilds the CLI bundle when a source is newer, then runs it in a child
// node whose environment can find a Vulkan driver (SwiftShader from Debian's chromium when the
// machine has no GPU driver), since the loader's search path is fixed at process start.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfStale } from './build-if-stale.mjs';
import { gpuEnv } from './gpu-env.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bundle = join(root, 'dist-cli', 'lab.mjs');

await buildIfStale(root, 'vite.cli.config.ts', bundle, ['src', 'kernels', 'vite.cli.config.ts', 'package.json']);

const env = gpuEnv();
const child = spawnSync(process.execPath, [bundle, ...process.argv.slice(2)], { stdio: 'inherit', env });
process.exit(child.status ?? 1);
