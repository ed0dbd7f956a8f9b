// The quantized ops through Level 1 on SwiftShader: DEQUANT's native and generated kernels
// against the codec's decode for a representative subset of formats (ggml legacy, K-quant, ggml
// MXFP4, Track-1 float with a two-level scale, a straddling 3-bit integer with a ragged tail).
// The whole format list runs in `lab formats --op dequant` (scripts/gpu/h200.sh's formats step).
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli';

const timeAll = (...args: string[]) => {
  const r = runCli(['time', '--json', '-', ...args]);
  const json = r.stdout.includes('{') ? JSON.parse(r.stdout.slice(r.stdout.indexOf('{'), r.stdout.lastIndexOf('}') + 1)) : null;
  return { ...r, json };
};

describe('DEQUANT through the registry on SwiftShader', () => {
  for (const native of [true, false]) {
    it(`${native ? 'native' : 'generated'}: every matrix format exact against the codec`, () => {
      const r = timeAll('--op', 'DEQUANT', '--min-runs', '1', ...(native ? ['--native'] : []));
      expect(r.status, r.stderr).toBe(0);
      const rows = r.json.results as { label: string; variant: string; correct: boolean; maxErr: number }[];
      expect(rows.map((x) => x.label)).toEqual(['256x8', '64x3 format=q8_0', '512x2 format=q4_k', '96x5 format=mxfp4', '133x3 format=int3', '64x4 format=nvfp4']);
      for (const x of rows) expect(x, x.label).toMatchObject({ variant: native ? 'native' : 'generated', correct: true, maxErr: 0 });
    }, 120_000);
  }

  it('refuses bad formats and shapes before any GPU work (exit 2, named)', () => {
    const unknown = runCli(['time', '--op', 'DEQUANT', '--shape', '64x2', '--param', 'format=q9_0']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/'q9_0' is neither a number nor a known type name \(known: f32, f16, q4_0, .*nvfp4/);
    const ragged = runCli(['time', '--op', 'DEQUANT', '--shape', '100x3', '--param', 'format=q4_0']);
    expect(ragged.status).toBe(2);
    expect(ragged.stderr).toMatch(/q4_0: K = 100 is not a multiple of its block size 32, and q4_0 forbids a ragged tail block/);
  });
});

describe('MUL_MAT with quantized weights on SwiftShader', () => {
  const LABELS = ['64x3x64 type0=q4_0', '40x1x256 type0=q4_k', '66x5x70 type0=int5', '96x24x64 type0=nvfp4', '64x9x96 type0=q8_0 type1=1'];
  for (const native of [true, false]) {
    it(`${native ? 'native GEMV/GEMM templates' : 'generated gemv/matmul with the decode'}: the matrix's formats match the oracle of the dequantized weights`, () => {
      const r = timeAll('--op', 'MUL_MAT', '--filter', 'type0=[a-z]', '--min-runs', '1', ...(native ? ['--native'] : []));
      expect(r.status, r.stderr).toBe(0);
      const rows = r.json.results as { label: string; variant: string; correct: boolean; scheduleKey: string | null; fallback: { code: string } | null }[];
      expect(rows.map((x) => x.label)).toEqual(LABELS);
      for (const x of rows) expect(x.correct, x.label).toBe(true);
      if (native) return;
      // gemv for N ≤ 8 (vec4 where K allows), the tiled matmul past it (no subgroup matrices here); f16 activations past 8
      // run on subgroup matrices only: here a declared fallback, named.
      expect(rows.map((x) => x.scheduleKey?.split('{')[0] ?? x.fallback?.code)).toEqual(['gemv', 'gemv', 'gemv', 'matmul', 'no-shader-f16']);
    }, 180_000);
  }

  it('more formats through both paths: a K-quant, a straddling MX int', () => {
    // The rest of the list runs in `lab formats` (scripts/gpu/h200.sh): SwiftShader is slow.
    for (const [shape, type0] of [['20x2x256', 'q6_k'], ['17x7x96', 'mxint3']]) {
      for (const native of [true, false]) {
        const r = timeAll('--op', 'MUL_MAT', '--shape', shape, '--param', `type0=${type0}`, '--min-runs', '1', ...(native ? ['--native'] : []));
        expect(r.status, `${shape} ${type0}: ${r.stderr}`).toBe(0);
        expect(r.json, `${shape} ${type0}`).toMatchObject({ correct: true, variant: native ? 'native' : 'generated' });
      }
    }
  }, 300_000);

  it('refuses a quantized src1, a ragged K where the format forbids it, and views of packed weights', () => {
    const q1 = runCli(['time', '--op', 'MUL_MAT', '--shape', '64x2x64', '--param', 'type1=q4_0']);
    expect(q1.status).toBe(2);
    expect(q1.stderr).toMatch(/src1 cannot be quantized \(type1 = q4_0\): ggml quantizes the weights \(src0\) only/);
    const ragged = runCli(['time', '--op', 'MUL_MAT', '--shape', '64x2x48', '--param', 'type0=mxfp4_t1']);
    expect(ragged.status).toBe(2);
    expect(ragged.stderr).toMatch(/mxfp4_t1: K = 48 is not a multiple of its block size 32, and mxfp4_t1 forbids a ragged tail block/);
    const view = runCli(['time', '--op', 'MUL_MAT', '--shape', '64x2x64', '--layout', 'src0-rows-strided', '--param', 'type0=2']);
    expect(view.status).toBe(2);
    expect(view.stderr).toMatch(/quantized src0 \(q4_0\) takes layout contiguous only/);
  });
});

describe('GET_ROWS from a quantized table on SwiftShader', () => {
  it('native and generated gathers decode the rows exactly (a K-quant and a ragged fp16-scaled int)', () => {
    for (const native of [true, false]) {
      const r = timeAll('--op', 'GET_ROWS', '--filter', 'type0=', '--min-runs', '1', ...(native ? ['--native'] : []));
      expect(r.status, r.stderr).toBe(0);
      const rows = r.json.results as { label: string; variant: string; correct: boolean; maxErr: number }[];
      expect(rows.map((x) => x.label)).toEqual(['256x13x7 type0=q4_k', '70x9x5 type0=int6_f16']);
      for (const x of rows) expect(x, x.label).toMatchObject({ variant: native ? 'native' : 'generated', correct: true, maxErr: 0 });
    }
  }, 180_000);
});
