// Bundles quant-dequant-check.ts and runs it as its own process under gpuEnv (Dawn does not start
// inside a vitest fork): the generated DEQUANT kernel of every Track-1 format against the CPU decode.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { QUANT_FORMATS } from '../core/quant/formats';
// @ts-expect-error plain .mjs helper without types
import { gpuEnv } from '../../scripts/gpu-env.mjs';

describe('DEQUANT kernel generated from the codec tables, on the device', () => {
  it('matches the CPU decode bit for bit for all 30 formats (ragged tails where allowed)', () => {
    // Inside the checkout (.vite/ is ignored) so the bundle's bare 'webgpu' import resolves
    // through node_modules, which ESM does not look up from a temp dir.
    mkdirSync('.vite', { recursive: true });
    const dir = mkdtempSync(join('.vite', 'quant-dequant-'));
    try {
      const bundle = join(dir, 'check.mjs');
      execFileSync('npx', ['rolldown', 'src/cli/quant-dequant-check.ts', '--format', 'esm', '--platform', 'node', '--external', 'webgpu', '-o', bundle], { stdio: 'pipe' });
      const run = spawnSync('node', [bundle], { env: gpuEnv(), encoding: 'utf8' });
      const lines = run.stdout.trim().split('\n');
      expect(run.stderr).toBe('');
      expect(lines.map((l) => l.split(' ')[0])).toEqual(QUANT_FORMATS.map((f) => f.name));
      expect(lines.filter((l) => !l.includes(' ok '))).toEqual([]);
      expect(run.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
