// A short hash of what decides a kernel's output and speed: the native WGSL, the ops, codegen
// and schedules. Stamped on every stored result, so results of older code show as stale.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

function files(dir) {
  return readdirSync(dir)
    .flatMap((name) => {
      const p = join(dir, name);
      return statSync(p).isDirectory() ? files(p) : [p];
    })
    .filter((p) => !/\.test\.ts$|__snapshots__/.test(p));
}

export function codeHash(root) {
  const h = createHash('sha256');
  const dirs = ['kernels', 'src/core/ops', 'src/core/codegen', 'src/core/schedule'].map((d) => join(root, d));
  for (const f of dirs.flatMap(files).sort()) {
    h.update(relative(root, f));
    h.update('\0');
    h.update(readFileSync(f));
  }
  return h.digest('hex').slice(0, 12);
}
