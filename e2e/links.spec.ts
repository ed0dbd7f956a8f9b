// Links that do something: query parameters recreate a Level 1 run, a bad one says why, early
// refusal keeps Run disabled with the reason, and a shared result re-runs here — its header
// naming the result's adapter, both results side by side, no verdict across adapters.
import { expect, test } from '@playwright/test';
import { adapterName } from '../src/core/adapter';
import type { AdapterDescriptor } from '../src/core/adapter';
import type { Level1Json } from '../src/core/report/json';
import { decodeShare, encodeShare, sharePayloadFromHash, shareUrl } from '../src/core/report/share';
import { openLab, openTab } from './lab-page';

test('?op=…&run=1 fills the Kernel form and runs it; a schedule in the query runs that schedule', async ({ page }) => {
  await openLab(page, './?op=ADD&shape=256x16&layout=inplace&repeat=4&run=1');
  await expect(page.getByTestId('shape-input')).toHaveValue('256x16');
  await expect(page.getByTestId('layout-select')).toHaveValue('inplace');
  await expect(page.getByTestId('result')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('result-correct')).toHaveText('yes');
  await expect(page.getByTestId('result')).toContainText('256x16 inplace');

  const schedule = { family: 'norm', workgroupSize: 64, vectorWidth: 4, reduction: 'shared', unroll: 1 };
  await openLab(page, `./?op=RMS_NORM&shape=512x8&schedule=${encodeURIComponent(JSON.stringify(schedule))}&run=1`);
  await expect(page.getByTestId('variant-schedule')).toBeChecked();
  await expect(page.getByTestId('result')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('result-correct')).toHaveText('yes');
  await expect(page.getByTestId('result')).toContainText('"workgroupSize":64');

  // Without run=1 the form is filled and nothing runs.
  await openLab(page, './?op=MUL_MAT&shape=64x32x48');
  await expect(page.getByTestId('shape-input')).toHaveValue('64x32x48');
  await page.waitForTimeout(1000);
  await expect(page.getByTestId('result')).toHaveCount(0);
  await expect(page.getByTestId('run-progress')).toHaveCount(0);

  await openLab(page, './?op=SOFTMAX&run=1');
  await expect(page.getByTestId('query-error')).toContainText("?op=SOFTMAX: unknown op 'SOFTMAX'");
});

test('a case outside the adapter limits is refused before any GPU work: Run disabled, reason shown', async ({ page }) => {
  await openLab(page);
  await page.getByTestId('op-select').selectOption('ADD');
  await page.getByTestId('shape-input').fill('65536x65536');
  await expect(page.getByTestId('run-button')).toBeDisabled();
  await expect(page.getByTestId('kernel-blocked')).toContainText(/ADD 65536x65536 cannot run on this adapter: exceeds-binding-size — a \d+ B buffer exceeds maxStorageBufferBindingSize \d+/);
  await page.getByTestId('op-select').selectOption('MUL_MAT');
  await page.getByTestId('shape-input').fill('20000x20000x20000');
  await expect(page.getByTestId('run-button')).toBeDisabled();
  await expect(page.getByTestId('kernel-blocked')).toContainText('exceeds-binding-size');
  await page.getByTestId('shape-input').fill('64x64x64');
  await expect(page.getByTestId('run-button')).toBeEnabled();

  // The lane refuses such a shape before it runs any other: the error comes at once.
  await openTab(page, 'lane');
  await page.getByTestId('lane-shapes').fill('ADD:256x16,ADD:65536x65536');
  const t0 = Date.now();
  await page.getByTestId('lane-run').click();
  await expect(page.getByTestId('error')).toContainText('ADD 65536x65536 is refused before any GPU work: exceeds-binding-size', { timeout: 20_000 });
  expect(Date.now() - t0).toBeLessThan(20_000);
  await expect(page.getByTestId('lane-result')).toHaveCount(0);
});

test("a shared result names its own adapter, never asks the viewer to calibrate, and re-runs here side by side", async ({ page, baseURL }) => {
  // A result measured elsewhere (an H200), shared as a link to this page: a real run here, its
  // adapter swapped for an H200's and its peaks cleared (none were known there).
  await openLab(page, './?op=ADD&shape=256x16&run=1');
  await expect(page.getByTestId('result')).toBeVisible({ timeout: 60_000 });
  await page.getByTestId('share-link-button').click();
  await expect(page.getByTestId('share-link')).toHaveValue(/#r=2\./);
  const here = (await decodeShare(sharePayloadFromHash(new URL(await page.getByTestId('share-link').inputValue()).hash)!)) as Level1Json;
  const h200: AdapterDescriptor = { ...here.adapter, vendor: 'nvidia', architecture: 'hopper', device: 'NVIDIA H200', description: 'NVIDIA H200', isFallbackAdapter: false, runtime: 'node' };
  const shared = { ...here, adapter: h200, metrics: here.metrics && { ...here.metrics, peakSource: null, pctPeakBw: null, pctPeakFlops: null, bottleneck: null } };
  const link = shareUrl(baseURL!, await encodeShare(shared));
  await page.goto(link);
  await expect(page.getByTestId('shared-report')).toBeVisible({ timeout: 60_000 });
  const header = page.getByTestId('adapter-line');
  await expect(header).toContainText(`shared result · measured on ${adapterName(h200)}`);
  await expect(header).not.toContainText(/swiftshader/i);
  await expect(page.getByTestId('shared-report')).not.toContainText(/calibrate/i);

  await page.getByTestId('rerun-button').click();
  const sides = page.getByTestId('side-by-side');
  await expect(sides).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('side-shared')).toHaveText(`shared · ${adapterName(h200)}`);
  await expect(page.getByTestId('side-here')).toContainText(/this GPU · .*swiftshader/i);
  // Both columns hold the same rows; nothing compares across them.
  await expect(sides.locator('tbody tr')).toHaveCount(7);
  await expect(sides.locator('tbody tr').nth(1).locator('td').nth(1)).toHaveText('yes');
  await expect(sides).not.toContainText(/faster|slower|speedup|verdict/i);
  await expect(page.getByTestId('rerun')).toContainText('no verdict across adapters');
});
