// The Lane view in headless Chromium on SwiftShader (a CPU): one small shape, two passes.
import { expect, test } from '@playwright/test';
import { openLab, openTab, runView } from './lab-page';

test('the lane runs a small RMS_NORM shape to a verdict table, a speedup chart and a checklist', async ({ page }, testInfo) => {
  await openLab(page);
  await openTab(page, 'lane');
  // Defaults: every op that is not native-only (RMS_NORM_BACK is), 5 passes, tolerance 0.05.
  for (const op of ['ADD', 'RMS_NORM', 'MUL_MAT']) await expect(page.getByTestId(`lane-op-${op}`)).toBeChecked();
  await expect(page.getByTestId('lane-op-RMS_NORM_BACK')).not.toBeChecked();
  await expect(page.getByTestId('lane-repeat')).toHaveValue('5');
  await expect(page.getByTestId('lane-tolerance')).toHaveValue('0.05');

  await page.getByTestId('lane-shapes').fill('RMS_NORM:256x16');
  await page.getByTestId('lane-repeat').fill('2');
  expect(await runView(page, 'lane-run', 'lane-result')).toBeNull();

  const pair = page.getByTestId('lane-pair');
  await expect(pair).toHaveCount(1);
  await expect(pair).toHaveAttribute('data-op', 'RMS_NORM');
  await expect(pair).toContainText('work items');
  await expect(page.getByTestId('lane-counters')).toContainText(/generated dispatches [1-9]/);
  const row = pair.getByTestId('lane-row');
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('lane-verdict')).toHaveText(/^(faster|parity|within-tolerance|slower|undecided \(noise .+ > tolerance .+\))$/);
  await expect(row.getByTestId('lane-speedup')).toHaveText(/^\d+\.\d\d \[\d+\.\d\d–\d+\.\d\d\]$/);
  // Compact metrics: RMS_NORM is memory-only, so its rate is GB/s.
  await expect(row.locator('[data-metric="rate"]')).toHaveText(/GB\/s$/);
  await page.getByTestId('lane-metrics-details').check();
  await expect(pair.locator('th.group')).toHaveText(['native', 'generated']);
  await expect(row.locator('[data-metric="median-us"]')).toHaveCount(2);
  await expect(row.locator('[data-metric="gflops"]').first()).toHaveText('—');

  await expect(pair.getByTestId('speedup-chart').locator('canvas')).toBeVisible();
  const checks = pair.getByTestId('checklist-item');
  await expect(checks).toHaveCount(5);
  await expect(pair.locator('[data-check="semantics"]')).toHaveAttribute('data-pass', 'true');
  await expect(pair.locator('[data-check="device-parity"]')).toHaveAttribute('data-pass', 'true');
  await expect(pair.locator('[data-check="contract-clean"]')).toContainText('probe');
  await page.screenshot({ path: testInfo.outputPath('lane-view.png'), fullPage: true });
});

test('a planted slow control on a prefer pair shows slower and fails the gate', async ({ page }, testInfo) => {
  await openLab(page);
  await openTab(page, 'lane');
  // 4096x64, not 1024x16: at the tiny shape the dispatch overhead, which the plant does not touch, is much of each run, so the plant is diluted; in a fresh-clone run on this 2-core machine SwiftShader's noise then left the row undecided (the gate still failed). 4/4 passes at 4096x64.
  await page.getByTestId('lane-shapes').fill('RMS_NORM:4096x64');
  await page.getByTestId('lane-repeat').fill('5');
  await page.getByTestId('lane-prefer-RMS_NORM').check();
  await page.getByTestId('lane-advanced').locator('summary').click();
  await page.getByTestId('lane-control').selectOption('slow');
  expect(await runView(page, 'lane-run', 'lane-result')).toBeNull();

  await expect(page.getByTestId('lane-green')).toHaveText('FAILED');
  const pair = page.getByTestId('lane-pair');
  await expect(pair).toContainText('prefer (--prefer; registry: observe)');
  await expect(pair).toContainText('gate');
  await expect(pair.getByTestId('lane-pair-verdict')).toHaveText('gate-failed');
  await expect(pair.getByTestId('lane-row')).toHaveAttribute('data-verdict', 'slower');
  await expect(pair.getByTestId('lane-verdict')).toHaveClass(/tone-bad/);
  await expect(pair.locator('[data-check="no-slower"]')).toHaveAttribute('data-pass', 'false');
  await expect(pair.locator('[data-check="no-slower"]')).toContainText('slower: 4096x64');
  await page.screenshot({ path: testInfo.outputPath('lane-slow-control.png'), fullPage: true });
});

test('a malformed lane shape list names the bad entry and blocks Run', async ({ page }) => {
  await openLab(page);
  await openTab(page, 'lane');
  await page.getByTestId('lane-shapes').fill('ADD:256x16, NOPE:4x4');
  await expect(page.getByTestId('lane-shapes-error')).toContainText("unknown op 'NOPE'");
  await expect(page.getByTestId('lane-run')).toBeDisabled();
  await page.getByTestId('lane-shapes').fill('ADD:256x16');
  await expect(page.getByTestId('lane-shapes-error')).toHaveCount(0);
  await expect(page.getByTestId('lane-op-ADD')).toBeDisabled();
  await page.getByTestId('lane-tolerance').fill('1.5');
  await expect(page.getByTestId('lane-blocked')).toContainText('tolerance must be a number in [0, 1)');
  await expect(page.getByTestId('lane-run')).toBeDisabled();
});
