import { describe, it, expect } from 'vitest';
import { contiguous } from '../tensor';
import { NORM, reductionStages, rowLoop, type NormSchedule, type NormSnippet } from './norm';

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

function desc(ne: number[]): NormSnippet {
  const t = contiguous('f32', ne);
  return {
    operands: [{ name: 'x', binding: 'src0', tensor: t }],
    reductions: [{ name: 'sum', map: 'x * x', combine: 'sum' }],
    finish: ['let scale = inverseSqrt(sum);'],
    output: { kind: 'row', tensor: t, expr: 'x * scale' },
  };
}

function generateNorm(s: NormSchedule, k: NormSnippet) {
  return NORM.generate(s, k, { op: 'TEST', label: 'case' });
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

  it('a shared tree budgets two partials per thread: three sums are a reason, not a crash', () => {
    const d = desc([8]);
    const r = { name: 's', map: 'x * x', combine: 'sum' as const };
    expect(NORM.fits(norm(), { ...d, reductions: [r, { ...r, name: 't' }, { ...r, name: 'u' }] })).toEqual(['reductions need 3 f32 partials per thread in workgroup memory, over the family\'s budget of 2']);
    expect(NORM.fits(norm({ reduction: 'subgroup' }), { ...d, reductions: [r, { ...r, name: 't' }, { ...r, name: 'u' }] })).toEqual([]);
  });
});

describe('row family: reductions as data', () => {
  const t = contiguous('f32', [1000, 3]);
  // SOFT_MAX-like: a max, then Σexp(x − mx) using it, then a per-element epilogue.
  const softmax: NormSnippet = {
    operands: [{ name: 'x', binding: 'src0', tensor: t }],
    reductions: [
      { name: 'mx', map: 'x', combine: 'max' },
      { name: 'se', map: 'exp(x - mx)', combine: 'sum' },
    ],
    output: { kind: 'row', tensor: t, expr: 'exp(x - mx) / se' },
  };

  it('orders stages: a reduction that uses an earlier one waits for it; independent sums share a vector', () => {
    expect(reductionStages(softmax.reductions).map((st) => st.map((r) => r.name))).toEqual([['mx'], ['se']]);
    const two = [
      { name: 'a', map: 'x * x', combine: 'sum' as const },
      { name: 'b', map: 'x * dz', combine: 'sum' as const },
    ];
    expect(reductionStages(two).map((st) => st.length)).toEqual([2]);
    expect(reductionStages([two[0], { name: 'm', map: 'x', combine: 'max' as const }]).map((st) => st.length)).toEqual([1, 1]);
  });

  it('max reduces with max from the lowest f32; each stage has its own partials and tree', () => {
    const w = generateNorm(norm({ workgroupSize: 64 }), softmax).wgsl;
    expect(w).toContain('var acc0 = -3.40282346e+38;');
    expect(w).toContain('acc0 = max(acc0, x0);');
    expect(w).toContain('red[lid] = max(red[lid], red[lid + s]);');
    expect(w).toContain('let total = max(red[0], red[1]);');
    expect(w).toContain('let mx = total;');
    expect(w).toContain('s1acc0 += exp(x0 - mx);');
    expect(w).toContain('var<workgroup> red1: array<f32, 64>;');
    expect(w).toContain('let se = total1;');
    expect(w).toContain('dst[dst_row + j] = exp(x0 - mx) / se;');
  });

  it('a row kept in registers guards missing slots with the identity, unless the map is a product', () => {
    const small = contiguous('f32', [100]);
    const k: NormSnippet = { ...softmax, operands: [{ name: 'x', binding: 'src0', tensor: small }], output: { kind: 'row', tensor: small, expr: 'x' } };
    const w = generateNorm(norm({ workgroupSize: 64, unroll: 2 }), k).wgsl;
    expect(w).toContain('let partial = max(x0, select(-3.40282346e+38, x1, lid < 36u));');
    expect(w).toContain('let partial1 = exp(x0 - mx) + select(0.0, exp(x1 - mx), lid < 36u);');
  });

  it('vectorized maps that are not products reduce with a horizontal helper', () => {
    const w = generateNorm(norm({ workgroupSize: 64, vectorWidth: 4 }), { ...softmax, operands: [{ name: 'x', binding: 'src0', tensor: contiguous('f32', [1024, 2]) }], output: { kind: 'row', tensor: contiguous('f32', [1024, 2]), expr: 'exp(x - mx) / se' } }).wgsl;
    expect(w).toContain('fn hmax4(v: vec4<f32>) -> f32 {');
    expect(w).toContain('fn hsum4(v: vec4<f32>) -> f32 {');
    expect(w).toContain('hsum4(exp(x0 - mx))');
  });

  it('a per-row scalar output (SUM_ROWS-like) is written once by thread 0 into an f32 dst', () => {
    const dst = contiguous('f32', [1, 3]);
    const w = generateNorm(norm({ workgroupSize: 64, vectorWidth: 4 }), {
      operands: [{ name: 'x', binding: 'src0', tensor: contiguous('f32', [256, 3]) }],
      reductions: [{ name: 'total_x', map: 'x', combine: 'sum' }],
      constants: { half: 0.5 },
      output: { kind: 'scalar', tensor: dst, expr: 'total_x * half' },
    }).wgsl;
    expect(w).toContain('@group(0) @binding(1) var<storage, read_write> dst: array<f32>;');
    expect(w).toContain('const half: f32 = 0.500000000;');
    expect(w).toContain('let dst_row = 64u + i1 * 1u;');
    expect(w).toContain('if (lid == 0u) {\n    dst[dst_row] = total_x * half;\n  }');
  });
});

