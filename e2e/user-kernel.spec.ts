// Your kernel in the page (headless Chromium, SwiftShader): the lab's three example kernels
// through the Kernel view, checked and timed, kept per adapter; dropped files; and the refusals,
// each named — a manifest that does not parse, a case outside the claims, a WGSL compile error
// with its line and column, a write outside dst caught by the guard bands.
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openLab, openTab, run, runError, runView, variantRadio } from './lab-page';

const examples = join(process.cwd(), 'examples', 'kernels');

async function useExample(page: Page, dir: string, shape: string, layout?: string): Promise<void> {
  await variantRadio(page, 'user').check();
  await page.getByTestId('user-example').selectOption(dir);
  await page.getByTestId('shape-input').fill(shape);
  if (layout) await page.getByTestId('layout-select').selectOption(layout);
  await expect(page.getByTestId('user-check')).toContainText('resolves to');
}

test('the three example kernels run correct and timed, and are kept for this adapter', async ({ page }) => {
  await openLab(page);
  const cases: [string, string, string, string][] = [
    ['add', 'ADD', '1000x6', 'broadcast-row'],
    ['rms-norm', 'RMS_NORM', '1000x6', 'src0-rows-strided'],
    ['rms-norm-split', 'RMS_NORM', '3000x5', 'contiguous'],
  ];
  for (const [dir, op, shape, layout] of cases) {
    await test.step(`${dir} ${shape} ${layout}`, async () => {
      await useExample(page, dir, shape, layout);
      await expect(page.getByTestId('op-select')).toHaveValue(op);
      await run(page);
      expect(await runError(page)).toBeNull();
      const name = JSON.parse(readFileSync(join(examples, dir, 'manifest.json'), 'utf8')).name;
      await expect(page.getByTestId('result')).toContainText(`${op} ${shape}`);
      await expect(page.getByTestId('result-correct')).toHaveText('yes');
      await expect(page.getByTestId('result-median')).toHaveText(/^\d+(\.\d+)?$/);
      await expect(page.getByTestId('result-user-kernel')).toContainText(new RegExp(`${name}@[0-9a-f]{12}`));
      await expect(page.getByTestId('result-user-kernel')).toContainText(/manifest sha256 [0-9a-f]{64}/);
    });
  }
  // the passes of the two-pass kernel show before it runs
  await expect(page.getByTestId('user-check')).toContainText('resolves to 2 passes: sumsq 15×1×1 workgroups of 256×1×1, then scale 59×1×1');
  await page.reload();
  await variantRadio(page, 'user').check();
  const kept = await page.getByTestId('user-saved').locator('option').allTextContents();
  expect(kept.filter((t) => /^lab-(add|rms-norm|rms-norm-split)@[0-9a-f]{12}/.test(t))).toHaveLength(3);
  await page.getByTestId('user-saved').selectOption({ index: 1 });
  await expect(page.getByTestId('op-select')).toHaveValue('RMS_NORM');
  await expect(page.getByTestId('user-manifest')).toHaveValue(/lab-rms-norm-split/);
});

test('dropped files: a manifest.json and its WGSL', async ({ page }) => {
  await openLab(page);
  await variantRadio(page, 'user').check();
  const dir = join(examples, 'rms-norm');
  await page.getByTestId('user-files').setInputFiles([join(dir, 'manifest.json'), join(dir, 'rms_norm.wgsl')]);
  await expect(page.getByTestId('user-manifest')).toHaveValue(/"lab-rms-norm"/);
  await expect(page.getByTestId('op-select')).toHaveValue('RMS_NORM');
  await expect(page.getByTestId('user-check')).toContainText('lab-rms-norm resolves to 1 pass');
});

