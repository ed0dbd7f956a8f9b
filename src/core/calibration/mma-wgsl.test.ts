import { describe, expect, it } from 'vitest';
import { GUARD_BYTES } from '../hostdata';
import { MMA_CHAINS, MMA_CONFIGS, MMA_MAX_VALUE, MMA_SUBGROUPS, mmaDims, mmaExpected, mmaFlops, mmaModel, mmaOperands, mmaPlan, mmaWgsl, type MatrixAccess, type MmaConfig, type MmaPlan } from './mma-wgsl';

/** The addressing the WGSL text itself carries: its two loads and its store pattern, read back. */
function planOfWgsl(wgsl: string, config: MmaConfig): MmaPlan {
  const { m, n, k } = mmaDims(config);
  const loadOf = (side: 'left' | 'right', rows: number, cols: number): MatrixAccess => {
    const hit = new RegExp(`subgroupMatrixLoad<subgroup_matrix_${side}<f16, (\\d+), (\\d+)>>\\(&src0, (\\d+)u, false, (\\d+)u\\)`).exec(wgsl);
    expect(hit, `${side} load`).not.toBeNull();
    // The WGSL type is <T, columns, rows>.
    expect([Number(hit![1]), Number(hit![2])]).toEqual([cols, rows]);
    return { offset: Number(hit![3]), stride: Number(hit![4]), rows, cols };
  };
  const stores = [...wgsl.matchAll(/subgroupMatrixStore\(&dst, (\d+)u \+ \(slot \+ (\d+)u\) \* (\d+)u, a(\d+), false, (\d+)u\)/g)];
  expect(stores).toHaveLength(MMA_CHAINS);
  for (const [i, s] of stores.entries()) expect([Number(s[2]), Number(s[3]), Number(s[4]), Number(s[5])]).toEqual([i, m * n, i, n]);
  expect(wgsl).toContain(`let slot = ((wid.y * nwg.x + wid.x) * ${MMA_SUBGROUPS}u + sg) * ${MMA_CHAINS}u;`);
  return { left: loadOf('left', m, k), right: loadOf('right', k, n), dstOffset: Number(stores[0][1]), srcElements: m * k + k * n };
}

/** The bindings as Session lays them out: a NaN guard band, the tensor, a NaN guard band. */
function bindings(config: MmaConfig, workgroups: number) {
  const { m, n } = mmaDims(config);
  const srcGuard = GUARD_BYTES / 2;
  const dstGuard = GUARD_BYTES / 4;
  const operands = mmaOperands(config);
  const src = new Float64Array(srcGuard * 2 + operands.length).fill(NaN);
  src.set(operands, srcGuard);
  const dstLen = workgroups * MMA_SUBGROUPS * MMA_CHAINS * m * n;
  const dst = new Float64Array(dstGuard * 2 + dstLen).fill(NaN);
  return { src, dst, srcGuard, dstGuard, dstLen };
}

describe('subgroup-matrix ceiling kernel', () => {
  it('counts 2·m·n·k per MMA over workgroups, subgroups and chains', () => {
    // 16·8·16·2 = 4096 flops per MMA; 1 workgroup × 4 subgroups × 4 chains × 10 iterations
    expect(mmaFlops('16x8x16', 1, 10)).toBe(4096 * 4 * 4 * 10);
  });

  it('uses operands 0…3 that differ along rows and columns, and stays exact in f32', () => {
    const v = mmaOperands('16x8x16');
    expect(new Set(v)).toEqual(new Set([0, 1, 2, 3]));
    expect(Array.from(v.slice(0, 8))).toEqual([0, 3, 2, 1, 0, 0, 3, 2]);
    // The largest accumulator: 512 iterations × K 16 × 3·3.
    expect(512 * 16 * MMA_MAX_VALUE ** 2).toBeLessThan(2 ** 24);
    // A 16x8x8 result's first element: 512·Σ_k L[0,k]·R[k,0].
    const e = mmaExpected('16x8x8', 512, 1);
    const w = mmaOperands('16x8x8');
    let dot = 0;
    for (let k = 0; k < 8; k++) dot += w[k] * w[16 * 8 + k * 8];
    expect(e[0]).toBe(512 * dot);
    expect(e).toHaveLength(MMA_SUBGROUPS * MMA_CHAINS * 16 * 8);
  });

  it.each(MMA_CONFIGS.map((c) => [c]))('%s: the WGSL reads its operands past the guard band and writes every result slot once (CPU model)', (config) => {
    const workgroups = 3;
    const iters = 4;
    const b = bindings(config, workgroups);
    const plan = mmaPlan(config, b.srcGuard, b.dstGuard);
    const wgsl = mmaWgsl(config, iters, plan);
    expect(planOfWgsl(wgsl, config)).toEqual(plan);
    mmaModel(config, iters, plan, b.src, b.dst, workgroups);
    expect(Array.from(b.dst.subarray(b.dstGuard, b.dstGuard + b.dstLen))).toEqual(Array.from(mmaExpected(config, iters, workgroups)));
    // Both guard bands untouched: nothing written outside the tensor.
    expect(b.dst.subarray(0, b.dstGuard).every(Number.isNaN)).toBe(true);
    expect(b.dst.subarray(b.dstGuard + b.dstLen).every(Number.isNaN)).toBe(true);
  });

  it('the old layout (loads and stores from element 0) reads the guard band: NaN, as the H200 reported', () => {
    const b = bindings('16x16x16', 1);
    mmaModel('16x16x16', 4, mmaPlan('16x16x16', 0, 0), b.src, b.dst, 1);
    expect(b.dst[b.dstGuard]).toBeNaN();
  });

  it('operands read from swapped places give a different result: the check sees layout errors', () => {
    const b = bindings('16x16x16', 1);
    const plan = mmaPlan('16x16x16', b.srcGuard, b.dstGuard);
    const swapped: MmaPlan = { ...plan, left: { ...plan.left, offset: plan.right.offset }, right: { ...plan.right, offset: plan.left.offset } };
    mmaModel('16x16x16', 4, swapped, b.src, b.dst, 1);
    expect(Array.from(b.dst.subarray(b.dstGuard, b.dstGuard + 256))).not.toEqual(Array.from(mmaExpected('16x16x16', 4, 1).subarray(0, 256)));
  });

  it('loads operands once and multiplies four independent accumulators in the loop', () => {
    const w = mmaWgsl('16x8x16', 64, mmaPlan('16x8x16', 128, 64));
    expect(w.match(/subgroupMatrixMultiplyAccumulate/g)).toHaveLength(4);
    expect(w.match(/subgroupMatrixLoad/g)).toHaveLength(2);
    expect(w).toMatchSnapshot();
  });
});
