// The Sweep view in headless Chromium on SwiftShader (a CPU): a restricted space of four
// candidates over one small shape, two reps.
import { expect, test } from '@playwright/test';
import { chartPoints, openLab, openTab, runView } from './lab-page';

test('a restricted sweep runs to a ranked table, a scatter and a proposal', async ({ page, context }, testInfo) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openLab(page);
  await openTab(page, 'sweep');
  await expect(page.getByTestId('sweep-reps')).toHaveValue('9');
  // Prefilled with the family's whole space.
  await expect(page.getByTestId('sweep-space')).toHaveValue(/"workgroupSize": \[64,128,256,512\]/);

  await page.getByTestId('sweep-op').selectOption('ADD');
  await page.getByTestId('sweep-shapes').fill('256x16');
  await page.getByTestId('sweep-reps').fill('2');
  await page.getByTestId('sweep-space').fill('{"workgroupSize": [64, 256], "elementsPerThread": [1], "vectorWidth": [1, 4]}');
  await expect(page.getByTestId('sweep-count')).toContainText('4 candidates, 4 valid');
  expect(await runView(page, 'sweep-run', 'sweep-result')).toBeNull();

  await expect(page.getByTestId('sweep-reference').locator('tbody tr')).toHaveCount(1);
  const rows = page.getByTestId('sweep-row');
  await expect(rows).toHaveCount(4);
  for (const status of await rows.getByTestId('sweep-status').allInnerTexts()) expect(status).toMatch(/^(accepted|noise|slower|no-rule|wrong|too-slow|device-rejection)$/);
  // Refused candidates are greyed, each with its reason.
  const refused = page.locator('tr.refused');
  for (let i = 0; i < (await refused.count()); i++) await expect(refused.nth(i).locator('.reason-cell')).not.toBeEmpty();
  await expect(rows.first().locator('[data-metric="rate"]')).toHaveText(/GB\/s$|^—$/);

  const scatter = page.getByTestId('sweep-scatter');
  await expect(scatter.locator('canvas')).toBeVisible();
  const points = await chartPoints(scatter);
  expect(points.length).toBeGreaterThan(0);
  await page.mouse.move(points[0].x, points[0].y);
  const tooltip = scatter.getByTestId('chart-tooltip');
  await expect(tooltip).toBeVisible();
  await expect(tooltip).toContainText(/elementwise\{.*\}\n(accepted|noise|slower|no-rule): /);

  const proposal = page.getByTestId('proposal-text');
  await expect(proposal).toContainText(/proposal for ADD/);
  await page.getByTestId('proposal-copy').click();
  await expect(page.getByTestId('proposal-copy')).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await proposal.innerText());
  await page.screenshot({ path: testInfo.outputPath('sweep-view.png'), fullPage: true });
});

test('a malformed space names the knob and blocks Run', async ({ page }) => {
  await openLab(page);
  await openTab(page, 'sweep');
  await page.getByTestId('sweep-space').fill('{"tile": [4]}');
  await expect(page.getByTestId('sweep-space-error')).toContainText("unknown knob 'tile' for family elementwise");
  await expect(page.getByTestId('sweep-run')).toBeDisabled();
  await page.getByTestId('sweep-space').fill('{"workgroupSize": [64, 2048]}');
  await expect(page.getByTestId('sweep-space-error')).toHaveCount(0);
  // 2048 threads exceed every adapter's default limit: counted, but not valid.
  await expect(page.getByTestId('sweep-count')).toContainText('24 candidates, 12 valid');
  await page.getByTestId('sweep-shapes').fill('256x16:nope');
  await expect(page.getByTestId('sweep-shapes-error')).toBeVisible();
  await expect(page.getByTestId('sweep-run')).toBeDisabled();
});
