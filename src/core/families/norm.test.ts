import { describe, it, expect } from 'vitest';
import { contiguous } from '../tensor';
import { generateNorm, rowLoop, type NormKernelDesc } from './norm';
import type { NormSchedule } from '../schedule/schedule';

/**
 * Runs rowLoop's WGSL as JavaScript (u32 literals and `var` are its only non-JS syntax) for
 * every thread of a workgroup and returns how often each vector of the row was visited.
 */
function visits(nv: number, W: number, unroll: number): number[] {
  const slot = (j: number) => (j === 0 ? 'i' : `i + ${j * W}u`);
  const wgsl = rowLoop('i', nv, W, unroll, (slots) => Array.from({ length: slots }, (_, j) => `visit(${slot(j)});`)).join('\n');
  const js = wgsl.replace(/\b(\d+)u\b/g, '$1').replace(/\bvar\b/g, 'let');
  const count = new Array(nv).fill(0);
  const run = new Function('lid', 'visit', js) as (lid: number, visit: (v: number) => void) => void;
  for (let lid = 0; lid < W; lid++) run(lid, (v) => count[v]++);
  return count;
}

function desc(ne: number[]): NormKernelDesc {
  const t = contiguous('f32', ne);
  return {
    op: 'TEST',
    caseLabel: ne.join('x'),
    dst: t,
    operands: [{ value: 'x', role: 'src0', tensor: t }],
    sums: [{ name: 'sum', a: 'x', b: 'x' }],
    finish: ['let scale = inverseSqrt(sum);'],
    output: (v) => `${v('x')} * scale`,
  };
}

function norm(s: Partial<NormSchedule> = {}): NormSchedule {
  return { family: 'norm', workgroupSize: 256, vectorWidth: 1, reduction: 'shared', unroll: 1, ...s };
}

describe('norm codegen: the row loop', () => {
  it('visits every vector of the row exactly once, for any unroll, width and length', () => {
    for (const W of [1, 4, 32])
      for (const unroll of [1, 2, 3, 8])
        for (const nv of [1, 3, W - 1, W, W + 1, 2 * W, unroll * W - 1, unroll * W, unroll * W + 5, 7 * W + 3].filter((n) => n >= 1)) {
          expect(visits(nv, W, unroll), `nv ${nv} W ${W} unroll ${unroll}`).toEqual(new Array(nv).fill(1));
        }
  });

  it('issues `unroll` independent loads per iteration, then a one-at-a-time tail', () => {
    expect(rowLoop('i', 1000, 64, 2, (slots) => [`// ${slots} slots`])).toEqual([
      'var i = lid;',
      'for (; i < 936u; i += 128u) {',
      '  // 2 slots',
      '}',
      'for (; i < 1000u; i += 64u) {',
      '  // 1 slots',
      '}',
    ]);
  });

  it('a row too short for one unrolled iteration gets the plain loop', () => {
    expect(rowLoop('i', 40, 64, 2, (slots) => [`// ${slots} slots`])).toEqual(['for (var i = lid; i < 40u; i += 64u) {', '  // 1 slots', '}']);
  });
});

describe('norm codegen: reductions', () => {
  it("'shared' is a sequential-addressing tree; the last level every thread does itself", () => {
    const { wgsl } = generateNorm(norm({ workgroupSize: 64 }), desc([256, 3]));
    expect(wgsl).toContain('var<workgroup> red: array<f32, 64>;');
    expect(wgsl).toContain('for (var s = 32u; s > 1u; s >>= 1u) {');
    expect(wgsl).toContain('let total = red[0] + red[1];');
    expect(wgsl.match(/workgroupBarrier\(\)/g)).toHaveLength(2);
  });

  it("'subgroup' sizes the partials for 4-wide subgroups, one barrier, both subgroupAdds in uniform control flow", () => {
    const { wgsl, features } = generateNorm(norm({ workgroupSize: 128, reduction: 'subgroup' }), desc([256, 3]));
    expect(features).toEqual(['subgroups']);
    expect(wgsl).toContain('var<workgroup> red: array<f32, 32>;');
    expect(wgsl.match(/workgroupBarrier\(\)/g)).toHaveLength(1);
    // At the function's top level (two-space indent), never inside an if or a loop.
    expect(wgsl).toContain('\n  let sg_total = subgroupAdd(partial);\n');
    expect(wgsl).toContain('\n  let total = subgroupAdd(p);\n');
  });

  it('a one-thread workgroup needs no reduction at all', () => {
    const { wgsl } = generateNorm(norm({ workgroupSize: 1 }), desc([8]));
    expect(wgsl).toContain('let total = partial;');
    expect(wgsl).not.toContain('workgroupBarrier');
    expect(wgsl).not.toContain('var<workgroup>');
  });

  it('indices of size-1 dims are left out of the row addressing', () => {
    expect(generateNorm(norm(), desc([64, 5])).wgsl).toContain('let i1 = r;\n  let x_row = 64u + i1 * 64u;');
    const w = generateNorm(norm(), desc([64, 1, 5, 2])).wgsl;
    expect(w).toContain('let i2 = r % 5u;\n  let i3 = r / 5u;\n  let x_row = 64u + i2 * 64u + i3 * 320u;');
    expect(generateNorm(norm(), desc([64])).wgsl).toContain('let x_row = 64u;');
  });

  it('refuses more than two sums', () => {
    const d = desc([8]);
    expect(() => generateNorm(norm(), { ...d, sums: [d.sums[0], d.sums[0], d.sums[0]] })).toThrow(/1 or 2 sums, got 3/);
  });
});
