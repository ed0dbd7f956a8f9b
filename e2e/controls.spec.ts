// The `undecided` verdict on the page: a shared lane whose noise floor is above its tolerance
// reads as undecided, with the noise and the tolerance, in the warning tone — never as
// within-tolerance.
import { expect, test } from '@playwright/test';
import { encodeShare, shareUrl } from '../src/core/report/share';
import { sampleLane } from '../src/core/report/sample-results';

test('a shared lane shows an undecided shape with its noise and tolerance', async ({ page, baseURL }) => {
  const lane = sampleLane({ ops: ['ADD'] });
  const [first, ...rest] = lane.pairs[0].shapes;
  // A loaded software adapter: the native column moved by 30% on its own, the median 0.9×.
  const speedups = [0.85, 0.88, 0.9, 0.93, 0.95];
  const undecided = { ...first, speedups, speedupMedian: 0.9, speedupMin: 0.85, speedupMax: 0.95, generatedMedianNs: first.nativeMedianNs! / 0.9, effectFloor: 0.3, verdict: 'undecided' as const };
  const shared = { ...lane, pairs: [{ ...lane.pairs[0], shapes: [undecided, ...rest] }] };
  await page.goto(shareUrl(baseURL!, await encodeShare(shared)));
  await expect(page.getByTestId('shared-report')).toBeVisible({ timeout: 60_000 });
  const row = page.locator('[data-testid="lane-row"][data-verdict="undecided"]');
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('lane-verdict')).toHaveText('undecided (noise 30.0% > tolerance 5.0%)');
  await expect(row.getByTestId('lane-verdict')).toHaveClass(/tone-warn/);
});