test('refusals are named: JSON, claims, compile error with line:col, a write outside dst', async ({ page }) => {
  await openLab(page);
  await useExample(page, 'add', '64x8');
  const manifest = page.getByTestId('user-manifest');
  const good = await manifest.inputValue();

  await manifest.fill(good.replace('"manifestVersion": 1,', '"manifestVersion": 1'));
  await expect(page.getByTestId('user-check-error')).toContainText('ManifestError: manifest: is not valid JSON');
  await run(page);
  expect(await runError(page)).toMatch(/ManifestError[\s\S]*is not valid JSON/);

  await manifest.fill(good.replace('"role": "dst"', '"role": "out"'));
  await expect(page.getByTestId('user-check-error')).toContainText("kernels[0].bindings[2].role: unknown role 'out'");

  await manifest.fill(good);
  await page.getByTestId('layout-select').selectOption('inplace');
  await expect(page.getByTestId('user-check-error')).toContainText("ManifestRefusal: unclaimed-layout: lab-add claims layouts");
  await run(page);
  expect(await runError(page)).toMatch(/unclaimed-layout/);
  await page.getByTestId('layout-select').selectOption('contiguous');

  const wgsl = page.getByTestId('user-wgsl-0');
  const source = await wgsl.inputValue();
  await wgsl.fill(source.replace('let x = a[', 'let x = aa['));
  await run(page);
  expect(await runError(page)).toMatch(/WgslCompileError[\s\S]*error at line 30:11: unresolved value 'aa'/);

  await wgsl.fill(source.replace('  out[p.offd + i] = x + y;', '  out[p.offd + i] = x + y;\n  if (i == 0u) {\n    out[p.offd + p.n] = 1.0;\n  }'));
  await run(page);
  expect(await runError(page)).toBeNull();
  await expect(page.getByTestId('result-correct')).toHaveText('NO');
  await expect(page.getByTestId('result-failures')).toContainText('byte(s) outside the output changed (out-of-bounds write)');
  await expect(page.getByTestId('result-untimed')).toContainText('a wrong kernel is never timed');
});

test('the lane times a kept kernel beside native and generated, with its verdict', async ({ page }) => {
  await openLab(page);
  await useExample(page, 'add', '1000x6');
  await run(page);
  expect(await runError(page)).toBeNull();
  await openTab(page, 'lane');
  const tick = page.locator('[data-testid^="lane-kernel-lab-add@"]').first();
  await tick.check();
  await page.getByTestId('lane-shapes').fill('ADD:1000x6, ADD:64x64:inplace');
  await page.getByTestId('lane-repeat').fill('2');
  expect(await runView(page, 'lane-run', 'lane-result')).toBeNull();
  const rows = page.getByTestId('lane-user-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText(/lab-add@[0-9a-f]{12}/);
  await expect(rows.nth(0)).toHaveAttribute('data-verdict', /^(faster|parity|within-tolerance|slower|undecided)$/);
  await expect(rows.nth(1)).toHaveAttribute('data-verdict', 'declared-fallback');
  await expect(rows.nth(1)).toContainText('unclaimed-layout');
});

test('a share link of a user-kernel result names the kernel and its hashes', async ({ page, browser }) => {
  await openLab(page);
  await useExample(page, 'rms-norm-split', '3000x5');
  await run(page);
  expect(await runError(page)).toBeNull();
  const id = (await page.getByTestId('result-user-kernel').innerText()).match(/lab-rms-norm-split@[0-9a-f]{12}/)![0];
  await page.getByTestId('share-link-button').click();
  await expect(page.getByTestId('share-link')).toHaveValue(/#r=2\./);
  const link = await page.getByTestId('share-link').inputValue();
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(link);
  await expect(other.getByTestId('shared-notice')).toContainText('Shared copy, read-only.');
  await expect(other.getByTestId('result')).toContainText(`RMS_NORM 3000x5 · user${id}`);
  await expect(other.getByTestId('result-user-kernel')).toContainText(/sumsq\.wgsl [0-9a-f]{64}/);
  await expect(other.getByTestId('result-user-kernel')).toContainText(/scale\.wgsl [0-9a-f]{64}/);
  await fresh.close();
});
