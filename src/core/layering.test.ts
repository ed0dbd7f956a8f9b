// src/core's modules import one another without a circle: the families own codegen and name
// the case through ops/case.ts (a leaf), so ops → schedule → families never leads back to ops.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(__dirname);

/** Every non-test module below src/core. */
const sources = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .map((name) => join(dir, name));

/** Relative imports and re-exports of a module (type-only ones too: a circle of types is still one). */
function imports(file: string): string[] {
  const code = readFileSync(file, 'utf8');
  return [...code.matchAll(/^(?:import|export)[^;]*?from '(\.[^']+)'/gms)].flatMap(([, spec]) => {
    const base = join(dirname(file), spec);
    return [`${base}.ts`, join(base, 'index.ts')].filter((p) => existsSync(p)).slice(0, 1);
  });
}

/** A circle through `start`, as the path that closes it, or null. */
function circleFrom(start: string, graph: Map<string, string[]>): string[] | null {
  const seen = new Set<string>();
  const walk = (at: string, path: string[]): string[] | null => {
    for (const next of graph.get(at) ?? []) {
      if (next === start) return [...path, next];
      if (seen.has(next)) continue;
      seen.add(next);
      const found = walk(next, [...path, next]);
      if (found) return found;
    }
    return null;
  };
  return walk(start, [start]);
}

describe('src/core layering', () => {
  it('has no import circle', () => {
    const files = sources(root);
    const graph = new Map(files.map((f) => [f, imports(f)]));
    expect([...graph.values()].flat().length, 'the import scan finds imports').toBeGreaterThan(100);
    const circles = files.map((f) => circleFrom(f, graph)).filter((c): c is string[] => c !== null);
    expect(circles.map((c) => c.map((f) => relative(root, f)).join(' → '))).toEqual([]);
  });
});
