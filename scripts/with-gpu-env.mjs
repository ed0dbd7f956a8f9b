#!/usr/bin/env node
// Runs a command with gpuEnv() (see gpu-env.mjs): `node scripts/with-gpu-env.mjs vitest run`.
import { spawnSync } from 'node:child_process';
import { gpuEnv } from './gpu-env.mjs';

const [cmd, ...args] = process.argv.slice(2);
const child = spawnSync(cmd, args, { stdio: 'inherit', env: gpuEnv(), shell: process.platform === 'win32' });
process.exit(child.status ?? 1);
