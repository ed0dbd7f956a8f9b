// Helpers the e2e specs share: open the page, pick what to run, run it and wait for its answer.
import { expect, type Locator, type Page } from '@playwright/test';

/** SwiftShader is a CPU: shapes above this many elements (dims multiplied) are shrunk for e2e. */
export const SMALL_ELEMENTS = 1 << 21;

export async function openLab(page: Page, path = './'): Promise<void> {
  await page.goto(path);
  await expect(page.getByTestId('kernel-view')).toBeVisible({ timeout: 60_000 });
}

export async function listedOps(page: Page): Promise<string[]> {
  return page.getByTestId('op-select').locator('option').evaluateAll((opts) => opts.map((o) => (o as HTMLOptionElement).value));
}

function elements(label: string): number {
  return label
    .split(' ')[0]
    .split('x')
    .reduce((a, d) => a * Number(d), 1);
}

/**
 * The smallest entry of the op's shape matrix, as the shape select lists it; entries in the
 * default layout (labels without a layout suffix) first, so 'auto' exercises generated code.
 */
export async function smallestMatrixEntry(page: Page): Promise<{ value: string; label: string }> {
  const entries = await page
    .getByTestId('shape-select')
    .locator('option')
    .evaluateAll((opts) => opts.map((o) => ({ value: (o as HTMLOptionElement).value, label: (o.textContent ?? '').trim() })));
  const matrix = entries.filter((e) => e.value !== 'custom');
  expect(matrix.length, 'the op lists a shape matrix').toBeGreaterThan(0);
  const plain = matrix.filter((e) => !e.label.includes(' '));
  return (plain.length ? plain : matrix).reduce((best, e) => (elements(e.label) < elements(best.label) ? e : best));
}

/**
 * Picks the op's smallest matrix shape; when even that is large for a CPU adapter, halves its
 * dims as a custom shape (keeping the layout) while the op still accepts the result.
 */
export async function pickSmallShape(page: Page): Promise<string> {
  const entry = await smallestMatrixEntry(page);
  await page.getByTestId('shape-select').selectOption(entry.value);
  let dims = entry.label.split(' ')[0].split('x').map(Number);
  let label = entry.label;
  while (dims.reduce((a, b) => a * b, 1) > SMALL_ELEMENTS && dims.some((d) => d > 8)) {
    const smaller = dims.map((d) => (d > 8 ? Math.ceil(d / 2) : d));
    await page.getByTestId('shape-input').fill(smaller.join('x'));
    if (await page.getByTestId('shape-error').isVisible()) {
      await page.getByTestId('shape-select').selectOption(entry.value);
      break;
    }
    dims = smaller;
    label = `${smaller.join('x')} (custom, from ${entry.label})`;
  }
  return label;
}

export function variantRadio(page: Page, kind: 'auto' | 'native' | 'schedule' | 'user'): Locator {
  return page.getByTestId(`variant-${kind}`);
}

/** Presses Run and waits for its answer: a result panel or an error box. */
export async function run(page: Page): Promise<void> {
  const button = page.getByTestId('run-button');
  await expect(button).toBeEnabled();
  await button.click();
  await expect(page.getByTestId('result').or(page.getByTestId('error'))).toBeVisible({ timeout: 120_000 });
  await expect(button).toBeEnabled();
}

/** The run's error box text, if the run failed (so a failing assertion shows why). */
export async function runError(page: Page): Promise<string | null> {
  const box = page.getByTestId('error');
  return (await box.isVisible()) ? await box.innerText() : null;
}

/** Opens a tab by its link, as a user would, and waits for its view. */
export async function openTab(page: Page, id: 'kernel' | 'lane' | 'sweep' | 'formats' | 'device' | 'census'): Promise<void> {
  await page.getByTestId(`tab-${id}`).click();
  await expect(page).toHaveURL(new RegExp(`#/${id}$`));
  await expect(page.getByTestId(`${id}-view`)).toBeVisible();
}

/** Presses a view's run button and waits for its result, or its error box (returned as text). */
export async function runView(page: Page, button: string, result: string, timeoutMs = 150_000): Promise<string | null> {
  const b = page.getByTestId(button);
  await expect(b).toBeEnabled();
  await b.click();
  await expect(page.getByTestId(result).or(page.getByTestId('error'))).toBeVisible({ timeout: timeoutMs });
  await expect(b).toBeEnabled();
  return runError(page);
}

/** Where a chart's point layer drew its points, in viewport coordinates (for hovering one). */
export async function chartPoints(chart: Locator): Promise<{ x: number; y: number }[]> {
  const over = chart.locator('.u-over');
  // Mouse events reach only what is inside the viewport.
  await over.scrollIntoViewIfNeeded();
  const box = await over.boundingBox();
  const raw = await over.getAttribute('data-points-css');
  if (!box || !raw) return [];
  return (JSON.parse(raw) as [number, number][]).map(([x, y]) => ({ x: box.x + x, y: box.y + y }));
}
