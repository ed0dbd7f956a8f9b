// The Formats view in headless Chromium (SwiftShader: a small GEMM, four formats): the CLI's table
// (fastest first; f16 runs native with the adapter's declared reason, q4_k a row with its reason),
// the accuracy/speed frontier, the run stored in History, its share link opened back (and the
// same link altered: refused by name), and its PR markdown with the link.
import { expect, test, type Page } from '@playwright/test';
import { chartPoints, openLab } from './lab-page';

async function openFormats(page: Page): Promise<void> {
  await page.getByTestId('tab-formats').click();
  await expect(page).toHaveURL(/#\/formats$/);
  await expect(page.getByTestId('formats-view')).toBeVisible();
}

/** The table's rows as [format, cells…]. */
async function tableRows(page: Page, within = page.locator('body')): Promise<string[][]> {
  return within.getByTestId('formats-row').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())));
}

test('Formats: table, frontier, History, share link and PR markdown', async ({ page }, testInfo) => {
  await openLab(page);
  await openFormats(page);
  await page.getByTestId('formats-op').selectOption('gemm');
  await page.getByTestId('formats-shape').fill('32x16x64');
  await page.getByTestId('formats-none').click();
  await expect(page.getByTestId('formats-blocked')).toHaveText('choose at least one format');
  for (const f of ['f16', 'q4_0', 'q8_0', 'q4_k']) await page.getByTestId(`format-${f}`).check();
  // Decided by the plan before any run: q4_k's super-block does not divide K.
  await expect(page.getByTestId('formats-plan-note')).toContainText('q4_k (MUL_MAT 32x16x64: q4_k: K = 64 is not a multiple of its block size 256');
  // A shape the op refuses blocks the run, with the plan's words.
  await page.getByTestId('formats-shape').fill('32x4x64');
  await expect(page.getByTestId('formats-blocked')).toContainText('gemm covers N > 8 (N = 4); use --op gemv');
  await page.getByTestId('formats-shape').fill('32x16x64');

  await page.getByTestId('formats-run').click();
  await expect(page.getByTestId('formats-result').or(page.getByTestId('error'))).toBeVisible({ timeout: 170_000 });
  await expect(page.getByTestId('error')).toHaveCount(0);

  const rows = await tableRows(page);
  expect(rows.map((r) => r[0])).toHaveLength(4);
  // Fastest first: three timed rows in ascending median, then q4_k with its reason.
  expect(rows[3][0]).toBe('q4_k');
  expect(rows[3][2]).toBe('—');
  expect(rows[3][10]).toBe('MUL_MAT 32x16x64: q4_k: K = 64 is not a multiple of its block size 256, and q4_k forbids a ragged tail block');
  const timed = rows.slice(0, 3);
  expect(timed.map((r) => r[0]).sort()).toEqual(['f16', 'q4_0', 'q8_0']);
  for (const r of timed) expect(r[2]).toMatch(/^[\d.]+ (ns|µs|ms) \[/);
  const byFormat = Object.fromEntries(rows.map((r) => [r[0], r]));
  // f16 weights past the GEMV ground need shader-f16 and subgroup matrices: SwiftShader lacks them, the native kernel ran, and the row says why.
  expect(byFormat.f16[10]).toBe('native (fallback: no-shader-f16)');
  expect(byFormat.f16[8]).toBe('—');
  expect(byFormat.q4_0[1]).toBe('4.5');
  expect(byFormat.q8_0[1]).toBe('8.5');
  expect(Number(byFormat.q8_0[8])).toBeLessThan(Number(byFormat.q4_0[8]));

  // The frontier: q4_0 and q8_0 placed (f16 has no error, q4_k no time), on log scales.
  const chart = page.getByTestId('formats-frontier');
  await expect(chart.locator('canvas')).toBeVisible();
  const points = await chartPoints(chart);
  expect(points).toHaveLength(2);
  await page.mouse.move(points[0].x, points[0].y);
  await expect(chart.getByTestId('chart-tooltip')).toContainText(/(q4_0|q8_0) · (4\.5|8\.5) bits\/weight/);
  await expect(page.getByTestId('formats-unplaced')).toContainText('f16 not on the chart: no quantization error');
  await expect(page.getByTestId('formats-unplaced')).toContainText('q4_k not on the chart: MUL_MAT 32x16x64');
  await expect(chart).toHaveAttribute('aria-label', 'formats of gemm 32x16x64: median µs (lower is faster) against NMSE');
  await page.getByTestId('formats-frontier-axis').selectOption('bandwidth');
  await expect(chart).toHaveAttribute('aria-label', 'formats of gemm 32x16x64: GB/s of the weights as stored (higher is faster) against NMSE');
  expect(await chartPoints(chart)).toHaveLength(2);
  await expect(page.getByTestId('save-status')).toContainText('Saved to History');
  await page.screenshot({ path: testInfo.outputPath('formats-view.png'), fullPage: true });

  // PR markdown: the CLI's table, the link last.
  await page.getByTestId('copy-pr-button').click();
  const md = await page.getByTestId('pr-markdown').inputValue();
  expect(md).toContain('### Formats: gemm (MUL_MAT 32x16x64) on ');
  expect(md).toContain('| format | bits/w | median [p20–p80] |');
  expect(md).toMatch(/\| q4_k \| 4\.5 \| — \|/);
  expect(md).toMatch(/\[Open this result in kernel-lab\]\(http:\/\/127\.0\.0\.1:\d+\/#r=2/);

  // Stored in History under this adapter, and it opens with the same table.
  await page.getByTestId('tab-history').click();
  const history = page.getByTestId('history-row');
  await expect(history).toHaveCount(1);
  await expect(history.first().getByTestId('history-what')).toHaveText('formats gemm · MUL_MAT 32x16x64 · 4 formats');
  await expect(history.first().getByTestId('history-verdict')).toHaveText('3 timed');
  await history.first().getByTestId('history-open').click();
  const report = page.getByTestId('history-report');
  expect(await tableRows(page, report)).toEqual(rows);

  // The share link opens the same result read-only; altered, it is refused by name.
  await report.getByTestId('share-link-button').click();
  const field = report.getByTestId('share-link');
  await expect(field).toHaveValue(/#r=2\./);
  const link = await field.inputValue();
  await page.goto(link);
  await expect(page.getByTestId('shared-notice')).toContainText('This formats result was measured on');
  expect(await tableRows(page)).toEqual(rows);
  await expect(page.getByTestId('formats-frontier').locator('canvas')).toBeVisible();
  const i = link.length - 12;
  const altered = link.slice(0, i) + (link[i] === 'A' ? 'B' : 'A') + link.slice(i + 1);
  await page.goto('about:blank');
  await page.goto(altered);
  await expect(page.getByTestId('share-error')).toContainText('ShareLinkError');
  await expect(page.getByTestId('share-error')).toContainText('damaged');
});
