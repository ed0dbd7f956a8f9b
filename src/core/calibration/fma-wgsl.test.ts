import { describe, expect, it } from 'vitest';
import { DOT4_CHAINS, DOT4_UNROLL, dot4Expected, dot4Ops, dot4Wgsl, F16_EXACT_COUNT, FMA_VARIANTS, fmaExpected, fmaFlops, fmaVariantName, fmaWgsl } from './fma-wgsl';
import { fmtPctOfPeak } from '../report/format';

describe('FMA calibration kernels', () => {
  it('unrolls independent chains inside the loop, and counts its flops', () => {
    const v = { type: 'f32', chains: 4, unroll: 8 } as const;
    const wgsl = fmaWgsl(v);
    expect(fmaVariantName(v)).toBe('fma-f32-c4u8');
    // 4 chains × 8 FMAs in the loop body, every chain reads only itself.
    expect(wgsl.match(/c\d = fma\(c\d, a, b\);/g)).toHaveLength(32);
    for (let c = 0; c < 4; c++) expect(wgsl).toContain(`c${c} = fma(c${c}, a, b);`);
    expect(wgsl).toContain('let sum = ((c0 + c1) + (c2 + c3));');
    expect(wgsl).not.toContain('enable f16');
    // 256 threads × 10 iterations × 8 unroll × 4 chains × vec4 × 2 flops.
    expect(fmaFlops(v, 256, 10)).toBe(256 * 10 * 8 * 4 * 4 * 2);
    // Thread 17 starts at 1 and gains 80 per component: 4 chains × 4 components × 81.
    expect(fmaExpected(v, 17, 10)).toBe(4 * 4 * 81);
    expect(fmaExpected(v, 256 + 17, 10)).toBe(4 * 4 * 81);
  });

  it('widens f16 partials before the final sums, and keeps its counts exact', () => {
    const wgsl = fmaWgsl({ type: 'f16', chains: 8, unroll: 4 });
    expect(wgsl.startsWith('// generated')).toBe(true);
    expect(wgsl).toContain('enable f16;');
    expect(wgsl).toContain('vec4<f32>(c7)');
    expect(wgsl).toMatchSnapshot();
    // The calibration's f16 loop stays under the exact range of an f16 counter.
    expect(1024 + 15).toBeLessThan(F16_EXACT_COUNT + 16);
  });

  it('offers a few shapes per type and refuses silly ones', () => {
    expect(FMA_VARIANTS.filter((v) => v.type === 'f32').length).toBeGreaterThanOrEqual(3);
    expect(FMA_VARIANTS.every((v) => v.unroll > 1)).toBe(true);
    expect(() => fmaWgsl({ type: 'f32', chains: 0, unroll: 1 })).toThrow(/chains/);
    expect(() => fmaWgsl({ type: 'f32', chains: 1, unroll: 99 })).toThrow(/unroll/);
  });

  it('counts packed int8 dots exactly', () => {
    const wgsl = dot4Wgsl();
    expect(wgsl.match(/dot4I8Packed\(x, y\)/g)).toHaveLength(DOT4_CHAINS * DOT4_UNROLL);
    // x = y = 0x01010101: each dot adds 4. Thread 3, 2 iterations: 8 chains × (3 + 4·2·8).
    expect(dot4Expected(3, 2)).toBe(8 * (3 + 64));
    expect(dot4Ops(256, 2, DOT4_CHAINS, DOT4_UNROLL)).toBe(256 * 2 * 8 * 8 * 8);
  });

  it('never shows more than 100% of a peak without saying the peak is unreliable', () => {
    expect(fmtPctOfPeak(87.4)).toBe('87%');
    expect(fmtPctOfPeak(5.25)).toBe('5.3%');
    expect(fmtPctOfPeak(132)).toBe('132% (over the peak: the peak is unreliable)');
    expect(fmtPctOfPeak(null)).toBe('—');
  });
});
