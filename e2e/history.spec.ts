// Results that last and travel, in the built page in headless Chromium: runs stored in
// IndexedDB survive a reload; a share link opens the same result in a fresh browser; a damaged
// link gets an error page and stores nothing; Copy for PR matches the run; a full quota is a
// clear message that loses nothing; shared strings render as text; the CSP holds.
import { chromium, expect, test, type Page } from '@playwright/test';
import { CHROMIUM_PATH, chromiumArgs } from '../src/cli/chromium';
import { encodeShare, shareUrl } from '../src/core/report/share';
import type { Level1Json } from '../src/core/report/json';
import { openLab, run, runError, variantRadio } from './lab-page';

/** Every CSP violation the page reports, collected from the first script on. */
async function watchCsp(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __cspViolations: string[] };
    w.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
}

async function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? []);
}

/** A small Level 1 run (ADD 256x16, native): quick on SwiftShader. */
async function runSmallAdd(page: Page): Promise<{ median: string; min: string; max: string }> {
  await page.getByTestId('op-select').selectOption('ADD');
  await page.getByTestId('shape-input').fill('256x16');
  await page.getByTestId('layout-select').selectOption('contiguous');
  await variantRadio(page, 'native').check();
  await run(page);
  expect(await runError(page)).toBeNull();
  await expect(page.getByTestId('result-correct')).toHaveText('yes');
  return {
    median: (await page.getByTestId('result-median').innerText()).trim(),
    min: (await page.getByTestId('result-min').innerText()).trim(),
    max: (await page.getByTestId('result-max').innerText()).trim(),
  };
}

/** How many runs this browser context has stored (0 when the lab's database was never created). */
async function storedRuns(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const names = (await indexedDB.databases()).map((d) => d.name);
    if (!names.includes('kernel-lab')) return 0;
    return new Promise<number>((resolve, reject) => {
      const open = indexedDB.open('kernel-lab');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const db = open.result;
        if (!db.objectStoreNames.contains('runs')) return resolve(0);
        const count = db.transaction('runs').objectStore('runs').count();
        count.onsuccess = () => {
          resolve(count.result);
          db.close();
        };
        count.onerror = () => reject(count.error);
      };
    });
  });
}

