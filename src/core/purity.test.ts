// src/core is pure TypeScript: no DOM, no navigator.gpu, no Node built-ins, so it runs
// unchanged in vitest, the page, its worker and the CLI.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(__dirname);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === '__snapshots__' ? [] : sources(p);
    return /\.ts$/.test(name) && !/\.test\.ts$/.test(name) ? [p] : [];
  });
}

describe('src/core purity', () => {
  it('uses no DOM, no WebGPU objects and no Node built-ins', () => {
    const files = sources(root);
    expect(files.length).toBeGreaterThan(20);
    const forbidden = [/\bnavigator\b/, /\bdocument\./, /\bwindow\./, /\bGPUBufferUsage\b/, /\bGPUDevice\b/, /from 'node:/, /\bprocess\./];
    const offenders = files.flatMap((f) => {
      const code = readFileSync(f, 'utf8').replace(/\/\/.*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, '');
      return forbidden.filter((re) => re.test(code)).map((re) => `${f}: ${re}`);
    });
    expect(offenders).toEqual([]);
  });
});

describe('layers', () => {
  it('the page reads result and request types from core, never through src/gpu', () => {
    const ui = join(root, '..', 'ui');
    const files = (function walk(dir: string): string[] {
      return readdirSync(dir).flatMap((name) => {
        const p = join(dir, name);
        return statSync(p).isDirectory() ? walk(p) : /\.tsx?$/.test(name) ? [p] : [];
      });
    })(ui);
    expect(files.length).toBeGreaterThan(20);
    const offenders = files.filter((f) => /from '(\.\.\/)+gpu\//.test(readFileSync(f, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
