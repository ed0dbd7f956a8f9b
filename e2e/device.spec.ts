// The Device view's peaks, calibration and roofline in headless Chromium on SwiftShader.
import { expect, test } from '@playwright/test';
import { chartPoints, openLab, openTab, run, runError, variantRadio } from './lab-page';

test('calibrate fills the measured peaks (software), and the roofline places a MUL_MAT run', async ({ page }, testInfo) => {
  await openLab(page);
  await openTab(page, 'device');
  // SwiftShader is not in the spec table: spec columns stay blank and say why.
  await expect(page.getByTestId('spec-bandwidth')).toHaveText('—');
  await expect(page.getByTestId('spec-source')).toContainText('software adapter');
  await expect(page.getByTestId('peaks-software')).toBeVisible();
  await expect(page.getByTestId('measured-bandwidth')).toHaveText('—');
  await expect(page.getByTestId('peaks-in-use')).toContainText('no peaks');

  await page.getByTestId('calibrate-button').click();
  await expect(page.getByTestId('measured-bandwidth')).toContainText(/copy \d.*[GT]B\/s/, { timeout: 120_000 });
  await expect(page.getByTestId('measured-f32')).toContainText(/FMA \d.*FLOP\/s/);
  await expect(page.getByTestId('measured-empty-dispatch')).toHaveText(/\d+(\.\d+)? (ns|µs|ms)/);
  await expect(page.getByTestId('peaks-in-use')).toContainText('the measured peaks');

  // One MUL_MAT (has flops: placed) and one ADD (memory-only: counted, left out).
  await openTab(page, 'kernel');
  await page.getByTestId('op-select').selectOption('MUL_MAT');
  await page.getByTestId('shape-input').fill('64x64x64');
  await variantRadio(page, 'auto').check();
  await run(page);
  expect(await runError(page)).toBeNull();
  const metrics = page.getByTestId('result-metrics');
  await expect(metrics.locator('[data-metric="rate"]')).toHaveText(/FLOP\/s$/);
  // Calibrated: the bottleneck has a verdict now.
  await expect(metrics.locator('[data-metric="bottleneck"]')).toHaveText(/-bound$/);
  await page.getByTestId('result-metrics-details').check();
  await expect(metrics.locator('[data-metric="peaks"]')).toHaveText('measured');
  await page.getByTestId('op-select').selectOption('ADD');
  await page.getByTestId('shape-input').fill('256x16');
  await run(page);
  expect(await runError(page)).toBeNull();

  await openTab(page, 'device');
  const panel = page.getByTestId('roofline-panel');
  await expect(panel).toContainText('1 kernel on this adapter');
  await expect(page.getByTestId('roofline-memory-only')).toContainText('1 memory-only kernel (ADD) left out');
  const roofline = page.getByTestId('roofline');
  await expect(roofline.locator('canvas')).toBeVisible();
  const points = await chartPoints(roofline);
  expect(points).toHaveLength(1);
  await page.mouse.move(points[0].x, points[0].y);
  await expect(roofline.getByTestId('chart-tooltip')).toContainText('Level 1 · MUL_MAT 64x64x64');
  await page.getByTestId('roofline-panel').screenshot({ path: testInfo.outputPath('roofline.png') });
  await page.screenshot({ path: testInfo.outputPath('device-view.png'), fullPage: true });
});

test('a stored calibration is restored when the page opens again', async ({ page }) => {
  await openLab(page);
  await openTab(page, 'device');
  await page.getByTestId('calibrate-button').click();
  await expect(page.getByTestId('measured-bandwidth')).toContainText(/copy \d/, { timeout: 120_000 });
  await expect(page.getByTestId('save-status')).toContainText('Saved to History');
  const measuredAt = await page.getByTestId('measured-what').innerText();

  await page.reload();
  await openLab(page, './#/kernel');
  await openTab(page, 'device');
  await expect(page.getByTestId('measured-what')).toHaveText(measuredAt);
  await expect(page.getByTestId('peaks-in-use')).toContainText('the measured peaks');
  // The worker has it too: a MUL_MAT run's metrics carry measured peaks.
  await openTab(page, 'kernel');
  await page.getByTestId('op-select').selectOption('MUL_MAT');
  await page.getByTestId('shape-input').fill('64x64x64');
  await run(page);
  await page.getByTestId('result-metrics-details').check();
  await expect(page.getByTestId('result-metrics').locator('[data-metric="peaks"]')).toHaveText('measured');
});
