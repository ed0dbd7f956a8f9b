#!/usr/bin/env node
// `npm run bench:share`: the two performance targets of stored and shared results, as a table.
//   1. the share link of a full lane over the four ops stays under 8 KB of URL: a lane with the
//      real shape matrix of every op (synthesized), and real lane files given with --lane FILE
//      (`npm run lab -- lane --json FILE` writes one; SwiftShader takes ~20 minutes);
//   2. the History view renders 1,000 stored runs in under 1 s, in headless Chromium (Debian's):
//      the built page, its database seeded with 1,000 runs, then the History tab timed from the
//      click to the last row and the charts on screen.
// The lab's TypeScript (share.ts, runs.ts, sample results) is loaded through Vite, as the page is.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values: args } = parseArgs({ options: { lane: { type: 'string', multiple: true }, runs: { type: 'string', default: '1000' }, repeats: { type: 'string', default: '5' } } });
const RUNS = Number(args.runs);
const REPEATS = Number(args.repeats);
const URL_BUDGET = 8 * 1024;
const RENDER_BUDGET_MS = 1000;

const { createServer, build, preview } = await import('vite');

/** The lab's modules, compiled by Vite (its defines, ?raw imports and all). */
async function labModules() {
  const server = await createServer({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'error', server: { middlewareMode: true, hmr: false }, appType: 'custom' });
  try {
    const load = (p) => server.ssrLoadModule(p);
    return {
      share: await load('/src/core/report/share.ts'),
      samples: await load('/test/fixtures/sample-results.ts'),
      runs: await load('/src/storage/runs.ts'),
      json: await load('/src/core/report/json.ts'),
      adapter: await load('/src/core/adapter.ts'),
      chromium: await load('/src/cli/chromium.ts'),
    };
  } finally {
    await server.close();
  }
}

function table(headers, rows) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => String(c).padEnd(widths[i])).join('  ').trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

async function shareRows(m) {
  const base = 'http://127.0.0.1:4173/';
  const lanes = [['synthesized: every op’s whole matrix, repeat 5', m.samples.sampleLane()]];
  for (const file of args.lane ?? []) lanes.push([`real lane: ${file}`, JSON.parse(readFileSync(file, 'utf8'))]);
  const rows = [];
  for (const [what, lane] of lanes) {
    const shapes = lane.pairs.reduce((n, p) => n + p.shapes.length, 0);
    const exact = await m.share.encodeShare(lane, m.share.platformCodec, undefined, Infinity);
    const payload = await m.share.encodeShare(lane);
    const url = m.share.shareUrl(base, payload);
    const digits = m.share.shareRounding(payload);
    rows.push([
      what,
      `${lane.pairs.map((p) => p.op).join(', ')} (${shapes} shapes)`,
      `${(JSON.stringify(lane).length / 1024).toFixed(1)} KB`,
      `${((base.length + 3 + exact.length) / 1024).toFixed(2)} KB`,
      `${(url.length / 1024).toFixed(2)} KB`,
      digits === null ? 'exact' : `${digits} significant digits`,
      url.length < URL_BUDGET ? 'pass' : 'FAIL',
    ]);
  }
  return table(['lane', 'ops', 'JSON', 'exact link', 'link', 'numbers', '< 8 KB'], rows);
}

/** 1,000 runs as a user accumulates them: mostly Level 1, some lanes, some failures, a third stale. */
function seedRecords(m, adapter) {
  const ops = [
    ['ADD', ['4096x128', '2048x128 inplace', '4096x64 broadcast-row', '4093x37']],
    ['RMS_NORM', ['4096x512', '64x512', '128x32x16 src0-permuted']],
    ['RMS_NORM_BACK', ['4096x512', '1024x256']],
    ['MUL_MAT', ['256x256x256', '512x512x512', '1024x64x4096']],
  ];
  const records = [];
  const t0 = Date.parse('2026-01-01T00:00:00.000Z');
  for (let i = 0; i < RUNS; i++) {
    const savedAt = new Date(t0 + i * 3_600_000).toISOString();
    const [op, shapes] = ops[i % ops.length];
    const label = shapes[i % shapes.length];
    let rec;
    if (i % 25 === 7) {
      rec = m.runs.runRecord('lane', { result: { ...m.samples.sampleLane({ adapter, seed: i, startedAt: savedAt }) } }, savedAt);
    } else if (i % 50 === 3) {
      rec = m.runs.runRecord('level1', { error: { name: 'ScheduleRefusal', message: `schedule refused: workgroupSize 1024 exceeds maxComputeInvocationsPerWorkgroup 256 (run ${i})` }, adapter, request: { op, dims: label.split(' ')[0].split('x').map(Number), variant: { kind: 'auto' } } }, savedAt);
    } else {
      const medianNs = 20_000 + ((i * 7919) % 500_000) + i * 13.37;
      rec = m.runs.runRecord(
        'level1',
        {
          result: m.samples.sampleLevel1({
            op,
            shape: label.split(' ')[0],
            layout: label.split(' ')[1] ?? 'contiguous',
            label,
            variant: i % 2 ? 'generated' : 'native',
            adapter,
            startedAt: savedAt,
            timing: { runs: 400, minNs: medianNs * 0.95, medianNs, maxNs: medianNs * 1.4, resolutionNs: 1, method: 'timestamp', spanNs: medianNs * 400, spanShort: false, note: 'serialized latency' },
          }),
        },
        savedAt,
      );
    }
    // A third of the history was made by older code: stale.
    if (i < RUNS / 3) rec = { ...rec, codeHash: 'old0code0000', labVersion: '0.0.9' };
    records.push(rec);
  }
  return records;
}

