// The Census view's graph run in headless Chromium (SwiftShader): the micro preset's training step
// run in the worker through the typed LabApi, its loss curve falling, step 1 matching the CPU f64
// evaluation, the per-op dispatch table and the retire checklist; "Time these shapes" filling the
// Lane view's shape list with the census's shapes.
import { expect, test } from '@playwright/test';
import { openLab, openTab } from './lab-page';

test('census: time these shapes, and the graph run learns', async ({ page }) => {
  test.setTimeout(1_200_000);
  await openLab(page);
  await openTab(page, 'census');
  await page.getByTestId('census-preset').selectOption('micro');
  await expect(page.getByTestId('census-summary')).toContainText('micro: vocab 64, embedding 32');

  await page.getByTestId('census-list-shapes').click();
  await expect(page.getByTestId('census-shapes-summary')).toContainText(/\d+ distinct \(op, dims, layout, params\) in the layouts the real graph sends, ranked by bytes; \d+ that no declared layout fits/);
  await page.getByTestId('census-time-shapes').click();
  await expect(page).toHaveURL(/#\/lane$/);
  const shapes = await page.getByTestId('lane-shapes').inputValue();
  expect(shapes.split('\n').length).toBe(10);
  for (const line of shapes.split('\n')) expect(line).toMatch(/^[A-Z_]+:\d+(x\d+)*:[a-z0-9-]+/);

  await openTab(page, 'census');
  await page.getByTestId('census-preset').selectOption('micro');
  await page.getByTestId('census-run-steps').fill('3');
  await page.getByTestId('census-run').click();
  await expect(page.getByTestId('census-run-result')).toBeVisible({ timeout: 1_100_000 });
  await expect(page.getByTestId('census-run-losses')).toContainText('falls');
  await expect(page.getByTestId('census-run-check')).toContainText(/loss .* \(ok\); parameters ok/);
  await expect(page.getByTestId('census-loss-chart').locator('canvas')).toBeVisible();
  await expect(page.getByTestId('census-run-table').locator('tr[data-op="OPT_STEP_ADAMW"] td').nth(1)).toHaveText('12');
  await expect(page.getByTestId('census-retire').locator('li[data-op="ADD"]')).toContainText('the training graph ran with no fallback for the op');
});
