// Quantized weights in the page: MUL_MAT's type0 is a select of format names; q4_0 weights run
// correct, native and auto, and the result names the format (SwiftShader: a small shape).
import { expect, test } from '@playwright/test';
import { openLab, run, runError, variantRadio } from './lab-page';

test('MUL_MAT type0 is a select of weight formats; q4_0 runs correct, native and auto', async ({ page }) => {
  await openLab(page);
  await page.getByTestId('op-select').selectOption('MUL_MAT');
  await page.getByTestId('shape-input').fill('64x3x64');
  const type0 = page.getByTestId('param-type0');
  await expect(type0.locator('option')).toHaveCount(41);
  await type0.selectOption({ label: 'q4_0' });
  await expect(page.getByTestId('shape-error')).toHaveCount(0);
  for (const variant of ['native', 'auto'] as const) {
    await variantRadio(page, variant).check();
    await run(page);
    expect(await runError(page)).toBeNull();
    await expect(page.getByTestId('result')).toContainText('64x3x64 type0=q4_0');
    await expect(page.getByTestId('result-correct')).toHaveText('yes');
  }
  // A K its block does not divide is refused by name before any run.
  await page.getByTestId('shape-input').fill('64x3x48');
  await expect(page.getByTestId('shape-error')).toContainText('q4_0: K = 48 is not a multiple of its block size 32');
  await expect(page.getByTestId('run-button')).toBeDisabled();
});
