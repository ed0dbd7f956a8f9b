// The Report view in headless Chromium: a real Level 1 run on this SwiftShader adapter, plus lane
// results of two other adapters imported at once in History (hand-made fixtures, marked FIXTURE
// in their descriptions), merged into one table with a heat map, filters and its own share link.
import { expect, test } from '@playwright/test';
import { openLab, run, runError, variantRadio } from './lab-page';

const fixtureAdapter = (vendor: string, architecture: string, device: string) => ({
  vendor,
  architecture,
  device,
  description: `FIXTURE: ${device} (hand-made)`,
  isFallbackAdapter: false,
  runtime: 'browser',
  features: ['timestamp-query'],
  limits: { maxComputeInvocationsPerWorkgroup: 1024, maxComputeWorkgroupSizeX: 1024, maxComputeWorkgroupSizeY: 1024, maxComputeWorkgroupStorageSize: 32768, maxComputeWorkgroupsPerDimension: 65535, maxStorageBufferBindingSize: 1073741824, maxBufferSize: 1073741824, maxStorageBuffersPerShaderStage: 8, minStorageBufferOffsetAlignment: 256 },
  subgroupMinSize: 32,
  subgroupMaxSize: 32,
});

function laneFixture(adapter: ReturnType<typeof fixtureAdapter>, verdict: string, speedup: number) {
  return {
    kind: 'lane',
    schemaVersion: 1,
    labVersion: '0.1.0',
    codeHash: 'fixture0000',
    adapter,
    settings: { repeat: 3, tolerance: 0.05, seed: 1, prefer: [], control: null, undeclare: [], wallBoundMs: 10000 },
    pairs: [
      {
        op: 'ADD',
        state: 'observe',
        registryState: 'observe',
        gating: false,
        counters: { generatedDispatches: 30, nativeFallbacks: {}, undeclaredFallbacks: 0, deviceRejections: 0 },
        shapes: [
          { shape: '256x16', layout: 'contiguous', scheduleKey: 'k', nativeMedianNs: 1000 * speedup, generatedMedianNs: 1000, speedupMedian: speedup, speedupMin: speedup - 0.05, speedupMax: speedup + 0.05, speedups: [speedup - 0.05, speedup, speedup + 0.05], verdict, fallback: null, note: null, nativeMetrics: null, generatedMetrics: null },
        ],
        checklist: [{ id: 'semantics', title: 'semantics exact', pass: true, evidence: '1/1' }],
        verdict: 'green',
      },
    ],
    skipped: [],
    green: true,
    startedAt: '2026-12-02T05:00:00.000Z',
    durationMs: 1234,
  };
}

test('Report merges runs of three adapters: heat map, filters, and a share link that opens read-only', async ({ page, context }, testInfo) => {
  await openLab(page);
  // A real run on this adapter.
  await page.getByTestId('op-select').selectOption('ADD');
  await page.getByTestId('shape-input').fill('256x16');
  await page.getByTestId('layout-select').selectOption('contiguous');
  await variantRadio(page, 'native').check();
  await run(page);
  expect(await runError(page)).toBeNull();
  // Two other adapters' lane results, imported at once.
  await page.getByTestId('tab-history').click();
  await page.getByTestId('import-file').setInputFiles([
    { name: 'h200.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(laneFixture(fixtureAdapter('nvidia', 'hopper', 'nvidia-h200'), 'faster', 1.4))) },
    { name: 'm3.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(laneFixture(fixtureAdapter('apple', 'metal-3', 'apple-m3'), 'slower', 0.8))) },
    { name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"kind":') },
  ]);
  await expect(page.getByTestId('history-status')).toHaveText(/Imported 1 run from h200\.json\. Imported 1 run from m3\.json\. Not imported: broken\.json: broken\.json is not JSON/);

  await page.getByTestId('tab-report').click();
  // The fixtures are other code: left out until asked for, then marked stale.
  await expect(page.getByTestId('report-heatmap').locator('thead th')).toHaveCount(2);
  await page.getByTestId('report-allow-stale').check();
  const heads = page.getByTestId('report-heatmap').locator('thead th');
  await expect(heads).toHaveCount(4);
  await expect(heads.nth(1)).toContainText('apple metal-3');
  await expect(heads.nth(1)).toContainText('[stale]');
  const cells = page.getByTestId('report-heatmap').locator('tbody tr').first().getByTestId('heat-cell');
  await expect(cells).toHaveText(['1 slower', '1 correct', '1 faster']);
  await expect(page.getByTestId('report-row')).toHaveCount(1);
  await expect(page.getByTestId('report-row').first()).toContainText('faster 1.40× [1.35–1.45]');
  await expect(page.getByTestId('report-evidence')).toContainText('nvidia/hopper');
  // Filters.
  await page.getByTestId('report-filter-verdict').selectOption('slower');
  await expect(page.getByTestId('report-row')).toHaveCount(1);
  await page.getByTestId('report-filter-adapter').selectOption({ label: 'nvidia hopper nvidia-h200 (browser) [stale]' });
  await expect(page.getByTestId('report-row')).toHaveCount(0);
  await page.getByTestId('report-filter-verdict').selectOption('');
  await expect(page.getByTestId('report-row')).toHaveCount(1);
  await page.screenshot({ path: testInfo.outputPath('report-view.png'), fullPage: true });
  // Its own link opens read-only in a fresh page; the markdown is there for a PR.
  await page.getByTestId('report-share').click();
  const link = await page.getByTestId('report-link').inputValue();
  expect(link).toMatch(/#report=2/);
  await expect(page.getByTestId('report-markdown')).toHaveValue(/^### kernel-lab report: 1 cases × 3 adapters/);
  const other = await context.newPage();
  await other.goto(link);
  await expect(other.getByTestId('shared-cross-report')).toContainText('Shared report (read-only)');
  await expect(other.getByTestId('report-heatmap').locator('thead th')).toHaveCount(4);
  // A tampered report link says so and shows nothing.
  await other.goto(link.slice(0, -12) + 'AAAAAAAAAAAA');
  await expect(other.getByTestId('share-error')).toContainText('This report link cannot be opened');
});