describe('row family: single values and multi-pass rows (compiled on SwiftShader through CROSS_ENTROPY_LOSS_BACK)', () => {
  const rows = contiguous('f32', [300, 3, 2]);
  const k: NormSnippet = {
    operands: [{ name: 'x', binding: 'src1', tensor: rows }],
    scalars: [{ name: 'g', binding: 'src0', tensor: contiguous('f32', [1]) }],
    reductions: [
      { name: 'mx', map: 'x', combine: 'max' },
      { name: 'se', map: 'exp(x - mx)', combine: 'sum' },
    ],
    output: { kind: 'row', tensor: rows, expr: 'exp(x - mx) / se * g' },
  };

  it('a scalar is bound (as f32, read-only, ahead of the operands) and read once per row', () => {
    const spec = generateNorm(norm({ workgroupSize: 64, vectorWidth: 4 }), k);
    expect(spec.bindings.map((b) => `${b.role}:${b.access}`)).toEqual(['src0:read', 'src1:read', 'dst:read_write']);
    expect(spec.wgsl).toContain('@group(0) @binding(0) var<storage, read> src0: array<f32>;');
    expect(spec.wgsl).toContain('@group(0) @binding(1) var<storage, read> src1: array<vec4<f32>>;');
    expect(spec.wgsl.match(/let g = src0\[64u\];/g)).toHaveLength(1);
  });

  it("a second pass's loop index never shadows the row index i1", () => {
    const w = generateNorm(norm({ workgroupSize: 64 }), k).wgsl;
    expect(w).toContain('let i1 = r % 3u;');
    expect(w).toMatch(/for \(var i = lid; i < 300u; i \+= 64u\)/);
    expect(w).toMatch(/for \(var ri1 = lid; ri1 < 300u; ri1 \+= 64u\)/);
    expect(w).not.toMatch(/var i1 = lid/);
  });
});

describe('norm family: INDEX in maps and an i32 scalar output', () => {
  const t = contiguous('f32', [16, 2]);
  const snippet: NormSnippet = {
    operands: [{ name: 'x', binding: 'src0', tensor: t }],
    reductions: [{ name: 'at', map: 'INDEX * x', combine: 'max' }],
    output: { kind: 'scalar', tensor: contiguous('i32', [1, 2]), expr: 'i32(at)', type: 'i32' },
  };
  it('INDEX is the element position: f32(v) scalar, 4·v + (0, 1, 2, 3) vectorized', () => {
    const g = (vectorWidth: number, unroll: number) => NORM.generate({ family: 'norm', workgroupSize: 4, vectorWidth, reduction: 'shared', unroll }, snippet, { op: 'TEST', label: 'case' }).wgsl;
    expect(g(1, 4)).toMatch(/f32\(lid \+ 4u\) \* x1/);
    expect(g(1, 1)).toMatch(/f32\(i\) \* x0/);
    expect(g(4, 1)).toMatch(/\(vec4<f32>\(f32\(4u \* \(lid\)\)\) \+ vec4<f32>\(0\.0, 1\.0, 2\.0, 3\.0\)\) \* x0/);
    expect(g(1, 1)).toMatch(/var<storage, read_write> dst: array<i32>;/);
  });
  it('rows past 2^24 elements cannot use INDEX (f32 is exact below)', () => {
    const long = { ...snippet, operands: [{ name: 'x', binding: 'src0' as const, tensor: contiguous('f32', [2 ** 24 + 1]) }] };
    expect(NORM.fits({ family: 'norm', workgroupSize: 256, vectorWidth: 1, reduction: 'shared', unroll: 1 }, long)).toEqual(['INDEX is an f32, exact only on rows of up to 2^24 elements, got ne0 = 16777217']);
  });
});

describe('norm family: i32 operands and several values per row', () => {
  it('an i32 operand is bound and zero-filled as i32; extra values land after the first', () => {
    const t = contiguous('i32', [6]);
    const w = NORM.generate(
      { family: 'norm', workgroupSize: 4, vectorWidth: 1, reduction: 'shared', unroll: 2 },
      {
        operands: [{ name: 'a', binding: 'src0', tensor: t }],
        reductions: [{ name: 'n', map: 'select(0.0, 1.0, a == 3)', combine: 'sum' }],
        output: { kind: 'scalar', tensor: contiguous('i32', [1]), expr: 'i32(n)', type: 'i32', extra: ['0', '7'] },
      },
      { op: 'TEST', label: 'case' },
    ).wgsl;
    expect(w).toMatch(/var<storage, read> src0: array<i32>;/);
    expect(w).toMatch(/var a1 = i32\(\);/);
    expect(w).toMatch(/dst\[dst_row \+ 1u\] = 0;\n\s*dst\[dst_row \+ 2u\] = 7;/);
  });
});
