// The ablation cuts of scripts/gpu/ablate-sgmatrix.mjs (issue 26's f16 4096³ diagnosis on the
// H200): each cut removes exactly the part it names from the rule's kernel, keeps the rest, and
// still compiles (Dawn's null backend); a cut whose text is missing refuses instead of timing the
// kernel unchanged.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { MUL_MAT } from '../core/ops/mul-mat';
import { parseSchedule } from '../core/schedule/schedule';
import { ablations, CUTS, extractWgsl, fencedProbe, GUARDED, manifestFor, OPAQUE, PROBES, SG32, smemProbe, workgroupBytes } from '../../scripts/gpu/ablate-sgmatrix.mjs';

const check = (wgsl: string) => spawnSync(process.execPath, ['scripts/wgsl-null-check.mjs'], { input: wgsl, encoding: 'utf8', timeout: 30_000 });
// The f16 4096³ rule (registry): 2×2 subgroups of 4×4 16x16x16 matrices, K32, prefetch.
const rule = parseSchedule({ family: 'sgmatrix', config: '16x16x16', subgroupsM: 2, subgroupsN: 2, matricesM: 4, matricesN: 4, tileK: 32, subgroupSize: 32, staging: 'prefetch' });
const wgsl = MUL_MAT.generate(rule, MUL_MAT.makeCase([4096, 4096, 4096], 'contiguous', { type0: 1, type1: 1 })).wgsl;
const count = (text: string, re: RegExp) => (text.match(new RegExp(re.source, 'gm')) ?? []).length;
const GLOBAL = /^\s*[ab]w\d+ = src[01]\[/;
const STORE = /^\s*s[AB]\[.*\] = /;
const BARRIER = /^\s*workgroupBarrier\(\);$/;
const MMA = /subgroupMatrixMultiplyAccumulate\(/;
const LDSM = /subgroupMatrixLoad<.*>\(&s[AB],/;

describe('sgmatrix ablations (scripts/gpu/ablate-sgmatrix.mjs)', () => {
  const v = Object.fromEntries(ablations(wgsl).map((a) => [a.name, a.wgsl]));

  it('the rule as generated: 16 global loads (8 before the loop, 8 prefetched), 64 16-bit stores, 2 barriers, 8 matrix loads, 16 MMAs in the K step', () => {
    expect(Object.keys(v)).toEqual(['full', ...CUTS.map((c) => c.name), ...SG32.map((c) => c.name), OPAQUE.name]);
    expect(v.opaqueguard).toContain('    if (k0 + 32u < 4096u && arrayLength(&src0) != 0u) {\n      aw0 = src0[');
    expect(v.full).toBe(wgsl);
    expect([count(wgsl, GLOBAL), count(wgsl, STORE), count(wgsl, BARRIER), count(wgsl, LDSM), count(wgsl, MMA)]).toEqual([16, 64, 2, 8, 16]);
  });

  it('each cut removes what it names and keeps the rest', () => {
    const parts = (w: string) => [count(w, GLOBAL), count(w, STORE), count(w, BARRIER), count(w, LDSM), count(w, MMA)];
    expect(parts(v.nostage)).toEqual([0, 0, 2, 8, 16]);
    expect(parts(v.nostage_nobarrier)).toEqual([0, 0, 0, 8, 16]);
    // Stores of index-made values: no storage read left at all.
    expect(parts(v.noglobal)).toEqual([0, 64, 2, 8, 16]);
    expect(v.noglobal).not.toMatch(/src[01]\[/);
    expect(v.noglobal).toContain('aw0 = vec4<u32>(ag0 + (k0 + 32u) / 8u);');
    // Loads kept by the XOR sink, which writes dst only on an impossible value.
    expect(parts(v.nostore)).toEqual([16, 0, 2, 8, 16]);
    // 8 sinks, one per store block (where the stores waited for the loads), none beside the loads.
    expect(count(v.nostore, /^\s*sink = sink \^ [ab]w\d+;$/)).toBe(8);
    expect(v.nostore).toMatch(/workgroupBarrier\(\);\n {4}if \(k0 \+ 32u < 4096u\) \{\n {6}aw0 = src0\[ag0 \+ \(k0 \+ 32u\) \/ 8u\];\n {6}aw1 = /);
    expect(v.nostore).toContain('{\n      sink = sink ^ aw0;\n      let ah0 = bitcast<vec2<f16>>(aw0.x);\n      let ah1 = bitcast<vec2<f16>>(aw0.y);');
    expect(v.nostore).toMatch(/if \(all\(sink == vec4<u32>\(.*\)\)\) \{\n {4}dst\[0\] = 1\.0;\n {2}\}\n\}\n$/);
    // The loads alone: no MMA, no matrix load, no store; the loads' sink and the barriers stay.
    expect(parts(v.loadsonly)).toEqual([16, 0, 2, 0, 0]);
    expect(count(v.loadsonly, /^\s*sink = sink \^ [ab]w\d+;$/)).toBe(8);
    // One MMA in four, every matrix load still used.
    expect(parts(v.mma_quarter)).toEqual([16, 64, 2, 8, 4]);
    for (let i = 0; i < 4; i++) expect(v.mma_quarter).toContain(`acc${i}_${i} = subgroupMatrixMultiplyAccumulate(l${i}, r${i}, acc${i}_${i});`);
    // The size-32 variants change only the subgroup index and the branch's condition.
    expect(v.noactive.split('\n').filter((l) => !wgsl.includes(l))).toEqual(['// variant noactive: ' + SG32[0].doc, '  let isActive = true;']);
    expect(v.sg32).toContain('  let sg = lid / 32u;\n  let isActive = true;');
    // The matrix loads moved before the K loop, at K offset 0.
    const [before, loop] = v.noldsm.split('for (var k0');
    expect([count(before, LDSM), count(loop, LDSM), count(v.noldsm, MMA)]).toEqual([8, 0, 16]);
    expect(before).toContain('let l1 = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>>(&sA, min((sgm * 64u + 16u) * 40u + 0u, 4504u), false, 40u);');
  });

  it('every variant compiles (Tint on the null backend), of the rule and of its rotated-store twin (ablate26rot)', () => {
    const rotated = MUL_MAT.generate(parseSchedule({ ...rule, storeOrder: 'rotated' }), MUL_MAT.makeCase([4096, 4096, 4096], 'contiguous', { type0: 1, type1: 1 })).wgsl;
    expect(count(rotated, STORE)).toBe(64);
    const errors = [...ablations(wgsl), ...ablations(rotated)].flatMap((a) => { const r = check(a.wgsl); return r.status === 0 ? [] : [`${a.name}: ${r.stdout || r.stderr.slice(-300)}`]; });
    expect(errors).toEqual([]);
    // Each a manifest kernel name.
    for (const a of ablations(rotated)) expect(a.name).toMatch(/^[A-Za-z_][A-Za-z0-9_]*$/);
  }, 120_000);

  it("'loadsbranch' wraps double staging's unguarded in-loop loads in an opaque branch; prefetch (already guarded) has no such variant", () => {
    expect(GUARDED.edit(wgsl)).toBeNull();
    const double = MUL_MAT.generate(parseSchedule({ ...rule, staging: 'double', storeOrder: 'spread' }), MUL_MAT.makeCase([4096, 4096, 4096], 'contiguous', { type0: 1, type1: 1 })).wgsl;
    const v = ablations(double).find((a) => a.name === 'loadsbranch')!;
    expect(v.wgsl).toContain('k0 = k0 + 64u) {\n    if (arrayLength(&src0) != 0u) {\n      aw0 = src0[ag0 + (k0 + 32u) / 8u];');
    expect(count(v.wgsl, GLOBAL)).toBe(count(double, GLOBAL));
    expect(check(v.wgsl).status).toBe(0);
  });

  it('occupancy probes: the kernel unchanged but for an unused workgroup array that brings it to 24–48 KiB, kept by an opaque branch; all compile', () => {
    // 2 × 5120 f16 staging arrays: 20 KiB.
    expect(workgroupBytes(wgsl)).toBe(20480);
    const probes = ablations(wgsl, { probes: true });
    expect(probes.map((p) => p.name)).toEqual(['full', ...PROBES.map((p) => p.name)]);
    expect(probes.map((p) => workgroupBytes(p.wgsl))).toEqual([20480, 24576, 28672, 32768, 40960, 49152, 20480]);
    // The scheduling probe: one barrier more, right after the eight prefetch loads' block.
    const fenced = probes.find((p) => p.name === 'loadsfenced')!.wgsl;
    expect(count(fenced, BARRIER)).toBe(3);
    expect(fenced).toContain('      bw3 = src1[bg3 + (k0 + 32u) / 8u];\n    }\n    workgroupBarrier();\n    if (isActive) {');
    expect(fencedProbe('fn main() {}\n')).toBeNull();
    const p48 = probes.find((p) => p.name === 'smem48')!.wgsl;
    expect(p48).toContain('var<workgroup> sB: array<f16, 5120>;\nvar<workgroup> probePad: array<vec4<u32>, 1792>;\n');
    expect(p48).toMatch(/\n {2}if \(arrayLength\(&src0\) == 0u\) \{\n {4}probePad\[lid % 1792u\] = vec4<u32>\(lid\);\n {2}\}\n\}\n$/);
    // Nothing else changes: every line of the kernel is still there, in order.
    const added = /^(\/\/ probe smem48: .*|var<workgroup> probePad: .*|  if \(arrayLength\(&src0\) == 0u\) \{|    probePad\[.*|  \})$/;
    const lines = p48.split('\n');
    const firstAdded = lines.map((l, i) => (added.test(l) ? i : -1)).filter((i) => i >= 0);
    // The comment, the declaration, and the three lines of the branch before main's closing brace.
    expect(firstAdded.length).toBeGreaterThanOrEqual(5);
    const kept = [...lines.slice(1).filter((l) => !/^var<workgroup> probePad/.test(l))];
    kept.splice(kept.length - 5, 3);
    expect(kept.join('\n')).toBe(wgsl);
    // A kernel already at or over the size gets no probe.
    expect(smemProbe(p48, 40)).toBeNull();
    const errors = probes.flatMap((a) => { const r = check(a.wgsl); return r.status === 0 ? [] : [`${a.name}: ${r.stdout || r.stderr.slice(-300)}`]; });
    expect(errors).toEqual([]);
  }, 60_000);

  it('a cut whose text is missing refuses; a kernel without MMAs gets only its full variant', () => {
    const noLoads = wgsl.split('\n').filter((l) => !GLOBAL.test(l)).join('\n');
    expect(() => CUTS.find((c) => c.name === 'nostage')!.edit(noLoads)).toThrow(/cut 'nostage': no line matches/);
    expect(ablations('fn main() {}\n').map((a) => a.name)).toEqual(['full']);
  });

  it('reads the WGSL and dispatch from `lab time -vv`, and writes a manifest at that dispatch', () => {
    const log = `adapter: x\nwgsl (dispatch 32 × 32 × 1):\n${wgsl}progress 100%\n`;
    const got = extractWgsl(log);
    expect(got).toEqual({ wgsl, dispatch: [32, 32, 1] });
    expect(() => extractWgsl('no kernel here')).toThrow(/run `lab time … -vv`/);
    expect(manifestFor('nostage', v.nostage, got.dispatch, { src0: 'f16', src1: 'f16' })).toMatchObject({
      op: 'MUL_MAT',
      claims: { types: { src0: 'f16', src1: 'f16' } },
      features: ['shader-f16', 'subgroups', 'chromium-experimental-subgroup-matrix'],
      kernels: [{ name: 'nostage', wgsl: 'nostage.wgsl', workgroupSize: [128], dispatch: [32, 32, 1], bindings: [{ binding: 0, role: 'src0' }, { binding: 1, role: 'src1' }, { binding: 2, role: 'dst' }] }],
    });
  });
});
