// Results with a user kernel say which one it was: its id and hashes in text, markdown, the
// result JSON's validation and a share link's round trip.
import { describe, expect, it } from 'vitest';
import type { LaneUserColumn, UserKernelRef } from '../manifest/source';
import { laneMarkdown, level1Markdown } from './markdown';
import { sampleLane, sampleLevel1 } from '../../../test/fixtures/sample-results';
import { decodeShare, encodeShare } from './share';
import { validateResult } from './validate';

const kernel: UserKernelRef = {
  name: 'lab-add',
  id: 'lab-add@0123456789ab',
  manifestSha256: '0123456789ab'.padEnd(64, 'c'),
  wgsl: [{ file: 'add.wgsl', sha256: 'd'.repeat(64) }],
};

const column = (over: Partial<LaneUserColumn> = {}): LaneUserColumn => ({
  kernel,
  verdict: 'faster',
  refusal: null,
  correct: true,
  maxErrRatio: 0.1,
  medianNs: 20_000,
  speedups: [1.4, 1.5, 1.6],
  speedupMedian: 1.5,
  speedupMin: 1.4,
  speedupMax: 1.6,
  metrics: null,
  note: null,
  ...over,
});

describe('user kernels in results', () => {
  it('Level 1 markdown names the kernel and every hash', () => {
    const r = sampleLevel1({ variant: 'user', scheduleKey: null, userKernel: kernel });
    const md = level1Markdown(r);
    expect(md).toMatch(/### kernel-lab Level 1: ADD 256x16 inplace · user `lab-add@0123456789ab` ✅ correct/);
    expect(md).toContain('| ADD | 256x16 inplace | user | `lab-add@0123456789ab` |');
    expect(md).toContain(`User kernel \`lab-add@0123456789ab\`: manifest sha256 \`${kernel.manifestSha256}\`, add.wgsl \`${'d'.repeat(64)}\``);
  });

  it('lane markdown adds a user table, native ÷ user, with refusals named', () => {
    const lane = sampleLane();
    const shapes = lane.pairs[0].shapes.map((s, i) => ({ ...s, users: [i === 0 ? column() : column({ verdict: 'declared-fallback', refusal: { code: 'unclaimed-layout', reason: 'not claimed', declared: true }, medianNs: null, speedups: [], speedupMedian: null, speedupMin: null, speedupMax: null })] }));
    const md = laneMarkdown({ ...lane, pairs: [{ ...lane.pairs[0], shapes }, ...lane.pairs.slice(1)] });
    expect(md).toContain('| shape | kernel | user µs | speedup median [min–max] | verdict |');
    expect(md).toContain(`| ${shapes[0].shape} | \`lab-add@0123456789ab\` | 20.0 | 1.50 [1.40–1.60] | faster |`);
    expect(md).toContain(`| ${shapes[1].shape} | \`lab-add@0123456789ab\` | — | — | declared-fallback (unclaimed-layout) |`);
    expect(md.match(/- User kernel `lab-add@0123456789ab`/g)).toHaveLength(1);
  });

  it('validates and survives a share link', async () => {
    const r = sampleLevel1({ variant: 'user', scheduleKey: null, userKernel: kernel });
    expect(validateResult(JSON.parse(JSON.stringify(r)))).toMatchObject({ variant: 'user', userKernel: kernel });
    const back = await decodeShare(await encodeShare(r));
    expect(back).toMatchObject({ variant: 'user', userKernel: kernel });
    const lane = sampleLane();
    const withUsers = { ...lane, pairs: [{ ...lane.pairs[0], shapes: lane.pairs[0].shapes.map((s) => ({ ...s, users: [column()] })) }] };
    const laneBack = await decodeShare(await encodeShare(withUsers));
    expect(laneBack.kind === 'lane' && laneBack.pairs[0].shapes[0].users?.[0].kernel.id).toBe('lab-add@0123456789ab');
    expect(() => validateResult({ ...r, userKernel: { name: 'x' } })).toThrow(/userKernel/);
  });
});
