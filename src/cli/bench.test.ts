import { describe, expect, it } from 'vitest';
import { sampleAdapter } from '../../test/fixtures/sample-results';
import { BENCH_ITEMS, formatBench, type BenchRow } from './bench';

const row = (variant: string, medianNs: number, vsGenerated: number | null): BenchRow => ({
  id: 'gemv-4096', title: 'GEMV f32 (weights TB/s)', variant, shape: '4096x1x4096', scheduleKey: null, correct: true,
  medianNs, minNs: medianNs, maxNs: medianNs, runs: 100, resolutionNs: 32, value: null, valueText: 'x', target: '≥ 3.0 TB/s of weights', pass: null, vsGenerated,
});

describe('bench', () => {
  it("has a row id for each of issue 11's targets", () => {
    expect(BENCH_ITEMS.map((i) => i.id)).toEqual(['add-64m', 'gemv-4096', 'gemv-16384', 'gemv-4096x8', 'sgmatrix-4096', 'sgmatrix-4096x512', 'f16w-4096', 'mul-mat-4096', 'mul-mat-4096x512', 'rms-norm-stability']);
    expect(BENCH_ITEMS.find((i) => i.id === 'sgmatrix-4096')).toMatchObject({ params: { type0: 1, type1: 1 }, target: { value: 250_000 }, mmaCeiling: true });
    expect(BENCH_ITEMS.find((i) => i.id === 'gemv-4096x8')).toMatchObject({ dims: { full: [4096, 8, 4096] }, kind: 'latency', target: { value: 60_000 } });
  });

  it('lists the peer beside generated and native, with the ratio to generated and the MMA ceiling', () => {
    const text = formatBench({
      kind: 'bench', date: '2026-12-01T00:00:00.000Z', size: 'full', adapter: sampleAdapter(),
      rows: [row('generated', 20_000, null), row('native', 500_000, 25), row('TensorFlow.js 4.22.0 webgpu', 120_000, 6)],
      mmaCeilingGflops: { '16x8x16': 645_000 },
      peerMethod: 'tf.time kernelMs',
    });
    expect(text).toMatch(/TensorFlow\.js 4\.22\.0 webgpu .*120 µs.*6\.00×/);
    expect(text).toMatch(/native .*25\.00×/);
    expect(text).toMatch(/Subgroup-matrix ceiling \(register-only subgroupMatrixMultiplyAccumulate loop, f16→f32\): 16x8x16 645\.00 TFLOP\/s\./);
    expect(text).toMatch(/Peer timing: tf\.time kernelMs; same process, same Dawn GPU object/);
  });
});
