// Rebuilds a Vite output when it is missing or older than any of its inputs: the CLI bundle
// (scripts/lab.mjs) and the built page the browser runtime serves (src/cli/runtime-browser.ts).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newestMtimeMs(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtimeMs(join(path, entry)));
  return newest;
}

/** Runs `vite build` with `configFile` when `output` is older than the newest of `inputs`. */
export async function buildIfStale(root, configFile, output, inputs) {
  const newest = Math.max(...inputs.map((p) => newestMtimeMs(join(root, p))));
  if (existsSync(output) && statSync(output).mtimeMs >= newest) return false;
  const { build } = await import('vite');
  await build({ root, configFile: join(root, configFile), logLevel: 'warn' });
  return true;
}
