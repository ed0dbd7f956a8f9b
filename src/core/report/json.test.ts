// The JSON projection is the results' schema (src/core/schema/results.ts): what the lab writes
// is exactly the declared fields, so a field the schema does not declare would vanish from
// files and links — these tests catch that, and pin what stays in memory only.
import { describe, expect, it } from 'vitest';
import { sampleAdapter, sampleLane, sampleLevel1, sampleSweep } from '../../../test/fixtures/sample-results';
import type { LaneResult, LaneShape, Level1Result } from '../results';
import { RESULT_SCHEMAS } from '../schema/results';
import { calibrationJson, laneJson, level1Json } from './json';
import { validateResult } from './validate';

describe('result JSON from the one schema', () => {
  it('declares every field the lab writes: projecting a written result changes nothing', () => {
    const calibration = calibrationJson(
      { kind: 'calibration', adapterFingerprint: 'fp', copyGBps: 300, f32Gflops: 4000, f16Gflops: null, int8Gops: 900, mmaGflops: { '16x8x16': 12_000 }, copySpread: 0.01, emptyDispatchNs: 4100, measuredAt: '2026-03-01T10:00:00.000Z', details: ['copy: 256 MiB'] },
      sampleAdapter(),
    );
    const level1 = sampleLevel1({ dims: [256, 16], caseId: 'ADD:256x16:inplace', params: {}, workgroupSize: [64, 1, 1] });
    for (const r of [level1, sampleLane({ ops: ['ADD', 'MUL_MAT'] }), sampleSweep(), calibration]) {
      expect(validateResult(r)).toBe(r);
      expect(RESULT_SCHEMAS[r.kind].project(r), r.kind).toEqual(r);
    }
  });

  it('Level 1: keeps dims and caseId, leaves the WGSL, the samples and the worst index in memory', () => {
    const json = sampleLevel1();
    const result: Level1Result = {
      ...json,
      label: json.label!,
      maxErr: 0,
      bound: json.bound!,
      dims: [256, 16],
      caseId: 'ADD:256x16:inplace',
      userKernel: null,
      correctness: { ...json.correctness, correct: true, maxErr: 0, bound: 1e-6, worstRatio: 0, worstIndex: 17, checked: 4096 },
      timing: { ...json.timing!, samplesNs: [12_345.678, 12_000], spanNs: 14_814_813.6 },
      metrics: null,
      wgsl: '@compute @workgroup_size(256) fn main() {}',
      dispatch: [4, 1, 1],
      workgroupSize: undefined,
    };
    const out = level1Json(result);
    expect(out).not.toHaveProperty('wgsl');
    expect(out).not.toHaveProperty('userKernel');
    expect(out.correctness).not.toHaveProperty('worstIndex');
    expect(out.timing).not.toHaveProperty('samplesNs');
    expect(out).toMatchObject({ dims: [256, 16], caseId: 'ADD:256x16:inplace', metrics: null, correctness: { checked: 4096 } });
    expect(Object.keys(out).slice(0, 5)).toEqual(['kind', 'schemaVersion', 'labVersion', 'codeHash', 'op']);
    expect(validateResult(JSON.parse(JSON.stringify(out)))).toEqual(out);
  });

  it('lane: keeps each shape’s dims and caseId, leaves correctness flags and byte counts in memory, omits zero remeasures and empty user columns', () => {
    const json = sampleLane({ ops: ['ADD'] });
    const shape = json.pairs[0].shapes[0];
    const memShape: LaneShape = {
      ...shape,
      dims: [256, 16],
      caseId: 'ADD:256x16:inplace',
      remeasuredPasses: 0,
      users: [],
      nativeCorrect: true,
      generatedCorrect: true,
      generatedMaxErrRatio: 0.25,
      flops: null,
      readBytes: 32_768,
      writeBytes: 16_384,
      resolutionNs: 1,
      runsPerPass: 180,
      nativeMetrics: shape.nativeMetrics ?? null,
      generatedMetrics: shape.generatedMetrics ?? null,
    };
    const result = { ...json, settings: { ...json.settings, prefer: [], undeclare: [], control: null, wallBoundMs: 10_000, proposalRules: 0 }, pairs: [{ ...json.pairs[0], counters: { ...json.pairs[0].counters, undeclaredFallbacks: 0, nativeFallbacks: {} }, shapes: [memShape] }] } as unknown as LaneResult;
    const out = laneJson(result).pairs[0].shapes[0];
    expect(out).toMatchObject({ dims: [256, 16], caseId: 'ADD:256x16:inplace' });
    for (const k of ['nativeCorrect', 'generatedCorrect', 'generatedMaxErrRatio', 'readBytes', 'resolutionNs', 'runsPerPass', 'remeasuredPasses', 'users']) expect(out, k).not.toHaveProperty(k);
    expect(laneJson({ ...result, pairs: [{ ...result.pairs[0], shapes: [{ ...memShape, remeasuredPasses: 2 }] }] }).pairs[0].shapes[0].remeasuredPasses).toBe(2);
  });
});
