// The sgmatrix family's quantized-weight staging on SwiftShader (run with scripts/with-gpu-env.mjs),
// which offers neither shader-f16 nor subgroup matrices: the generated kernel with its subgroup-matrix
// multiply and store replaced by a scalar one over the same workgroup tiles (and f16 by f32), run in
// place of the native kernel's text (same bindings, 64×64 dispatch). What it checks is everything
// the family adds for quantized weights — which block or weights each thread loads per K tile, the
// decode, where they land in workgroup memory, the prefetch and guards — against the oracle of the
// dequantized weights. The f16 rounding itself (and the subgroup matrices) need a GPU:
// scripts/gpu/matmul-tune.sh qgemm.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNodeEngine } from '../cli/runtime-node';
import { MUL_MAT } from '../core/ops/mul-mat';
import { parseSchedule } from '../core/schedule/schedule';
import { sgmatrixTile, type SgmatrixSchedule } from '../core/families/sgmatrix';
import { weightFormat } from '../core/quant/weights';

let lab: Awaited<ReturnType<typeof openNodeEngine>>;

beforeAll(async () => {
  lab = await openNodeEngine();
}, 120_000);
afterAll(async () => lab?.close());

/** The generated WGSL with the multiply-accumulates and stores done per thread in f32 (one output per thread and pass). */
function emulated(wgsl: string, s: SgmatrixSchedule, M: number): string {
  const { BM, BN, threads } = sgmatrixTile(s);
  const LD = s.tileK + 8;
  const per = (BM * BN) / threads;
  const lines = wgsl.split('\n');
  const out: string[] = [];
  const blockEnd = (i: number) => {
    const ind = lines[i].match(/^\s*/)![0];
    let j = i + 1;
    while (lines[j] !== `${ind}}`) j++;
    return j;
  };
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    const ind = l.match(/^\s*/)![0];
    if (/^(enable |diagnostic\()/.test(l)) continue;
    if (/var acc\d+_\d+ = subgroup_matrix_result/.test(l)) {
      if (/acc0_0/.test(l)) out.push(`${ind}var accE: array<f32, ${per}>;`, `${ind}_ = pq.x;`);
      continue;
    }
    if (l.trim() === 'if (isActive) {' && lines[i + 1].trim().startsWith('for (var kk')) {
      // The tile's multiply: output e of this thread is (m, n) = (idx % BM, idx / BM), over the K tile in sA/sB (buffer `cur` when double-buffered).
      const at = (size: number) => (s.staging === 'double' ? `cur * ${size}u + ` : '');
      out.push(
        `${ind}for (var e = 0u; e < ${per}u; e = e + 1u) {`,
        `${ind}  let idx = lid + e * ${threads}u;`,
        `${ind}  for (var kk = 0u; kk < ${s.tileK}u; kk = kk + 1u) {`,
        `${ind}    accE[e] = accE[e] + sA[${at(BM * LD)}(idx % ${BM}u) * ${LD}u + kk] * sB[${at(BN * LD)}(idx / ${BM}u) * ${LD}u + kk];`,
        `${ind}  }`,
        `${ind}}`,
      );
      i = blockEnd(i);
      continue;
    }
    if (l.trim() === 'if (isActive) {' && lines[i + 1].includes('subgroupMatrixStore')) {
      out.push(`${ind}for (var e = 0u; e < ${per}u; e = e + 1u) {`, `${ind}  let idx = lid + e * ${threads}u;`, `${ind}  dst[based + (n0 + idx / ${BM}u) * ${M}u + m0 + idx % ${BM}u] = accE[e];`, `${ind}}`);
      i = blockEnd(i);
      continue;
    }
    out.push(
      l
        .replace(', @builtin(subgroup_size) sgSize: u32', '')
        .replace('lid / sgSize', `lid / ${s.subgroupSize}u`)
        .replace(/vec4<f16>\(/g, 'vec4<f32>(')
        .replace(/array<f16, /g, 'array<f32, ')
        .replace(/bitcast<vec2<f16>>\(/g, 'unpack2x16float('),
    );
    // The native kernel's fourth binding (its uniform): declared and touched so the auto layout keeps it.
    if (l.startsWith('@group(0) @binding(2)')) out.push('@group(0) @binding(3) var<uniform> pq: vec4<u32>;');
  }
  const text = out.join('\n');
  expect(text).not.toMatch(/subgroup_matrix|subgroupMatrix|f16>/);
  return text;
}

const sg = (knobs: Record<string, number | string>) =>
  parseSchedule({ family: 'sgmatrix', config: '16x16x16', subgroupsM: 2, subgroupsN: 2, matricesM: 2, matricesN: 2, tileK: 32, staging: 'prefetch', ...knobs }) as SgmatrixSchedule;

describe('sgmatrix with quantized weights: staging and decode, the multiply emulated (SwiftShader)', () => {
  it('block formats a block per unit (min and high bits, E2M1; guarded, two per thread; Track-1 by chunk) and a per-weight tile, f32 and f16 activations, single and prefetched', async () => {
    // 64×64 tiles (the native dispatch): 2×2 subgroups of 2×2 16x16x16 (128 threads), or one subgroup of 4×4 (32 threads).
    // The emulation's f32 tiles take twice the workgroup memory: tileK 32, one buffer (the K-tile mapping at tileK 64 is sgmatrix.test.ts's).
    const cases: [string, number[], number, SgmatrixSchedule, string][] = [
      ['q4_0', [128, 64, 96], 0, sg({}), 'if (lid < 64u) {'], // 64 blocks over 128 threads: guarded
      ['q5_1', [64, 64, 128], 1, sg({ subgroupsM: 1, subgroupsN: 1, matricesM: 4, matricesN: 4, staging: 'single' }), 'ar1 = wq_raw(ab1'], // min and high bits; 64 blocks over 32 threads
      ['mxfp4', [128, 64, 64], 1, sg({ config: '16x8x16', matricesN: 4 }), 'fn wq_e2m1x2('], // E2M1 computed, not a table
      ['nvfp4', [64, 64, 96], 0, sg({}), 'ar0 = wq_raw(ab0'], // Track-1 by chunk at K % 32 = 0
      ['nvfp4', [64, 64, 48], 0, sg({ tileK: 16 }), 'aw0 = wq4(ag0'], // four weights a load where a tile is not a whole chunk
    ];
    const wrong: string[] = [];
    for (const [name, dims, type1, s, marker] of cases) {
      const params = { type0: weightFormat(name).id, type1 };
      const generated = MUL_MAT.generate(s, MUL_MAT.makeCase(dims, 'contiguous', params));
      expect(generated.wgsl, name).toContain(marker);
      const r = await lab.time({ op: 'MUL_MAT', dims, params, variant: { kind: 'native', wgsl: emulated(generated.wgsl, s, dims[0]) }, skipTiming: true });
      if (!r.correct) wrong.push(`${name} ${dims.join('x')} type1=${type1} ${s.staging}: maxErr ${r.maxErr} bound ${r.bound} ${r.correctness.failures[0] ?? ''}`);
    }
    expect(wrong).toEqual([]);
  }, 600_000);
});
