// The `undecided` verdict on the page: a shared lane whose noise floor is above its tolerance
// reads as undecided, with the noise and the tolerance, in the warning tone — never as
// within-tolerance.
import { expect, test } from '@playwright/test';
import { encodeShare, shareUrl } from '../src/core/report/share';
import type { LaneJson } from '../src/core/report/json';

/** One ADD shape measured on a loaded software adapter: the native column moved 30% on its own. */
function noisyLane(): LaneJson {
  const speedups = [0.85, 0.88, 0.9, 0.93, 0.95];
  return {
    kind: 'lane',
    schemaVersion: 1,
    labVersion: '0.1.0',
    codeHash: 'e2e0controls',
    adapter: { vendor: 'google', architecture: 'swiftshader', device: 'swiftshader device', description: 'SwiftShader Device', isFallbackAdapter: true, runtime: 'node', features: ['timestamp-query'], limits: { maxStorageBufferBindingSize: 134217728 } },
    settings: { repeat: 5, tolerance: 0.05, seed: 1, prefer: [], control: null, undeclare: [], wallBoundMs: 10000, proposalRules: 0 },
    pairs: [
      {
        op: 'ADD',
        state: 'observe',
        registryState: 'observe',
        gating: false,
        counters: { generatedDispatches: 50, nativeFallbacks: {}, undeclaredFallbacks: 0, deviceRejections: 0 },
        shapes: [
          { shape: '1024x64', layout: 'contiguous', scheduleKey: 'k', nativeMedianNs: 90_000, generatedMedianNs: 100_000, speedupMedian: 0.9, speedupMin: 0.85, speedupMax: 0.95, speedups, effectFloor: 0.3, verdict: 'undecided', fallback: null, note: null, nativeMetrics: null, generatedMetrics: null },
        ],
        checklist: [{ id: 'semantics', title: 'semantics exact', pass: true, evidence: '1/1' }],
        verdict: 'work-items',
      },
    ],
    skipped: [],
    green: true,
    startedAt: '2026-12-02T05:00:00.000Z',
    durationMs: 1234,
  } as unknown as LaneJson;
}

test('a shared lane shows an undecided shape with its noise and tolerance, in the warning tone', async ({ page, baseURL }) => {
  await page.goto(shareUrl(baseURL!, await encodeShare(noisyLane())));
  await expect(page.getByTestId('shared-report')).toBeVisible({ timeout: 60_000 });
  const row = page.locator('[data-testid="lane-row"][data-verdict="undecided"]');
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('lane-verdict')).toHaveText('undecided (noise 30.0% > tolerance 5.0%)');
  await expect(row.getByTestId('lane-verdict')).toHaveClass(/tone-warn/);
});