async function historyRows(m) {
  const outDir = mkdtempSync(join(tmpdir(), 'kernel-lab-bench-'));
  const lines = [];
  let server;
  let browser;
  try {
    await build({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'error', build: { outDir, emptyOutDir: true } });
    server = await preview({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'error', build: { outDir }, preview: { port: 0, host: '127.0.0.1' } });
    const url = server.resolvedUrls.local[0];
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: m.chromium.CHROMIUM_PATH, args: m.chromium.chromiumArgs() });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${url}#/history`);
    await page.getByTestId('history-empty').waitFor({ timeout: 60_000 });
    const adapter = await page.evaluate(() => window.__labCall('adapter', []).then((r) => r.ok));
    const records = seedRecords(m, adapter);
    const storedBytes = JSON.stringify(records).length;
    await page.evaluate(
      (recs) =>
        new Promise((resolve, reject) => {
          const open = indexedDB.open('kernel-lab');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const tx = open.result.transaction('runs', 'readwrite');
            for (const r of recs) tx.objectStore('runs').add(r);
            tx.oncomplete = () => {
              open.result.close();
              resolve();
            };
            tx.onerror = () => reject(tx.error);
          };
        }),
      records,
    );
    /** From the tab's click to every row and the charts painted. */
    const timeHistory = () =>
      page.evaluate(async (n) => {
        location.hash = '#/kernel';
        await new Promise((r) => setTimeout(r, 50));
        const t0 = performance.now();
        document.querySelector('[data-testid="tab-history"]').click();
        for (;;) {
          await new Promise((r) => requestAnimationFrame(r));
          const rows = document.querySelectorAll('[data-testid="history-row"]').length;
          const charted = document.querySelector('[data-testid="history-charts"] .uplot');
          if (rows === n && charted) break;
          if (performance.now() - t0 > 30_000) throw new Error(`only ${rows} rows after 30 s`);
        }
        // One more frame: the paint after the last row went in.
        await new Promise((r) => requestAnimationFrame(r));
        return performance.now() - t0;
      }, RUNS);
    // First after a reload (nothing cached), then warm (the tab opened again).
    await page.reload();
    await page.getByTestId('kernel-view').or(page.getByTestId('history-view')).first().waitFor({ timeout: 60_000 });
    const cold = await timeHistory();
    const warm = [];
    for (let i = 0; i < REPEATS; i++) warm.push(await timeHistory());
    const all = [cold, ...warm];
    lines.push(
      table(
        ['runs stored', 'lane runs', 'stale', 'stored JSON', 'first open after reload', `median of ${REPEATS} re-opens`, 'max', '< 1 s'],
        [
          [
            RUNS,
            records.filter((r) => r.kind === 'lane').length,
            records.filter((r) => r.codeHash !== m.json.CODE_HASH).length,
            `${(storedBytes / 1024 / 1024).toFixed(1)} MB`,
            `${cold.toFixed(0)} ms`,
            `${median(warm).toFixed(0)} ms`,
            `${Math.max(...all).toFixed(0)} ms`,
            Math.max(...all) < RENDER_BUDGET_MS ? 'pass' : 'FAIL',
          ],
        ],
      ),
    );
    lines.push(`(${await browser.version()} headless, ${adapter.vendor} ${adapter.architecture}; time from the History tab's click to ${RUNS} rows and the charts painted)`);
  } finally {
    await browser?.close();
    await new Promise((r) => (server ? server.httpServer.close(r) : r()));
    rmSync(outDir, { recursive: true, force: true });
  }
  return lines.join('\n');
}

const m = await labModules();
console.log('Share link of a full lane over the four ops (target: URL < 8 KB)\n');
console.log(await shareRows(m));
console.log(`\nHistory view with ${RUNS} stored runs in headless Chromium (target: < 1 s)\n`);
console.log(await historyRows(m));
