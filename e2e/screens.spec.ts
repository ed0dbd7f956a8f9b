// One screenshot of each view after a small run, for a person to look at (test-results/…).
import { expect, test } from '@playwright/test';
import { openLab, openTab, run, runView } from './lab-page';

test('a screenshot of each view after a small run', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openLab(page, './?op=MUL_MAT&shape=64x32x48&run=1');
  await expect(page.getByTestId('result')).toBeVisible({ timeout: 60_000 });
  await page.screenshot({ path: testInfo.outputPath('kernel.png'), fullPage: true });

  await openTab(page, 'lane');
  await page.getByTestId('lane-shapes').fill('RMS_NORM:256x16,ADD:256x16:inplace,MUL_MAT:64x32x48:src1-permuted');
  await page.getByTestId('lane-repeat').fill('3');
  expect(await runView(page, 'lane-run', 'lane-result')).toBeNull();
  await page.screenshot({ path: testInfo.outputPath('lane.png'), fullPage: true });

  await openTab(page, 'sweep');
  await page.getByTestId('sweep-op').selectOption('ADD');
  await page.getByTestId('sweep-shapes').fill('256x16,1000x33');
  await page.getByTestId('sweep-reps').fill('3');
  expect(await runView(page, 'sweep-run', 'sweep-ranked', 170_000)).toBeNull();
  await page.screenshot({ path: testInfo.outputPath('sweep.png'), fullPage: true });

  await openTab(page, 'formats');
  await page.getByTestId('formats-shape').fill('256x1x256');
  expect(await runView(page, 'formats-run', 'formats-result', 170_000)).toBeNull();
  await page.screenshot({ path: testInfo.outputPath('formats.png'), fullPage: true });

  await openTab(page, 'device');
  await page.screenshot({ path: testInfo.outputPath('device.png'), fullPage: true });

  await openTab(page, 'kernel');
  await page.getByTestId('op-select').selectOption('RMS_NORM');
  await run(page);
  await page.getByTestId('tab-history').click();
  await expect(page.getByTestId('history-view')).toBeVisible();
  await expect(page.getByTestId('history-charts')).toBeVisible();
  await page.waitForTimeout(500);
  await page.screenshot({ path: testInfo.outputPath('history.png'), fullPage: true });
});
