import { describe, expect, it } from 'vitest';
import { mmaExpected, mmaFlops, mmaWgsl } from './mma-wgsl';

describe('subgroup-matrix ceiling kernel', () => {
  it('counts 2·m·n·k per MMA over workgroups, subgroups and chains, and expects iters·K everywhere', () => {
    // 16·8·16·2 = 4096 flops per MMA; 1 workgroup × 4 subgroups × 4 chains × 10 iterations
    expect(mmaFlops('16x8x16', 1, 10)).toBe(4096 * 4 * 4 * 10);
    expect(mmaExpected('16x8x8', 512)).toBe(4096);
    expect(mmaExpected('16x16x16', 512)).toBe(8192);
  });

  it('loads operands once and multiplies four independent accumulators in the loop', () => {
    const w = mmaWgsl('16x8x16', 64);
    expect(w.match(/subgroupMatrixMultiplyAccumulate/g)).toHaveLength(4);
    expect(w.match(/subgroupMatrixLoad/g)).toHaveLength(2);
    expect(w).toMatchSnapshot();
  });
});
