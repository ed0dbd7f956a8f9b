import { describe, expect, it } from 'vitest';
import { parseRunQuery, rerunRequest, runQueryFor } from './run-query';
import { validateResult } from './validate';
import { sampleLane, sampleLevel1 } from '../../../test/fixtures/sample-results';

describe('run queries (?op=…&run=1)', () => {
  it('reads what the Kernel form needs, by name', () => {
    expect(parseRunQuery('?op=mul_mat&shape=64x32x48&layout=src1-permuted&repeat=4&run=1')).toEqual({
      op: 'MUL_MAT',
      shape: '64x32x48',
      layout: 'src1-permuted',
      variant: 'auto',
      scheduleText: null,
      params: {},
      repeat: 4,
      run: true,
    });
    // (MUL_MAT with eps=1e-5 was accepted here before and the page dropped eps: now refused, below.)
    expect(parseRunQuery('?op=rms_norm&shape=64x32&params=eps=1e-5')).toMatchObject({ op: 'RMS_NORM', params: { eps: '1e-5' } });
    expect(parseRunQuery('?op=ADD&schedule={"family":"elementwise"}')).toMatchObject({ variant: 'schedule', scheduleText: '{"family":"elementwise"}', run: false });
    expect(parseRunQuery('?device=swiftshader')).toBeNull();
  });

  it('names a bad op, repeat or params', () => {
    expect(() => parseRunQuery('?op=SOFTMAX')).toThrow(/\?op=SOFTMAX: unknown op 'SOFTMAX'/);
    expect(() => parseRunQuery('?op=ADD&repeat=0')).toThrow(/\?repeat= must be a whole number from 1 to 16384, got '0'/);
    // Caps named, never run with fewer (the page once ran fewer than 1e9 without a word).
    for (const r of ['1000000000', '9007199254740993']) expect(() => parseRunQuery(`?op=ADD&repeat=${r}`)).toThrow(new RegExp(`\\?repeat= is ${r}, above the cap of 16384`));
    for (const r of ['1e308', '1e9', '0x10', '2.5', '-3', '']) expect(() => parseRunQuery(`?op=ADD&repeat=${r}`)).toThrow(/\?repeat= must be a whole number from 1 to 16384/);
    expect(parseRunQuery('?op=ADD&repeat=16384')?.repeat).toBe(16384);
    // An undeclared param is refused as the CLI refuses it, not dropped; inherited names are names like any other.
    expect(() => parseRunQuery('?op=ADD&params=eps=1e-5')).toThrow(/\?params=eps=1e-5: ADD takes no params, got eps/);
    expect(() => parseRunQuery('?op=ADD&params=__proto__=1')).toThrow(/\?params=__proto__=1: ADD takes no params, got __proto__/);
    expect(() => parseRunQuery('?op=RMS_NORM&params=constructor=1')).toThrow(/RMS_NORM has no param 'constructor' \(params: eps\)/);
    expect(() => parseRunQuery('?op=ADD&params=eps')).toThrow(/\?params=eps: param 'eps' is not name=value/);
  });

  it('round-trips a request through its query', () => {
    const q = runQueryFor({ op: 'RMS_NORM', dims: [256, 16], layout: 'rows', params: { eps: 1e-5 }, variant: { kind: 'schedule', schedule: { family: 'norm', workgroupSize: 64 } }, repeat: 3 });
    expect(q).toBe('?op=RMS_NORM&shape=256x16&layout=rows&params=eps%3D1e-5&schedule=%7B%22family%22%3A%22norm%22%2C%22workgroupSize%22%3A64%7D&repeat=3&run=1');
    expect(parseRunQuery(q)).toEqual({ op: 'RMS_NORM', shape: '256x16', layout: 'rows', variant: 'schedule', scheduleText: '{"family":"norm","workgroupSize":64}', params: { eps: '1e-5' }, repeat: 3, run: true });
  });
});

describe('rerunRequest (run this on my GPU)', () => {
  it('repeats a Level 1 result with the exact schedule it ran (from its key when the schedule is absent)', () => {
    expect(rerunRequest(sampleLevel1())).toEqual({
      kind: 'level1',
      request: { op: 'ADD', dims: [256, 16], layout: 'inplace', variant: { kind: 'schedule', schedule: { family: 'elementwise', elementsPerThread: 4, vectorWidth: 4, workgroupSize: 256 } } },
    });
  });

  it('repeats a lane with its pairs, shapes and statistics settings', () => {
    const lane = sampleLane({ repeat: 3 });
    const rr = rerunRequest(lane);
    if (rr?.kind !== 'lane') throw new Error('not a lane rerun');
    expect(rr.request).toMatchObject({ ops: lane.pairs.map((p) => p.op), repeat: 3, tolerance: 0.05, seed: 1 });
    expect(rr.request.shapes).toHaveLength(lane.pairs.reduce((n, p) => n + p.shapes.length, 0));
    expect(rr.request.shapes![0]).toMatchObject({ op: lane.pairs[0].op, layout: lane.pairs[0].shapes[0].layout });
  });

  it("re-runs a case from its own dims (results since caseId), and an older result's from its label", () => {
    const lane = sampleLane({ repeat: 3 });
    const first = lane.pairs[0].shapes[0];
    // A label is for people: the dims it shows need not be the ones to re-run (params, new layouts).
    const withDims = { ...lane, pairs: [{ ...lane.pairs[0], shapes: [{ ...first, shape: 'a label', dims: [96, 7], caseId: `${lane.pairs[0].op}:96x7:${first.layout}` }] }] };
    const rr = rerunRequest(validateResult(JSON.parse(JSON.stringify(withDims))));
    if (rr?.kind !== 'lane') throw new Error('not a lane rerun');
    expect(rr.request.shapes).toEqual([{ op: lane.pairs[0].op, dims: [96, 7], layout: first.layout }]);
    const older = rerunRequest(lane);
    if (older?.kind !== 'lane') throw new Error('not a lane rerun');
    expect(older.request.shapes![0].dims).toEqual(first.shape.split(' ')[0].split('x').map(Number));
    expect(() => validateResult(JSON.parse(JSON.stringify({ ...withDims, pairs: [{ ...withDims.pairs[0], shapes: [{ ...withDims.pairs[0].shapes[0], dims: [96, 0] }] }] })))).toThrow(/dims\[1\]: expected a whole number ≥ 1, got number 0/);
  });
});
