// The built page (dist/) hosted under a sub-path, as GitHub Pages serves it
// (https://owner.github.io/repo/): the page, its worker and its assets load relative to it, a
// run-query link runs, and a share link made there opens there.
import { mkdtempSync, mkdirSync, symlinkSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { serveStatic } from '../src/cli/static-server';

let server: Server;
let site: string;

test.beforeAll(async () => {
  const root = mkdtempSync(join(tmpdir(), 'lab-site-'));
  mkdirSync(join(root, 'team'));
  symlinkSync(resolve('dist'), join(root, 'team', 'kernel-lab'));
  const served = await serveStatic(root, 0);
  server = served.server;
  site = `${served.url}team/kernel-lab/`;
});

test.afterAll(() => new Promise<void>((done) => server.close(() => done())));

test('dist/ works from a sub-path: a run link runs, and its share link opens there', async ({ page }) => {
  const failed: string[] = [];
  page.on('response', (r) => {
    if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
  });
  await page.goto(`${site}?op=ADD&shape=256x16&run=1`);
  await expect(page.getByTestId('kernel-view')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('result')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('result-correct')).toHaveText('yes');

  await page.getByTestId('share-link-button').click();
  const field = page.getByTestId('share-link');
  await expect(field).toHaveValue(/#r=2\./);
  const link = await field.inputValue();
  expect(link.startsWith(site)).toBe(true);
  await page.goto('about:blank');
  await page.goto(link);
  await expect(page.getByTestId('shared-report')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('result')).toContainText('256x16');
  expect(failed, 'every asset and the worker load under the sub-path').toEqual([]);
});
