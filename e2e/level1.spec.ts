// Level 1 in the built page, in headless Chromium with WebGPU (SwiftShader here: a CPU, so
// shapes stay small). The ops come from the page's own op select, never from a list here.
import { expect, test } from '@playwright/test';
import { listedOps, openLab, pickSmallShape, run, runError, variantRadio } from './lab-page';

test('the page names its SwiftShader adapter and marks it software', async ({ page }) => {
  await openLab(page);
  const line = page.getByTestId('adapter-line');
  await expect(line).toContainText(/swiftshader/i);
  await expect(line).toContainText('(software, browser)');
  await expect(page.getByTestId('software-badge')).toContainText('not GPU numbers');
});

test('every listed op runs correct and timed, native and auto', async ({ page }) => {
  await openLab(page);
  const ops = await listedOps(page);
  expect(ops.length).toBeGreaterThan(0);
  for (const op of ops) {
    await page.getByTestId('op-select').selectOption(op);
    const shape = await pickSmallShape(page);
    for (const variant of ['native', 'auto'] as const) {
      await test.step(`${op} ${shape} ${variant}`, async () => {
        await variantRadio(page, variant).check();
        await run(page);
        expect(await runError(page), `${op} ${shape} ${variant} failed`).toBeNull();
        await expect(page.getByTestId('result-correct')).toHaveText('yes');
        await expect(page.getByTestId('result-median')).toHaveText(/^\d+(\.\d+)?$/);
        await expect(page.getByTestId('result-resolution')).toHaveText(/\d+(\.\d+)? (ns|µs|ms)/);
        await expect(page.getByTestId('result-method')).toHaveText(/^(timestamp|timestamp-grouped|wallclock)$/);
      });
    }
  }
});

test('ADD in place runs correct, native and auto', async ({ page }, testInfo) => {
  await openLab(page);
  await page.getByTestId('op-select').selectOption('ADD');
  await page.getByTestId('shape-input').fill('256x16');
  await page.getByTestId('layout-select').selectOption('inplace');
  await expect(page.getByTestId('shape-error')).toHaveCount(0);
  for (const variant of ['native', 'auto'] as const) {
    await variantRadio(page, variant).check();
    await run(page);
    expect(await runError(page)).toBeNull();
    await expect(page.getByTestId('result')).toContainText('256x16 inplace');
    await expect(page.getByTestId('result-correct')).toHaveText('yes');
  }
  await page.getByTestId('wgsl-button').click();
  await expect(page.getByTestId('wgsl')).toContainText('@compute');
  await page.screenshot({ path: testInfo.outputPath('kernel-view.png'), fullPage: true });
});

test('a malformed custom shape shows the error naming it', async ({ page }) => {
  await openLab(page);
  await page.getByTestId('shape-input').fill('64xx8');
  await expect(page.getByTestId('shape-error')).toContainText("shape '64xx8' is not of the form");
  await expect(page.getByTestId('run-button')).toBeDisabled();
  await page.getByTestId('op-select').selectOption('ADD');
  await page.getByTestId('shape-input').fill('2x2x2x2x2');
  await expect(page.getByTestId('shape-error')).toContainText('ADD takes 1 to 4 dims');
  await page.getByTestId('shape-input').fill('64x8');
  await expect(page.getByTestId('shape-error')).toHaveCount(0);
  await expect(page.getByTestId('run-button')).toBeEnabled();
});

test('a malformed schedule shows the parse error', async ({ page }) => {
  await openLab(page);
  await page.getByTestId('op-select').selectOption('ADD');
  await variantRadio(page, 'schedule').check();
  const editor = page.getByTestId('schedule-json');
  await expect(editor).toHaveValue(/"family": "elementwise"/);
  await editor.fill('{"family": "elementwise", "workgroupSize": }');
  await expect(page.getByTestId('schedule-error')).toContainText('schedule is not valid JSON');
  await expect(page.getByTestId('run-button')).toBeDisabled();
  await editor.fill('{"family": "elementwise", "workgroupSize": 64, "elementsPerThread": 1, "vectorWidth": 1, "tile": 4}');
  await expect(page.getByTestId('schedule-error')).toContainText("unknown knob 'tile'");
});

test("a schedule over the adapter's limits is refused naming the knob and the limit", async ({ page }) => {
  await openLab(page);
  await page.getByTestId('op-select').selectOption('ADD');
  await page.getByTestId('shape-input').fill('256x16');
  await page.getByTestId('layout-select').selectOption('contiguous');
  await variantRadio(page, 'schedule').check();
  await page.getByTestId('schedule-json').fill('{"family": "elementwise", "workgroupSize": 1024, "elementsPerThread": 1, "vectorWidth": 1}');
  await expect(page.getByTestId('schedule-error')).toHaveCount(0);
  await run(page);
  const error = page.getByTestId('error');
  await expect(error).toContainText('ScheduleRefusal');
  await expect(error).toContainText(/workgroupSize 1024 exceeds maxCompute\w+ 256/);
  await expect(page.getByTestId('result')).toHaveCount(0);
});

test('a hand-edited valid schedule runs the generated kernel', async ({ page }) => {
  await openLab(page);
  await page.getByTestId('op-select').selectOption('ADD');
  await page.getByTestId('shape-input').fill('256x16');
  await page.getByTestId('layout-select').selectOption('contiguous');
  await variantRadio(page, 'schedule').check();
  await page.getByTestId('schedule-json').fill('{"family": "elementwise", "workgroupSize": 64, "elementsPerThread": 2, "vectorWidth": 2}');
  await run(page);
  expect(await runError(page)).toBeNull();
  await expect(page.getByTestId('result')).toContainText('elementwise{"elementsPerThread":2,"vectorWidth":2,"workgroupSize":64}');
  await expect(page.getByTestId('result-correct')).toHaveText('yes');
});

test('the Device tab lists the adapter and its limits', async ({ page }) => {
  await openLab(page);
  await page.getByTestId('tab-device').click();
  await expect(page).toHaveURL(/#\/device$/);
  const view = page.getByTestId('device-view');
  await expect(view).toContainText('swiftshader');
  await expect(view).toContainText('maxComputeInvocationsPerWorkgroup');
  await expect(view).toContainText('timestamp-query');
});

test('without WebGPU the page says what to do', async ({ page }) => {
  await page.addInitScript(() => Object.defineProperty(navigator, 'gpu', { value: undefined, configurable: true }));
  await page.goto('./');
  const message = page.getByTestId('no-webgpu');
  await expect(message).toBeVisible();
  await expect(message).toContainText('Safari 26');
  await expect(message).toContainText('--enable-unsafe-webgpu --enable-features=Vulkan');
  await expect(message).toContainText('chrome://gpu');
});

test('an adapter the worker cannot find (?device=) is a clear message, not a blank page', async ({ page }) => {
  await page.goto('./?device=no-such-gpu');
  const message = page.getByTestId('no-webgpu');
  await expect(message).toBeVisible({ timeout: 60_000 });
  await expect(message).toContainText("requested adapter 'no-such-gpu' is not present");
});
