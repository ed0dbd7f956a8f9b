#!/usr/bin/env node
// Issue 25's "figures to report", per surface, from the project's hostile-input corpus (the fuzz
// corpus and the hostile tests): cases tried, refused with a named reason (each test asserts its
// refusal by name and message), crashed/hung or wrongly accepted (a failing test), the slowest case
// and the peak memory of the run; the fuzz corpora's own counts; the watchdog's bound and recovery.
// One vitest run per test file, under /usr/bin/time for its peak RSS. Needs the CLI bundle for the
// CLI and watchdog files (npm run build:cli). Usage:
//   node scripts/with-gpu-env.mjs node scripts/hostile-figures.mjs [--no-gpu]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const FILES = [
  ['share links, imports, schedules (fuzz)', 'src/core/input/fuzz.test.ts'],
  ['user-kernel manifests', 'src/core/manifest/hostile.test.ts'],
  ['GGUF headers, hyperparameters, ggml text', 'src/core/census/hostile-census.test.ts'],
  ['CLI arguments, servers', 'src/cli/hostile-cli.test.ts'],
  ['stored runs (IndexedDB)', 'src/storage/hostile-storage.test.ts'],
  ['hung kernels, files named by --kernel', 'src/cli/user-kernel-as-written.test.ts'],
];
const noGpu = process.argv.includes('--no-gpu');
const dir = mkdtempSync(join(tmpdir(), 'hostile-figures-'));
const rows = [];
const extra = [];
for (const [surface, file] of FILES) {
  if (noGpu && file.startsWith('src/cli/user-kernel')) continue;
  const json = join(dir, `${rows.length}.json`);
  const r = spawnSync('/usr/bin/time', ['-f', 'peak-rss-kb %M', 'npx', 'vitest', 'run', file, '--reporter=default', '--reporter=json', `--outputFile.json=${json}`], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const peakKb = Number(/peak-rss-kb (\d+)/.exec(r.stderr)?.[1] ?? NaN);
  let report;
  try {
    report = JSON.parse(readFileSync(json, 'utf8'));
  } catch {
    rows.push({ surface, file, tried: '—', refused: '—', failed: `no report (exit ${r.status})`, slowest: '—', peak: peakKb });
    continue;
  }
  // Per top-level describe: the surface's parts.
  const groups = new Map();
  for (const t of report.testResults.flatMap((f) => f.assertionResults)) {
    const g = t.ancestorTitles[0] ?? file;
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g).push(t);
  }
  for (const [g, tests] of groups) {
    const slowest = tests.reduce((a, b) => ((b.duration ?? 0) > (a.duration ?? 0) ? b : a));
    const bad = tests.filter((t) => t.status === 'failed');
    rows.push({ surface: `${surface}: ${g}`, file, tried: tests.length, refused: tests.filter((t) => t.status === 'passed').length, failed: bad.length ? `${bad.length} (${bad.map((t) => t.title).join('; ').slice(0, 120)})` : '0', slowest: `${((slowest.duration ?? 0) / 1000).toFixed(2)} s (${slowest.title.slice(0, 60)})`, peak: peakKb });
  }
  // The tests' own printed figures (fuzz corpora counts, slowest refusals, the watchdog's bound and recovery).
  for (const line of `${r.stdout}\n${r.stderr}`.replace(/\x1b\[[0-9;]*m/g, '').split('\n')) if (/fuzz figures|^\w+ +tried|corpus:|watchdog|recovered/.test(line) && !line.includes('"')) extra.push(line.trim());
}
const head = ['surface', 'cases', 'refused by name', 'crashed/hung or wrongly accepted', 'slowest case', 'peak RSS MB'];
const table = rows.map((r) => [r.surface, String(r.tried), String(r.refused), String(r.failed), r.slowest, Number.isFinite(r.peak) ? (r.peak / 1024).toFixed(0) : '—']);
const widths = head.map((h, j) => Math.max(h.length, ...table.map((t) => t[j].length)));
const line = (cells) => cells.map((c, j) => c.padEnd(widths[j])).join(' | ');
console.log(line(head));
console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
for (const t of table) console.log(line(t));
if (extra.length) console.log(`\nas the tests printed them:\n${[...new Set(extra)].join('\n')}`);
