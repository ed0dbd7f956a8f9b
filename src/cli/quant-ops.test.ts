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