async function shareLinkOf(page: Page): Promise<string> {
  await page.getByTestId('share-link-button').click();
  const field = page.getByTestId('share-link');
  await expect(field).toHaveValue(/#r=2\./);
  return field.inputValue();
}

test('a Level 1 run is stored: after a reload it is still in History, with its numbers', async ({ page }, testInfo) => {
  await watchCsp(page);
  await openLab(page);
  const numbers = await runSmallAdd(page);
  await expect(page.getByTestId('save-status')).toContainText('Saved to History');
  await page.reload();
  await expect(page.getByTestId('kernel-view')).toBeVisible({ timeout: 60_000 });
  await page.getByTestId('tab-history').click();
  const rows = page.getByTestId('history-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first().getByTestId('history-what')).toHaveText('ADD 256x16 · native');
  await expect(rows.first().getByTestId('history-verdict')).toHaveText('correct');
  await expect(rows.first().getByTestId('history-headline')).toHaveText(`${numbers.median} µs [${numbers.min}–${numbers.max}]`);
  await expect(rows.first().getByTestId('stale-badge')).toHaveCount(0);
  await expect(page.getByTestId('history-latency-chart')).toBeVisible();
  await rows.first().getByTestId('history-open').click();
  const report = page.getByTestId('history-report');
  await expect(report.getByTestId('result-median')).toHaveText(numbers.median);
  await page.screenshot({ path: testInfo.outputPath('history-level1.png'), fullPage: true });
  expect(await cspViolations(page)).toEqual([]);
});

test('a failed run is stored too, with its error', async ({ page }) => {
  await openLab(page);
  await page.getByTestId('op-select').selectOption('ADD');
  await page.getByTestId('shape-input').fill('256x16');
  await variantRadio(page, 'schedule').check();
  await page.getByTestId('schedule-json').fill('{"family": "elementwise", "workgroupSize": 1024, "elementsPerThread": 1, "vectorWidth": 1}');
  await run(page);
  await expect(page.getByTestId('error')).toContainText('ScheduleRefusal');
  await expect(page.getByTestId('save-status')).toContainText('Saved to History');
  await page.getByTestId('tab-history').click();
  const row = page.getByTestId('history-row').first();
  await expect(row.getByTestId('history-verdict')).toHaveText('failed');
  await expect(row.getByTestId('history-headline')).toContainText('ScheduleRefusal: schedule');
});

test('its share link opens in a fresh browser context: the same verdict and numbers, marked a shared copy, nothing stored', async ({ page, browser }, testInfo) => {
  await openLab(page);
  const numbers = await runSmallAdd(page);
  const link = await shareLinkOf(page);
  expect(link.length).toBeLessThan(8 * 1024);

  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await watchCsp(other);
  await other.goto(link);
  await expect(other.getByTestId('shared-notice')).toContainText('Shared copy, read-only.');
  await expect(other.getByTestId('shared-notice')).toContainText('google swiftshader');
  await expect(other.getByTestId('shared-notice')).toContainText('not run here, and it is not stored');
  const result = other.getByTestId('result');
  await expect(result).toContainText('ADD 256x16 · native');
  await expect(other.getByTestId('result-correct')).toHaveText('yes');
  await expect(other.getByTestId('result-median')).toHaveText(numbers.median);
  await expect(other.getByTestId('result-min')).toHaveText(numbers.min);
  await expect(other.getByTestId('result-max')).toHaveText(numbers.max);
  await other.screenshot({ path: testInfo.outputPath('shared-report.png'), fullPage: true });
  expect(await storedRuns(other)).toBe(0);
  expect(await cspViolations(other)).toEqual([]);
  await fresh.close();
});

test('a tampered, truncated or future-version link shows the error page and stores nothing', async ({ page, browser }, testInfo) => {
  await openLab(page);
  await runSmallAdd(page);
  const link = await shareLinkOf(page);
  // A character of the CRC (the data's last 4 bytes; the third-last base64 character holds only CRC
  // bits). A flip inside the deflate stream can decode to the very same JSON (an unused symbol's code
  // length, the last byte's padding: src/core/report/share.test.ts allows only that) — no wrong
  // result, but not the refusal this test is about.
  const at = link.length - 3;
  const tampered = link.slice(0, at) + (link[at] === 'A' ? 'B' : 'A') + link.slice(at + 1);
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  for (const [bad, message] of [
    [tampered, /the link is damaged/],
    [link.slice(0, link.length - 30), /the link is damaged/],
    [link.replace('#r=2.', '#r=3.'), /made by a newer kernel-lab \(link format 3; this page reads format 2\)/],
    [link.replace('#r=2.', '#r=2~1.'), /rounding marker '~1' is not one this lab writes/],
    [link.replace('#r=2.', '#r=2~9.'), /checksum does not match/],
  ] as const) {
    await other.goto(bad);
    await other.reload();
    const error = other.getByTestId('share-error');
    await expect(error).toContainText('This share link cannot be opened');
    await expect(error).toContainText(message);
    await expect(error).toContainText('Nothing from this link was stored.');
    await expect(other.getByTestId('result')).toHaveCount(0);
  }
  await other.goto(tampered);
  await other.reload();
  await expect(other.getByTestId('share-error')).toBeVisible();
  await other.screenshot({ path: testInfo.outputPath('share-error.png'), fullPage: true });
  expect(await storedRuns(other)).toBe(0);
  await fresh.close();
});

test('Copy for PR puts markdown that matches the run, with its link, on the clipboard', async ({ page, context, baseURL }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  await openLab(page);
  const numbers = await runSmallAdd(page);
  await page.getByTestId('copy-pr-button').click();
  await expect(page.getByTestId('copy-status')).toHaveText('Markdown copied to the clipboard.');
  const shown = await page.getByTestId('pr-markdown').inputValue();
  const clipboard = await page.evaluate(() => navigator.clipboard.readText());
  expect(clipboard).toBe(shown);
  expect(shown).toContain('### kernel-lab Level 1: ADD 256x16 · native ✅ correct');
  expect(shown).toMatch(/Adapter: \*\*google swiftshader .*\(software, browser\)\*\* — software adapter, CPU timings · kernel-lab \d+\.\d+\.\d+ \(code [0-9a-f]{12}\)/);
  const row = shown.split('\n').find((l) => l.startsWith('| ADD |'))!;
  expect(row).toContain(`| ${numbers.median} [${numbers.min}–${numbers.max}] |`);
  expect(row).toMatch(/^\| ADD \| 256x16 \| native \| — \| yes \(max err /);
  const linkLine = shown.trimEnd().split('\n').pop()!;
  expect(linkLine).toMatch(/^\[Open this result in kernel-lab\]\(http:\/\/127\.0\.0\.1:\d+\/#r=2\.[A-Za-z0-9_-]+\)$/);
  // The link in the markdown opens the same result.
  await page.goto(linkLine.slice(linkLine.indexOf('](') + 2, -1));
  await expect(page.getByTestId('result-median')).toHaveText(numbers.median);
});

test('a full quota is a clear message, and the runs stored before are all kept', async ({ baseURL }, testInfo) => {
  // Chromium applies a quota override to the default browser context only, and to a database
  // opened after it: a persistent profile, opened twice.
  const profile = testInfo.outputPath('profile');
  const launch = () => chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, args: chromiumArgs(), baseURL });
  const first = await launch();
  try {
    const page = first.pages()[0] ?? (await first.newPage());
    await openLab(page);
    await runSmallAdd(page);
    await expect(page.getByTestId('save-status')).toContainText('Saved to History');
  } finally {
    await first.close();
  }
  const second = await launch();
  try {
    const page = second.pages()[0] ?? (await second.newPage());
    const cdp = await second.newCDPSession(page);
    await cdp.send('Storage.overrideQuotaForOrigin', { origin: new URL(baseURL!).origin, quotaSize: 1 });
    await openLab(page);
    await runSmallAdd(page);
    const error = page.getByTestId('save-error');
    await expect(error).toContainText('This run was not saved');
    await expect(error).toContainText('StorageQuotaError');
    await expect(error).toContainText('browser storage is full (QuotaExceededError): this level1 run was not saved. Everything stored before is kept.');
    // The run itself is still shown, and can still be shared.
    await expect(page.getByTestId('result-correct')).toHaveText('yes');
    await expect(page.getByTestId('share-link-button')).toBeEnabled();
    await page.getByTestId('tab-history').click();
    await expect(page.getByTestId('history-row')).toHaveCount(1);
    expect(await storedRuns(page)).toBe(1);
    await cdp.send('Storage.overrideQuotaForOrigin', { origin: new URL(baseURL!).origin });
  } finally {
    await second.close();
  }
});

test('strings from a shared result render as text, never as markup; inline scripts are refused', async ({ page, baseURL }) => {
  await watchCsp(page);
  const evil = '<img src=x onerror="window.__pwned=1">';
  const result: Level1Json = {
    kind: 'level1',
    schemaVersion: 1,
    labVersion: '<b>0.1.0</b>',
    codeHash: 'abc',
    op: `ADD${evil}`,
    shape: '64x4',
    layout: 'contiguous',
    label: `64x4 ${evil}`,
    variant: 'native',
    scheduleKey: null,
    schedule: null,
    fallback: null,
    correct: true,
    maxErr: 0,
    bound: 1e-6,
    correctness: { worstRatio: 0, elements: 256, checked: 256, outOfBound: 0, nonFinite: 0, guardViolations: 0, failures: [] },
    timing: { runs: 100, minNs: 1000, medianNs: 1100, maxNs: 1300, resolutionNs: 1, method: 'timestamp', spanNs: 110_000, spanShort: false, note: evil },
    flops: null,
    readBytes: 2048,
    writeBytes: 1024,
    metrics: null,
    dispatch: [1, 1, 1],
    adapter: {
      vendor: evil,
      architecture: '<script>window.__pwned=2</script>',
      device: 'd',
      description: evil,
      isFallbackAdapter: false,
      runtime: 'browser',
      features: [],
      limits: {} as Level1Json['adapter']['limits'],
      subgroupMinSize: 0,
      subgroupMaxSize: 0,
    },
    startedAt: '2026-03-01T10:00:00.000Z',
  };
  await page.goto(shareUrl(baseURL!, await encodeShare(result)));
  await expect(page.getByTestId('shared-notice')).toContainText(`${evil} <script>window.__pwned=2</script> d`);
  await expect(page.getByTestId('result')).toContainText(`ADD${evil} 64x4 ${evil}`);
  expect(await page.locator('#root img, #root script, #root b').count()).toBe(0);
  // An inline script the page did not ship never runs.
  const ran = await page.evaluate(async () => {
    const s = document.createElement('script');
    s.textContent = 'window.__inline = true';
    document.body.append(s);
    await new Promise((r) => setTimeout(r, 100));
    return (window as unknown as { __inline?: boolean; __pwned?: number }).__inline ?? (window as unknown as { __pwned?: number }).__pwned ?? null;
  });
  expect(ran).toBeNull();
  expect(await cspViolations(page)).toContainEqual(expect.stringMatching(/^script-src(-elem)? inline$/));
});

test('History compares two lane runs only after checking the native column, and deletes, exports and imports runs', async ({ page }, testInfo) => {
  await openLab(page);
  // Two stored lane runs (seeded through the page's own import, as a user would import them):
  // the second's native column moved 30%, so they are not compared.
  const lane = (startedAt: string, nativeScale: number) => ({
    kind: 'lane',
    schemaVersion: 1,
    labVersion: '0.1.0',
    codeHash: 'old0code0000',
    adapter: null as unknown,
    settings: { repeat: 3, tolerance: 0.05, seed: 1, prefer: [], control: null, undeclare: [], wallBoundMs: 10000 },
    pairs: [
      {
        op: 'ADD',
        state: 'observe',
        registryState: 'observe',
        gating: false,
        counters: { generatedDispatches: 30, nativeFallbacks: {}, undeclaredFallbacks: 0, deviceRejections: 0 },
        shapes: [
          { shape: '64x4', layout: 'contiguous', scheduleKey: 'k', nativeMedianNs: 1000 * nativeScale, generatedMedianNs: 800, speedupMedian: 1.25, speedupMin: 1.2, speedupMax: 1.3, speedups: [1.2, 1.25, 1.3], verdict: 'faster', fallback: null, note: null, nativeMetrics: null, generatedMetrics: null },
        ],
        checklist: [{ id: 'semantics', title: 'semantics exact', pass: true, evidence: '1/1' }],
        verdict: 'green',
      },
    ],
    skipped: [],
    green: true,
    startedAt,
    durationMs: 1234,
  });
  const adapter = await page.evaluate(() => (window as unknown as { __labCall(m: string, a: unknown[]): Promise<{ ok: unknown }> }).__labCall('adapter', []).then((r) => r.ok));
  const file = {
    format: 'kernel-lab-runs',
    version: 1,
    exportedAt: '2026-03-03T00:00:00.000Z',
    labVersion: '0.1.0',
    runs: [
      { kind: 'lane', adapter, savedAt: '2026-03-01T00:00:00.000Z', labVersion: '0.1.0', codeHash: 'old0code0000', result: { ...lane('2026-03-01T00:00:00.000Z', 1), adapter }, error: null, request: null },
      { kind: 'lane', adapter, savedAt: '2026-03-02T00:00:00.000Z', labVersion: '0.1.0', codeHash: 'old0code0000', result: { ...lane('2026-03-02T00:00:00.000Z', 1.02), adapter }, error: null, request: null },
      { kind: 'lane', adapter, savedAt: '2026-03-03T00:00:00.000Z', labVersion: '0.1.0', codeHash: 'old0code0000', result: { ...lane('2026-03-03T00:00:00.000Z', 1.3), adapter }, error: null, request: null },
    ],
  };
  await page.getByTestId('tab-history').click();
  await page.getByTestId('import-file').setInputFiles({ name: 'runs.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(file)) });
  await expect(page.getByTestId('history-status')).toHaveText('Imported 3 runs from runs.json.');
  const rows = page.getByTestId('history-row');
  await expect(rows).toHaveCount(3);
  await expect(page.getByTestId('stale-badge')).toHaveCount(3);
  await expect(page.getByTestId('history-speedup-chart')).toBeVisible();
  // Newest first: rows 0 (native +30%) and 1 are not comparable; rows 1 and 2 are.
  await rows.nth(0).getByTestId('history-select').check();
  await rows.nth(1).getByTestId('history-select').check();
  await expect(page.getByTestId('compare-status')).toContainText('Not compared: the native column moved beyond the 5% tolerance on 1 of 1 shapes (ADD 64x4 +27.5%)');
  await expect(page.getByTestId('compare-row')).toHaveCount(0);
  await rows.nth(0).getByTestId('history-select').uncheck();
  await rows.nth(2).getByTestId('history-select').check();
  await expect(page.getByTestId('compare-status')).toContainText('Native column stable');
  await expect(page.getByTestId('compare-row')).toHaveCount(1);
  await page.screenshot({ path: testInfo.outputPath('history-view.png'), fullPage: true });
  // Re-importing the same file stores nothing twice.
  await page.getByTestId('import-file').setInputFiles({ name: 'runs.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(file)) });
  await expect(page.getByTestId('history-status')).toHaveText('Imported 0 runs from runs.json (3 already stored).');
  // Export: the file holds every run, and imports back elsewhere.
  const download = page.waitForEvent('download');
  await page.getByTestId('export-button').click();
  const exported = JSON.parse(await (await (await download).createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString('utf8')));
  expect(exported.runs).toHaveLength(3);
  expect(exported.runs.map((r: { result: { startedAt: string } }) => r.result.startedAt).sort()).toEqual(file.runs.map((r) => r.savedAt));
  // Delete one: two are left, after a reload too.
  await rows.nth(0).getByTestId('history-delete').click();
  await expect(rows).toHaveCount(2);
  await page.reload();
  await page.getByTestId('tab-history').click();
  await expect(page.getByTestId('history-row')).toHaveCount(2);
  // A file that is not an export names what is wrong.
  await page.getByTestId('import-file').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"kind":"lane","schemaVersion":1}') });
  await expect(page.getByTestId('history-error')).toContainText('ImportError');
});
