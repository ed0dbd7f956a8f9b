// Results from outside the page (links, imported files) are checked field by field; the error
// names the path and what was wrong.
import { describe, expect, it } from 'vitest';
import { adapterFingerprint } from '../adapter';
import { calibrationJson } from './json';
import { resultMarkdown } from './markdown';
import { sampleAdapter, sampleLane, sampleLevel1, sampleSweep } from './sample-results';
import { decodeShare, encodeShare } from './share';
import { ResultShapeError, validateResult } from './validate';

const calibration = () => calibrationJson({ kind: 'calibration', adapterFingerprint: adapterFingerprint(sampleAdapter()), copyGBps: 12.5, f32Gflops: 40, f16Gflops: null, emptyDispatchNs: 21_000, measuredAt: '2026-01-01T00:00:00.000Z', details: [] }, sampleAdapter());
const copy = <T>(x: T): T => JSON.parse(JSON.stringify(x));

function rejects(v: unknown, message: RegExp): void {
  expect(() => validateResult(v)).toThrow(ResultShapeError);
  expect(() => validateResult(v)).toThrow(message);
}

describe('validateResult', () => {
  it('accepts every kind the lab writes, extra fields included', () => {
    for (const r of [sampleLevel1(), sampleLane(), sampleSweep(), calibration()]) expect(validateResult(copy(r))).toEqual(copy(r));
    expect(validateResult({ ...copy(sampleLevel1()), addedByANewerLab: [1, 2] }).kind).toBe('level1');
  });

  it("carries a case's params (older results without them still read)", async () => {
    const withParams = { ...copy(sampleLevel1()), label: '4096x8 eps=1e-5', params: { eps: 1e-5 } };
    expect(validateResult(withParams)).toMatchObject({ params: { eps: 1e-5 } });
    expect(await decodeShare(await encodeShare(withParams))).toMatchObject({ label: '4096x8 eps=1e-5', params: { eps: 1e-5 } });
    rejects({ ...withParams, params: { eps: 'small' } }, /params\.eps: expected a finite number/);
  });

  it('names the path and what was wrong', () => {
    rejects(null, /the result: expected an object, got null/);
    rejects({ kind: 'level2', schemaVersion: 1 }, /kind: expected one of level1, lane, sweep, calibration, got 'level2'/);
    rejects({ ...copy(sampleLevel1()), schemaVersion: 0 }, /schemaVersion: expected a positive integer/);
    rejects({ ...copy(sampleLevel1()), schemaVersion: 7 }, /schemaVersion 7 is newer than this lab reads \(1\)/);
    const lane = copy(sampleLane());
    lane.pairs[2].shapes[3].speedups = [1.1, 'fast' as unknown as number];
    rejects(lane, /lane result: pairs\[2\]\.shapes\[3\]\.speedups\[1\]: expected a number ≥ 0|a finite number/);
    const level1 = copy(sampleLevel1());
    (level1.adapter as { runtime: string }).runtime = 'deno';
    rejects(level1, /level1 result: adapter\.runtime: expected one of browser, node, got 'deno'/);
    const sweep = copy(sampleSweep());
    (sweep.candidates[1] as { status: string }).status = 'great';
    rejects(sweep, /sweep result: candidates\[1\]\.status: expected one of accepted/);
    const when = copy(sampleLevel1());
    when.startedAt = 'yesterday';
    rejects(when, /startedAt: expected an ISO date, got 'yesterday'/);
    const metrics = { ...copy(sampleLevel1()), metrics: { gbps: 'lots' } };
    rejects(metrics, /metrics\.latencyMinUs: expected a finite number/);
  });

  it('a sweep shares, and its markdown names what was accepted', async () => {
    const sweep = sampleSweep();
    expect(await decodeShare(await encodeShare(sweep))).toEqual(copy(sweep));
    const md = resultMarkdown(sweep);
    expect(md).toContain('### kernel-lab sweep: ADD — 1 accepted of 3 candidates');
    expect(md).toContain('| `elementwise{"elementsPerThread":2,"vectorWidth":4,"workgroupSize":64}` | accepted | 6.2% |');
    expect(md).toContain('Proposal: 1 shape rule to review (1000x33).');
  });
});
