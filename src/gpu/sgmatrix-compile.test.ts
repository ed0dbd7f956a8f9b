// Subgroup-matrix WGSL cannot run on SwiftShader (no cooperative matrices), so the sgmatrix
// schedules are declared rejections there; Dawn's null backend with unsafe APIs offers the feature
// and runs Tint's front end: every staging × store-order variant must at least compile (a WGSL
// error would otherwise first show on the H200, in a device call that cannot be repeated cheaply).
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { MUL_MAT } from '../core/ops/mul-mat';
import { parseSchedule } from '../core/schedule/schedule';
import { weightFormat } from '../core/quant/weights';

const check = (wgsl: string) => spawnSync(process.execPath, ['scripts/wgsl-null-check.mjs'], { input: wgsl, encoding: 'utf8', timeout: 30_000 });

describe('sgmatrix WGSL on Dawn’s null backend', () => {
  it('rejects a wrong module (the check is live)', () => {
    const r = check('fn f() { let x: u32 = 1.5; }');
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/cannot convert value of type 'abstract-float' to type 'u32'/);
  });

  it('compiles every staging and store order, f16 × f16 and f16 × f32', () => {
    const errors: string[] = [];
    for (const staging of ['single', 'prefetch', 'double', 'direct', 'prefetch2', 'deep'])
      for (const storeOrder of ['plain', 'rotated', 'matrix', 'spread', 'swapped'])
        for (const params of [{ type0: 1, type1: 1 }, { type0: 1 }] as Record<string, number>[]) {
          // K = 96: three tiles of 32, so double staging's odd last tile is in the module too.
          const s = parseSchedule({ family: 'sgmatrix', config: '16x16x16', subgroupsM: 2, subgroupsN: 2, matricesM: 2, matricesN: 2, tileK: 32, subgroupSize: 32, staging, storeOrder });
          const r = check(MUL_MAT.generate(s, MUL_MAT.makeCase([128, 64, 96], 'contiguous', params)).wgsl);
          if (r.status !== 0) errors.push(`${staging} ${storeOrder} ${JSON.stringify(params)}: ${r.stdout || r.stderr.slice(-300)}`);
        }
    expect(errors).toEqual([]);
  }, 120_000);

  it('compiles the sgm5 knobs: workgroup order in bands (a short last one), row padding, K steps written out, loads inside the multiply, clamped stores; spread stores and branch-free prefetch', () => {
    const errors: string[] = [];
    const variants: [Record<string, string | number>, Record<string, number>, number[]][] = [
      [{ groupM: 4, rowPad: 'none', kSteps: 'unrolled', prefetchAt: 'mma', storeIndex: 'clamped', staging: 'prefetch' }, { type0: 1, type1: 1 }, [384, 192, 96]],
      [{ groupM: 8, rowPad: '32B', kSteps: 'unrolled', storeIndex: 'clamped', staging: 'double' }, { type0: 1 }, [1024, 128, 96]],
      [{ rowPad: '32B', kSteps: 'unrolled', prefetchAt: 'mma', storeIndex: 'clamped', staging: 'direct' }, { type0: 1 }, [128, 64, 96]],
      [{ groupM: 2, storeIndex: 'clamped', storeOrder: 'rotated', staging: 'single' }, { type0: 1, type1: 1 }, [384, 128, 96]],
      [{ storeOrder: 'spread', prefetchGuard: 'clamped', staging: 'prefetch', matricesM: 4, matricesN: 4 }, { type0: 1, type1: 1 }, [128, 128, 96]],
      [{ storeOrder: 'spread', prefetchGuard: 'clamped', staging: 'direct' }, { type0: 1 }, [128, 64, 96]],
      [{ storeOrder: 'spread', prefetchAt: 'early', staging: 'prefetch', matricesM: 4, matricesN: 4 }, { type0: 1, type1: 1 }, [128, 128, 96]],
      [{ storeOrder: 'spread', staging: 'prefetch2', matricesM: 4, matricesN: 4 }, { type0: 1, type1: 1 }, [128, 128, 96]],
      [{ staging: 'prefetch2', storeOrder: 'matrix' }, { type0: 1 }, [128, 64, 128]],
      [{ storeOrder: 'spread', prefetchGuard: 'peeled', staging: 'prefetch' }, { type0: 1, type1: 1 }, [128, 64, 96]],
      [{ prefetchGuard: 'peeled', staging: 'direct', kSteps: 'unrolled', prefetchAt: 'mma' }, { type0: 1 }, [128, 64, 32]],
      [{ staging: 'prefetch2', storeOrder: 'rotated' }, { type0: weightFormat('q4_0').id }, [128, 64, 96]],
      [{ storeOrder: 'spread', staging: 'deep', matricesM: 4, matricesN: 4, kSteps: 'unrolled' }, { type0: 1, type1: 1 }, [128, 128, 96]],
      [{ staging: 'deep' }, { type0: weightFormat('q4_0').id }, [128, 64, 96]],
      [{ storeOrder: 'spread', staging: 'double', tileK: 16 }, { type0: 1, type1: 1 }, [128, 64, 48]],
      [{ storeOrder: 'spread', staging: 'deep', tileK: 16 }, { type0: 1 }, [128, 64, 48]],
      [{ storeOrder: 'spread', staging: 'prefetch', prefetchAt: 'interleaved', kSteps: 'unrolled', matricesM: 4, matricesN: 4 }, { type0: 1, type1: 1 }, [128, 128, 96]],
      [{ storeOrder: 'swapped', staging: 'prefetch', tileK: 64 }, { type0: 1, type1: 1 }, [128, 64, 128]],
      [{ storeOrder: 'swapped', staging: 'double', tileK: 16 }, { type0: 1, type1: 1 }, [128, 64, 48]],
      [{ storeOrder: 'swapped', staging: 'deep', matricesM: 4, matricesN: 4 }, { type0: 1 }, [128, 128, 96]],
      [{ storeOrder: 'swapped', staging: 'prefetch', resultOrder: 'nm', matricesM: 4, matricesN: 2 }, { type0: 1, type1: 1 }, [128, 128, 96]],
      [{ staging: 'double', resultOrder: 'nm', kSteps: 'unrolled' }, { type0: weightFormat('q4_0').id }, [128, 64, 96]],
      [{ storeIndex: 'clamped', kSteps: 'unrolled', prefetchAt: 'mma', staging: 'prefetch' }, { type0: weightFormat('q4_0').id }, [128, 64, 256]],
      [{ pairStride: 3, staging: 'prefetch', storeOrder: 'spread' }, { type0: 1, type1: 1 }, [384, 128, 96]],
      [{ persistent: 5, staging: 'prefetch', storeOrder: 'spread', matricesM: 4, matricesN: 4 }, { type0: 1, type1: 1 }, [384, 256, 96]],
      [{ persistent: 3, staging: 'prefetch', kSteps: 'unrolled' }, { type0: 1 }, [256, 128, 64]],
    ];
    for (const [knobs, params, dims] of variants) {
      const s = parseSchedule({ family: 'sgmatrix', config: '16x16x16', subgroupsM: 2, subgroupsN: 2, matricesM: 2, matricesN: 2, tileK: 32, subgroupSize: 32, ...knobs });
      const r = check(MUL_MAT.generate(s, MUL_MAT.makeCase(dims, 'contiguous', params)).wgsl);
      if (r.status !== 0) errors.push(`${JSON.stringify(knobs)} ${JSON.stringify(params)}: ${r.stdout || r.stderr.slice(-300)}`);
    }
    expect(errors).toEqual([]);
  }, 120_000);

  it('compiles splitK (K groups, the reduction through workgroup memory) with every staging, written-out K steps, matrix copies, f32 src1, quantized weights', () => {
    const errors: string[] = [];
    const variants: [Record<string, string | number>, Record<string, number>, number[]][] = [
      [{ splitK: 2, staging: 'prefetch', matricesM: 4 }, { type0: 1, type1: 1 }, [256, 128, 96]],
      [{ splitK: 2, staging: 'double', tileK: 64, kSteps: 'unrolled' }, { type0: 1, type1: 1 }, [128, 64, 192]],
      [{ splitK: 4, staging: 'single', tileK: 64, storeOrder: 'matrix' }, { type0: 1, type1: 1 }, [128, 64, 128]],
      [{ splitK: 2, staging: 'direct', subgroupsN: 4 }, { type0: 1 }, [128, 128, 96]],
      [{ splitK: 2, staging: 'prefetch', prefetchAt: 'mma', kSteps: 'unrolled', tileK: 64 }, { type0: weightFormat('q4_0').id }, [128, 64, 256]],
    ];
    for (const [knobs, params, dims] of variants) {
      const s = parseSchedule({ family: 'sgmatrix', config: '16x16x16', subgroupsM: 2, subgroupsN: 2, matricesM: 2, matricesN: 2, tileK: 32, subgroupSize: 32, ...knobs });
      const wgsl = MUL_MAT.generate(s, MUL_MAT.makeCase(dims, 'contiguous', params)).wgsl;
      expect(wgsl).toContain('var<workgroup> sRed');
      const r = check(wgsl);
      if (r.status !== 0) errors.push(`${JSON.stringify(knobs)} ${JSON.stringify(params)}: ${r.stdout || r.stderr.slice(-300)}`);
    }
    expect(errors).toEqual([]);
  }, 120_000);

  it('compiles the quantized block path for every kind of block decode (ggml raw fields; K-quant and Track-1 raw = the chunk index)', () => {
    const errors: string[] = [];
    for (const type0 of ['q4_0', 'q6_k', 'nvfp4', 'int3'])
      for (const staging of ['prefetch', 'direct']) {
        const s = parseSchedule({ family: 'sgmatrix', config: '16x8x16', subgroupsM: 2, subgroupsN: 2, matricesM: 2, matricesN: 2, tileK: 32, subgroupSize: 32, staging });
        const k = MUL_MAT.generate(s, MUL_MAT.makeCase([64, 32, 256], 'contiguous', { type0: weightFormat(type0).id }));
        expect(k.wgsl, type0).toContain('wq_unpack(ar0)');
        const r = check(k.wgsl);
        if (r.status !== 0) errors.push(`${type0} ${staging}: ${r.stdout || r.stderr.slice(-300)}`);
      }
    expect(errors).toEqual([]);
  }, 120_000);
});
