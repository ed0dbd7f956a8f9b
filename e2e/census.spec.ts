// The Census view in headless Chromium: the tiny preset by default, the 7B-like preset within
// 2 s, a GGUF file picked (its header only), and a file that is not GGUF named while the view
// stays usable.
import { expect, test } from '@playwright/test';
import { writeGgufHeader } from '../src/core/census/gguf';
import { openLab, openTab } from './lab-page';

const u32 = (key: string, value: number) => ({ key, type: 'u32' as const, value });

test('census: presets, a GGUF header, a bad file', async ({ page }) => {
  await openLab(page);
  await openTab(page, 'census');
  await expect(page.getByTestId('census-summary')).toContainText('tiny: vocab 512, embedding 64, 8 heads (4 KV), 5 layers, FFN 172, context 128, batch 1 — 630 nodes (436 compute, 146 views, 48 parameters)');
  await expect(page.getByTestId('census-table').locator('tr[data-op="MUL_MAT"] td').nth(1)).toHaveText('46');
  await expect(page.getByTestId('census-chart').locator('canvas')).toBeVisible();
  await expect(page.getByTestId('census-views')).toHaveText('views (no bytes moved): TRANSPOSE 56, PERMUTE 40, RESHAPE 35, VIEW 15');
  await expect(page.getByTestId('census-adamw-note')).toContainText("ggml_nbytes(node) counts the parameter only");

  await page.getByTestId('census-preset').selectOption('7b');
  await expect(page.getByTestId('census-summary')).toContainText('7b: vocab 32000, embedding 4096, 32 heads (32 KV), 32 layers');
  const ms = Number((await page.getByTestId('census-summary').textContent())!.match(/built in (\d+) ms/)![1]);
  expect(ms).toBeLessThan(2000);

  const gguf = writeGgufHeader(
    [
      { key: 'general.architecture', type: 'string', value: 'llama' },
      u32('llama.vocab_size', 1000),
      u32('llama.embedding_length', 128),
      u32('llama.attention.head_count', 4),
      u32('llama.block_count', 3),
      u32('llama.feed_forward_length', 256),
    ],
    [{ name: 'output.weight', ne: [128, 1000], type: 0, offset: 0n }],
  );
  await page.getByTestId('census-file').setInputFiles({ name: 'small.gguf', mimeType: 'application/octet-stream', buffer: Buffer.from(gguf) });
  await expect(page.getByTestId('census-summary')).toContainText('small.gguf: vocab 1000, embedding 128, 4 heads (4 KV), 3 layers, FFN 256');

  await page.getByTestId('census-file').setInputFiles({ name: 'notes.gguf', mimeType: 'text/plain', buffer: Buffer.from('just some text, not a model') });
  await expect(page.getByTestId('census-error')).toContainText("not a GGUF file: magic at offset 0 is 0x7473756a, not 'GGUF'");
  await expect(page.getByTestId('census-summary')).toContainText('small.gguf'); // the last good model stays
  await page.getByTestId('census-preset').selectOption('tiny');
  await expect(page.getByTestId('census-error')).toHaveCount(0);
  await expect(page.getByTestId('census-summary')).toContainText('tiny: vocab 512');
});
