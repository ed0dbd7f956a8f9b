// Results from outside the page (links, imported files) are checked field by field; the error
// names the path and what was wrong.
import { describe, expect, it } from 'vitest';
import { adapterFingerprint } from '../adapter';
import { calibrationJson } from './json';
import { resultMarkdown } from './markdown';
import { sampleAdapter, sampleLane, sampleLevel1, sampleSweep } from '../../../test/fixtures/sample-results';
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
    rejects({ kind: 'level2', schemaVersion: 1 }, /kind: expected one of level1, lane, sweep, calibration, formats, got 'level2'/);
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

  it('reads own properties only: an inherited name is never a kind, a field or a key', () => {
    for (const kind of ['hasOwnProperty', 'constructor', '__proto__', 'toString']) rejects({ ...copy(sampleLevel1()), kind }, /kind: expected one of level1, lane, sweep, calibration/);
    // A field that is only inherited is missing.
    const inherits = Object.assign(Object.create({ green: true }), copy(sampleLane()));
    delete inherits.green;
    rejects(inherits, /not a plain JSON object/);
    for (const key of ['constructor', '__proto__', 'hasOwnProperty']) {
      const lane = JSON.parse(JSON.stringify(copy(sampleLane())).replace('"nativeFallbacks":{}', `"nativeFallbacks":{"${key}":1}`));
      rejects(lane, new RegExp(`key '${key}' names an inherited object member`));
    }
  });

  it('refuses a half-built speedup: a median without its min or max, or the reverse', () => {
    const lane = copy(sampleLane());
    lane.pairs[0].shapes[0].speedupMin = null;
    rejects(lane, /pairs\[0\]\.shapes\[0\]\.speedupMin: null while speedupMedian is set \(a half-built speedup\)/);
    const stray = copy(sampleLane());
    stray.pairs[1].shapes[2].speedupMedian = null;
    rejects(stray, /pairs\[1\]\.shapes\[2\]\.speedupMin: set while speedupMedian is null/);
    const empty = copy(sampleLane());
    empty.pairs[0].shapes[1].speedups = [];
    rejects(empty, /speedups: empty while speedupMedian is set/);
    const disordered = copy(sampleLane());
    disordered.pairs[0].shapes[0].speedupMin = 99;
    rejects(disordered, /speedupMin ≤ speedupMedian ≤ speedupMax does not hold/);
    const timedWrong = copy(sampleLevel1());
    timedWrong.correct = false;
    rejects(timedWrong, /timing: a wrong kernel is never timed/);
  });

  it('takes only strict ISO timestamps, as the lab writes them', () => {
    for (const ok of ['2026-03-01T10:00:00.000Z', '2026-03-01T10:00:00Z', '2024-02-29T23:59:59.123+05:30']) expect(validateResult({ ...copy(sampleLevel1()), startedAt: ok }).kind).toBe('level1');
    // Each of these Date.parse takes.
    for (const bad of ['1', '2026', '2026-03-01', 'Tue Mar 01 2026', '+275760-09-13T00:00:00.000Z', '2026-02-30T00:00:00Z', '2025-02-29T00:00:00Z', '1969-12-31T23:59:59Z', '2026-03-01T24:00:00Z', '2026-03-01 10:00:00Z']) {
      rejects({ ...copy(sampleLevel1()), startedAt: bad }, /startedAt: expected an ISO date/);
    }
  });

  it('caps the work a result costs to render: a 1000 shapes × 300 candidates sweep is refused by its cells', () => {
    const base = copy(sampleSweep());
    const shapes = Array.from({ length: 60 }, (_, i) => `${i + 1}x16`);
    const cell = (shape: string) => ({ shape, medianNs: 1000, spread: 0.01, gain: 0.01, outcome: 'noise', metrics: null });
    const candidate = (i: number) => ({ ...base.candidates[1], key: `elementwise{"n":${i}}`, shapes: shapes.map(cell) });
    const heavy = { ...base, shapes, reference: [], proposal: [], candidates: Array.from({ length: 300 }, (_, i) => candidate(i)) };
    rejects(heavy, /candidates: 300 candidates × 60 shapes = 18000 table cells, over the cap of 8192/);
    // The link: 1000 shapes × 300 candidates with no cells filled, 300 000 table cells to draw.
    const empty = { ...base, shapes: Array.from({ length: 1000 }, (_, i) => `${i + 1}x16`), reference: [], proposal: [], candidates: Array.from({ length: 300 }, (_, i) => ({ ...candidate(i), shapes: [] })) };
    rejects(empty, /shapes: 1000 items, over the cap of 64/);
    rejects({ ...empty, shapes: shapes }, /candidates: 300 candidates × 60 shapes = 18000 table cells/);
    rejects({ ...base, shapes: Array.from({ length: 1000 }, (_, i) => `${i + 1}x16`) }, /shapes: 1000 items, over the cap of 64/);
    const stranger = copy(sampleSweep());
    (stranger.candidates[0].shapes[0] as { shape: string }).shape = '9x9';
    rejects(stranger, /candidates\[0\]\.shapes\[0\]\.shape: '9x9' is not one of the sweep's shapes/);
    rejects({ ...copy(sampleLevel1()), op: 'A'.repeat(300) }, /op: 300 characters, over the 256-character cap/);
  });

  it('refuses nesting past the depth cap before anything recurses into it', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const sweep = copy(sampleSweep()) as unknown as { settings: { space: Record<string, unknown> } };
    sweep.settings.space.workgroupSize = deep;
    rejects(sweep, /nested more than 12 deep/);
    rejects({ ...copy(sampleLevel1()), addedByANewerLab: deep }, /nested more than 12 deep/);
  });
});
