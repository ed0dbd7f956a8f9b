import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../adapter';
import { MUL_MAT } from '../ops/mul-mat';
import { enumerateSpace, limitsNeeded, parseSchedule, scheduleKey, validateSchedule, type Schedule } from '../schedule/schedule';
import { checkOutput } from '../stats/correctness';
import { contiguous } from '../tensor';
import { GUARD_BYTES, sentinelBuffer, withGuards } from '../hostdata';
import { SGMATRIX, sgmatrixScratch, sgmatrixTile, tileOrigin, type SgmatrixSchedule } from './sgmatrix';
import { weightFormat } from '../quant/weights';

const sg = (knobs: Record<string, number | string> = {}): Schedule =>
  parseSchedule({ family: 'sgmatrix', config: '16x8x16', subgroupsM: 2, subgroupsN: 2, matricesM: 2, matricesN: 2, tileK: 32, ...knobs });
const featured = { limits: DEFAULT_LIMITS, features: ['subgroups', 'shader-f16', 'chromium-experimental-subgroup-matrix'] };

describe('sgmatrix family (chromium-experimental-subgroup-matrix, f16→f32)', () => {
  it('sizes the tile and the workgroup from the knobs', () => {
    expect(sgmatrixTile(sg() as never)).toEqual({ BM: 64, BN: 32, threads: 128 });
    // (64 + 32) rows of (32 + 8 padding) f16
    expect(SGMATRIX.workgroupBytes(sg() as never)).toBe(96 * 40 * 2);
    // Double-buffered staging: two of each.
    expect(SGMATRIX.workgroupBytes(sg({ staging: 'double' }) as never)).toBe(2 * 96 * 40 * 2);
    // Above WebGPU's defaults: 256×128 tiles of 16x16x16 need (256 + 128)·40·2 B; 8 subgroups fit 256 threads.
    expect(limitsNeeded(sg({ config: '16x16x16', subgroupsM: 4, matricesM: 4, matricesN: 4 }))).toEqual({ maxComputeWorkgroupStorageSize: 30720 });
    expect(limitsNeeded(sg({ subgroupsM: 4, subgroupsN: 4 }))).toEqual({ maxComputeInvocationsPerWorkgroup: 512 });
    expect(limitsNeeded(sg())).toEqual({});
    // Schedules written before the staging knob meant single staging.
    expect(sg()).toMatchObject({ staging: 'single' });
  });

  it('stages K tiles single, prefetched into registers, or double-buffered with one barrier per tile', () => {
    const c = MUL_MAT.makeCase([64, 32, 96], 'contiguous', { type0: 1 });
    // Barriers per iteration of the K loop, and K tiles per iteration (its step over tileK 32).
    const perTile = (staging: string) => {
      const loop = MUL_MAT.generate(sg({ staging }), c).wgsl.split('for (var k0')[1];
      return loop.split('\n}')[0].match(/workgroupBarrier/g)!.length / (Number(loop.match(/k0 = k0 \+ (\d+)u/)![1]) / 32);
    };
    expect([perTile('single'), perTile('prefetch'), perTile('double')]).toEqual([2, 2, 1]);
    const double = MUL_MAT.generate(sg({ staging: 'double' }), c);
    // Two buffers per operand, each 64 rows × 40, addressed with constant offsets: the buffer is never a runtime index
    // (picked by (k0 / tileK) & 1, the H200 ran this schedule 2.2× slower than prefetch; gemm3).
    expect(double.wgsl).toContain('var<workgroup> sA0: array<f16, 2560>;\nvar<workgroup> sA1: array<f16, 2560>;');
    expect(double.wgsl).not.toMatch(/cur|\* 2560u/);
    // The next tile's loads come before the multiply of buffer 0, its stores into buffer 1 after; then the same, the buffers swapped.
    const loop = double.wgsl.split('for (var k0')[1];
    const [first, second] = loop.split('workgroupBarrier();');
    expect(first.indexOf('aw0 = src0[ag0 + (k0 + 32u) / 8u];')).toBeLessThan(first.indexOf('subgroupMatrixMultiplyAccumulate'));
    expect(first).toContain('(&sA0, min(');
    expect(first.indexOf('sA1[ao0 + 0u]')).toBeGreaterThan(first.lastIndexOf('subgroupMatrixMultiplyAccumulate'));
    expect(second).toContain('if (k0 + 64u < 96u) {\n      aw0 = src0[ag0 + (k0 + 64u) / 8u];');
    expect(second).toContain('(&sA1, min(');
    expect(second.indexOf('sA0[ao0 + 0u]')).toBeGreaterThan(second.lastIndexOf('subgroupMatrixMultiplyAccumulate'));
    // K = 96 is three tiles: one pair in the loop, the third multiplied from buffer 0 after it.
    expect(double.wgsl).toContain('for (var k0 = 0u; k0 < 64u; k0 = k0 + 64u) {');
    const tail = double.wgsl.slice(double.wgsl.lastIndexOf('workgroupBarrier();'));
    expect(tail.match(/&sA0, min\(/g)).toHaveLength(2);
    expect(`${double.label}\n${double.wgsl}`).toMatchSnapshot();
  });

  it('needs the features, and a tileK the config divides', () => {
    expect(validateSchedule(sg(), featured)).toEqual([]);
    expect(validateSchedule(sg(), { limits: DEFAULT_LIMITS, features: ['subgroups'] })).toEqual([
      "sgmatrix needs the 'chromium-experimental-subgroup-matrix' feature, which this adapter lacks",
      "sgmatrix needs the 'shader-f16' feature, which this adapter lacks",
    ]);
    expect(validateSchedule(sg({ config: '16x16x16', tileK: 12 }), featured)).toEqual(["tileK 12 is not a multiple of the config's K 16", 'tileK 12 must be a multiple of 8 (8 f16 per load)']);
  });

  it('takes whole tiles only, with rows aligned for its loads', () => {
    expect(MUL_MAT.fits(sg(), MUL_MAT.makeCase([128, 64, 64], 'contiguous', { type0: 1, type1: 1 }))).toEqual([]);
    expect(MUL_MAT.fits(sg(), MUL_MAT.makeCase([100, 40, 48], 'contiguous', { type0: 1, type1: 1 }))).toEqual([
      "M = 100 is not a multiple of the tile's 64 (subgroupsM·matricesM·16)",
      "N = 40 is not a multiple of the tile's 32 (subgroupsN·matricesN·8)",
      'K = 48 is not a multiple of tileK 32',
    ]);
    expect(MUL_MAT.fits(sg({ tileK: 16 }), MUL_MAT.makeCase([64, 32, 48], 'src0-odd-stride', { type0: 1 }))).toEqual([
      "sgmatrix loads 8 f16 at a time: src0's rows must start on 8-element boundaries (offset 128, row stride 49)",
    ]);
  });

  it('generates subgroup-matrix WGSL; f32 operands staged as f16 say so in the label and in inputRounding', () => {
    const f16 = MUL_MAT.generate(sg(), MUL_MAT.makeCase([128, 64, 64], 'contiguous', { type0: 1, type1: 1 }));
    expect(f16.inputRounding).toBeUndefined();
    expect(f16.features).toEqual(['shader-f16', 'subgroups', 'chromium-experimental-subgroup-matrix']);
    expect(f16.dispatch).toEqual([2, 2, 1]);
    expect(`${f16.label}\n${f16.wgsl}`).toMatchSnapshot();
    const mixed = MUL_MAT.generate(sg(), MUL_MAT.makeCase([64, 32, 32], 'contiguous', { type0: 1 }));
    expect(mixed.inputRounding).toBe('f16');
    expect(mixed.label).toMatch(/\[f32 operands staged as f16\]$/);
    expect(mixed.wgsl).toMatch(/let bh = vec4<f16>\(bw0\);/);
    // f32 × f32 stays exact f32 on every rule; staged as f16 only when asked, and labelled so.
    const f32 = MUL_MAT.generate(sg(), MUL_MAT.makeCase([64, 32, 32]));
    expect(f32.inputRounding).toBe('f16');
    expect(f32.label).toBe('generated:MUL_MAT sgmatrix{"config":"16x8x16","groupM":1,"kSteps":"loop","matricesM":2,"matricesN":2,"prefetchAt":"top","rowPad":"16B","staging":"single","storeIndex":"plain","storeOrder":"plain","subgroupSize":32,"subgroupsM":2,"subgroupsN":2,"tileK":32} [f32 operands staged as f16]');
  });

  it("holds a kernel that rounds its inputs to f16's eps, not f32's", () => {
    // One output, K = 4 terms of 1: the bound is sqrt(4)·8·eps·(1 + floor) with floor Σ|ab|/sqrt(4) = 2.
    const dst = contiguous('f32', [1]);
    const oracle = { ref: new Float64Array([4]), epsFloor: new Float64Array([2]), terms: 4 };
    const before = sentinelBuffer(GUARD_BYTES * 2 + 16);
    const after = withGuards(new Float32Array([4 + 2 ** -9]).buffer);
    expect(checkOutput(dst, oracle, before, after).correct).toBe(false); // 16·2^-23·6 ≈ 1.1e-5 < 2^-9
    expect(checkOutput(dst, oracle, before, after, 'f16').correct).toBe(true); // 16·2^-10·6 ≈ 0.094
  });

  it("'direct' loads f16 operands straight from their buffers (no workgroup memory, no barrier); f32 ones stay staged", () => {
    const direct = sg({ config: '16x16x16', staging: 'direct' });
    const f16 = MUL_MAT.generate(direct, MUL_MAT.makeCase([128, 64, 64], 'contiguous', { type0: 1, type1: 1 })).wgsl;
    expect(f16).not.toMatch(/var<workgroup>|workgroupBarrier/);
    expect(f16).toContain('@group(0) @binding(0) var<storage, read> src0: array<f16>;');
    // Rows of src0 are 64 f16 apart (K); the matrix at row m0 + sgm·32 + 16, column k0 + kk.
    expect(f16).toContain('let l1 = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>>(&src0, base0 + (m0 + sgm * 32u + 16u) * 64u + k0 + kk, false, 64u);');
    expect(f16).toContain('let r0 = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>>(&src1, base1 + (n0 + sgn * 32u + 0u) * 64u + k0 + kk, true, 64u);');
    // f16 weights × f32: src0 direct, src1 rounded to f16 through workgroup memory (prefetched).
    const mixed = MUL_MAT.generate(direct, MUL_MAT.makeCase([128, 64, 64], 'contiguous', { type0: 1 }));
    expect(mixed.inputRounding).toBe('f16');
    expect(mixed.wgsl).not.toContain('var<workgroup> sA');
    expect(mixed.wgsl).toContain('var<workgroup> sB: array<f16, 2560>;');
    // The offset clamped to the last start a whole 16-column matrix fits (2560 − (15·40 + 16)): never lower than the real one.
    expect(mixed.wgsl).toContain('(&sB, min((sgn * 32u + 0u) * 40u + kk, 1944u), true, 40u)');
  });

  it("'rotated' f16 stores put every element where 'plain' does, a warp's 32 lanes on 32 banks instead of 8", () => {
    // A CPU model of the generated store block of unit a0: lets, selects, swizzles, bitcasts, stores.
    const model = (storeOrder: string, storeIndex = 'plain') => {
      const wgsl = MUL_MAT.generate(sg({ config: '16x16x16', staging: 'prefetch', storeOrder, storeIndex }), MUL_MAT.makeCase([128, 64, 64], 'contiguous', { type0: 1, type1: 1 })).wgsl;
      const lines = wgsl.split('\n').map((l) => l.trim());
      const lets = lines.filter((l) => /^let (ao0|aq0|aq20) = /.test(l));
      const start = lines.indexOf('{', lines.findIndex((l) => l.startsWith('for (var k0')));
      const block = lines.slice(start + 1, lines.indexOf('}', start));
      const expr = (e: string, env: Record<string, bigint>) => Function(...Object.keys(env), `return ${e.replace(/(\d+)u/g, '$1n')};`)(...Object.values(env)) as bigint;
      const sw = (v: number[], s: string) => [...s].map((c) => v['xyzw'.indexOf(c)]);
      const banks: Set<number>[] = [];
      const sA = new Map<number, number>();
      for (let lane = 0; lane < 32; lane++) {
        const env: Record<string, bigint> = { lid: BigInt(lane) };
        for (const l of lets) {
          const [, name, e] = l.match(/^let (\w+) = (.+);$/)!;
          env[name] = expr(e, env);
        }
        const vec: Record<string, number[]> = { aw0: [0, 1, 2, 3] }; // word ids of the loaded chunk
        let store = 0;
        for (const l of block) {
          let m: RegExpMatchArray | null;
          if ((m = l.match(/^let (\w+) = min\((\w+), (\d+)u\);$/))) env[m[1]] = env[m[2]] < BigInt(m[3]) ? env[m[2]] : BigInt(m[3]); // clamped stores' offset
          else if ((m = l.match(/^let (\w+) = select\((\w+), (\w+)\.(\w{4}), \((\w+) & (\d+)u\) != 0u\);$/))) vec[m[1]] = (env[m[5]] & BigInt(m[6])) !== 0n ? sw(vec[m[3]], m[4]) : vec[m[2]];
          else if ((m = l.match(/^let (\w+) = bitcast<vec2<f16>>\((\w+)\.([xyzw])\);$/))) vec[m[1]] = [0, 1].map((h) => 2 * sw(vec[m![2]], m![3])[0] + h); // element ids
          else if ((m = l.match(/^sA\[(.+)\] = (\w+)\.([xy]);$/))) {
            const at = Number(expr(m[1], env));
            sA.set(at, vec[m[2]]['xy'.indexOf(m[3])] + 8 * lane);
            (banks[store++] ??= new Set()).add(Math.floor(at / 2) % 32);
          } else throw new Error(`the model does not know: ${l}`);
        }
        // Element e of this lane's chunk lands at ao0 + e, whatever the order.
        for (let e = 0; e < 8; e++) expect(sA.get(Number(env.ao0) + e)).toBe(e + 8 * lane);
      }
      return banks.map((b) => b.size);
    };
    expect(model('plain')).toEqual(Array(8).fill(8));
    expect(model('rotated')).toEqual(Array(8).fill(32));
    // storeIndex 'clamped': min(ao0, length − 8) + e, the same stores.
    expect(model('plain', 'clamped')).toEqual(Array(8).fill(8));
    expect(model('rotated', 'clamped')).toEqual(Array(8).fill(32));
  });

  it("'spread' stages the same elements where 'plain' does, a quarter-warp's 16-byte chunks on 32 banks instead of 24", () => {
    // Each thread's unit a0…a3: the global vec4 it loads (ag) and where its 8 f16 go (ao), evaluated from the WGSL.
    const units = (storeOrder: string) => {
      const wgsl = MUL_MAT.generate(sg({ config: '16x16x16', staging: 'prefetch', storeOrder }), MUL_MAT.makeCase([128, 64, 64], 'contiguous', { type0: 1, type1: 1 })).wgsl;
      const lets = wgsl.split('\n').map((l) => l.trim()).filter((l) => /^let (a[rgo]\d|base0|m0) = /.test(l));
      const expr = (e: string, env: Record<string, bigint>) => Function(...Object.keys(env), `return ${e.replace(/(\d+)u/g, '$1n')};`)(...Object.values(env)) as bigint;
      return Array.from({ length: 128 }, (_, lane) => {
        const env: Record<string, bigint> = { lid: BigInt(lane), wid: { x: 0n, y: 0n } as never };
        for (const l of lets) {
          const [, name, e] = l.match(/^let (\w+) = (.+);$/)!;
          env[name] = expr(e.replace('wid.x', '0n').replace('wid.y', '0n'), env);
        }
        return [0, 1].map((i) => ({ g: Number(env[`ag${i}`]), o: Number(env[`ao${i}`]) }));
      });
    };
    const plain = units('plain');
    const spread = units('spread');
    // The same (global chunk → workgroup offset) pairs: every element staged, and where plain stages it.
    const pairs = (u: { g: number; o: number }[][]) => u.flat().map((x) => `${x.g}:${x.o}`).sort();
    expect(pairs(spread)).toEqual(pairs(plain));
    expect(new Set(spread.flat().map((x) => x.o)).size).toBe(256);
    // A warp still loads 8 rows × 64 contiguous bytes (the same sectors), in another lane order.
    const rows = (u: { g: number; o: number }[][], w: number) => new Set(u.slice(32 * w, 32 * w + 32).map((x) => Math.floor(x[0].g / 8)));
    for (let w = 0; w < 4; w++) expect(rows(spread, w)).toEqual(rows(plain, w));
    // Banks a quarter-warp's eight 16-byte stores touch (80-byte rows): 32 when none is shared.
    const quarterBanks = (u: { g: number; o: number }[][]) =>
      Array.from({ length: 16 }, (_, q) => new Set(u.slice(8 * q, 8 * q + 8).flatMap((x) => [0, 1, 2, 3].map((w) => (x[0].o / 2 + w) % 32))).size);
    expect(quarterBanks(plain)).toEqual(Array(16).fill(28));
    expect(quarterBanks(spread)).toEqual(Array(16).fill(32));
    // Rows of 8 chunks (tileK 64) already put a quarter-warp on one 128-byte row: spread is plain there.
    const k64 = (storeOrder: string) => MUL_MAT.generate(sg({ config: '16x16x16', staging: 'prefetch', tileK: 64, storeOrder }), MUL_MAT.makeCase([128, 64, 64], 'contiguous', { type0: 1, type1: 1 })).wgsl;
    expect(k64('spread').replace(/spread/g, 'plain')).toBe(k64('plain'));
  });

  /** The order of a staging loop's events: L(set, tile offset) loads, S(set) stores, G(k) the next tile's guard (with guards), B barrier, M multiply. */
  const stagingEvents = (wgsl: string, guards: boolean) =>
    wgsl.split('\n').flatMap((l) => {
      let m: RegExpMatchArray | null;
      if ((m = l.match(/^\s*aw0(b?) = src0\[ag0 \+ \((.+)\) \/ 8u\];$/))) return [`L${m[1] || 'a'}(${m[2]})`];
      if ((m = l.match(/^\s*let ah0 = bitcast<vec2<f16>>\(aw0(b?)\.x\);$/))) return [`S${m[1] || 'a'}`];
      if (guards && (m = l.match(/^\s*if \((k0 \+ \d+u) < (\d+u)\) \{$/))) return [`G(${m[1]})`];
      if (/workgroupBarrier/.test(l)) return ['B'];
      if (/acc0_0 = subgroupMatrixMultiplyAccumulate/.test(l)) return ['M'];
      return [];
    });
  /** A two-register-set staging's events at K (128×64 tiles, f16): both sets declared, two tiles a loop iteration. */
  const twoSets = (staging: string, guards: boolean) => (K: number) => {
    const wgsl = MUL_MAT.generate(sg({ config: '16x16x16', staging }), MUL_MAT.makeCase([128, 64, K], 'contiguous', { type0: 1, type1: 1 })).wgsl;
    expect(wgsl).toContain('var aw0 = vec4<u32>();\n  var aw0b = vec4<u32>();');
    if (K >= 64) expect(wgsl).toContain(`for (var k0 = 0u; k0 < ${Math.floor(K / 64) * 64}u; k0 = k0 + 64u) {`);
    return stagingEvents(wgsl, guards).join(' ');
  };

  it("'prefetch2' loads each tile a whole iteration before its stores, from two register sets; an odd last tile after the loop", () => {
    const events = twoSets('prefetch2', false);
    // K = 128: two pairs; the next tile's loads come before this tile's stores, into the other set.
    expect(events(128)).toBe('La(0u) Lb(k0 + 32u) Sa B M B La(k0 + 64u) Sb B M B');
    // K = 96: one pair, then tile 2 (loaded into set '' by the pair's second half) stored and multiplied.
    expect(events(96)).toBe('La(0u) Lb(k0 + 32u) Sa B M B La(k0 + 64u) Sb B M B Sa B M');
    // Two register sets, the workgroup memory of prefetch.
    expect(SGMATRIX.workgroupBytes(sg({ staging: 'prefetch2' }) as never)).toBe(SGMATRIX.workgroupBytes(sg({ staging: 'prefetch' }) as never));
    expect(validateSchedule(sg({ staging: 'prefetch2', prefetchGuard: 'clamped' }), featured)).toEqual(["prefetchGuard 'clamped' guards prefetch staging's next-tile loads: staging prefetch2 has none"]);
  });

  it("'deep' refills each register set right after its stores, with the tile two ahead; an odd last tile after the loop", () => {
    const events = twoSets('deep', true);
    // K = 128 (four tiles, two pairs): tiles 0 and 1 loaded before the loop; set a refilled with tile t + 2 after its
    // stores and the barrier, set b with tile t + 3, both while inside K.
    expect(events(128)).toBe('La(0u) Lb(32u) Sa B G(k0 + 64u) La(k0 + 64u) M B Sb B G(k0 + 96u) Lb(k0 + 96u) M B');
    // K = 96 (three tiles): one pair, whose first half loads tile 2 into set a; it is stored and multiplied after the loop.
    expect(events(96)).toBe('La(0u) Lb(32u) Sa B G(k0 + 64u) La(k0 + 64u) M B Sb B G(k0 + 96u) Lb(k0 + 96u) M B Sa B M');
    // One tile: nothing for set b, no loop.
    expect(events(32)).toBe('La(0u) Sa B M');
    expect(SGMATRIX.workgroupBytes(sg({ staging: 'deep' }) as never)).toBe(SGMATRIX.workgroupBytes(sg({ staging: 'prefetch' }) as never));
    expect(validateSchedule(sg({ staging: 'deep', prefetchAt: 'early' }), featured)).toEqual(["prefetchAt 'early' moves prefetch staging's global loads: staging deep has none there"]);
  });

  it("'spread' at tileK 16 (48-byte rows of 2 chunks): the same elements, a quarter-warp on 8 distinct 16-byte bank groups instead of 7", () => {
    const units = (storeOrder: string) => {
      const wgsl = MUL_MAT.generate(sg({ config: '16x16x16', staging: 'prefetch', tileK: 16, storeOrder }), MUL_MAT.makeCase([128, 64, 64], 'contiguous', { type0: 1, type1: 1 })).wgsl;
      const lets = wgsl.split('\n').map((l) => l.trim()).filter((l) => /^let (a[rgo]\d|base0|m0) = /.test(l));
      const expr = (e: string, env: Record<string, bigint>) => Function(...Object.keys(env), `return ${e.replace(/(\d+)u/g, '$1n')};`)(...Object.values(env)) as bigint;
      return Array.from({ length: 128 }, (_, lane) => {
        const env: Record<string, bigint> = { lid: BigInt(lane) };
        for (const l of lets) {
          const [, name, e] = l.match(/^let (\w+) = (.+);$/)!;
          env[name] = expr(e.replace('wid.x', '0n').replace('wid.y', '0n'), env);
        }
        // 64 rows × 2 chunks = 128 units: one a thread.
        expect(env.ag1).toBeUndefined();
        return [{ g: Number(env.ag0), o: Number(env.ao0) }];
      });
    };
    const plain = units('plain');
    const spread = units('spread');
    const pairs = (u: { g: number; o: number }[][]) => u.flat().map((x) => `${x.g}:${x.o}`).sort();
    expect(pairs(spread)).toEqual(pairs(plain));
    expect(new Set(spread.flat().map((x) => x.o)).size).toBe(128);
    // A warp still loads 16 whole 32-byte rows (the same sectors; K 64 is 8 vec4 a row).
    const rows = (u: { g: number; o: number }[][], w: number) => [...new Set(u.slice(32 * w, 32 * w + 32).map((x) => Math.floor(x[0].g / 8)))].sort((a, b) => a - b);
    for (let w = 0; w < 4; w++) expect(rows(spread, w)).toEqual(rows(plain, w));
    const warp1 = rows(spread, 1);
    expect([warp1.length, warp1[15] - warp1[0]]).toEqual([16, 15]);
    // 16-byte bank groups (of 8 per 128 bytes) a quarter-warp's eight stores touch: 8 when none is shared.
    const groups = (u: { g: number; o: number }[][]) => Array.from({ length: 16 }, (_, q) => new Set(u.slice(8 * q, 8 * q + 8).map((x) => (x[0].o / 8) % 8)).size);
    expect(groups(plain)).toEqual(Array(16).fill(7));
    expect(groups(spread)).toEqual(Array(16).fill(8));
  });

  it("'swapped' stages every element where 'plain' does; each half-warp's first and second 8-byte stores fall on 16 distinct 8-byte slots (tileK 16, 32, 64)", () => {
    // A unit's stores, as the driver merges them (two 8-byte stores: 4 f16 at lo, 4 at hi), evaluated from the WGSL.
    for (const tileK of [16, 32, 64]) {
      const c = MUL_MAT.makeCase([128, 64, 128], 'contiguous', { type0: 1, type1: 1 });
      const gen = (storeOrder: string) => MUL_MAT.generate(sg({ config: '16x16x16', staging: 'prefetch', tileK, storeOrder }), c).wgsl;
      const wgsl = gen('swapped');
      const lets = wgsl.split('\n').map((l) => l.trim()).filter((l) => /^let (a[rgo]\d|asw\d|alo\d|ahi\d|base0|m0) = /.test(l));
      const expr = (e: string, env: Record<string, unknown>) =>
        Function(...Object.keys(env), `return ${e.replace(/select\((\w+), (\w+), (\w+)\)/g, '($3 ? $2 : $1)').replace(/(\d+)u/g, '$1n')};`)(...Object.values(env));
      const units = Array.from({ length: 128 }, (_, lane) => {
        const env: Record<string, unknown> = { lid: BigInt(lane) };
        for (const l of lets) {
          const [, name, e] = l.match(/^let (\w+) = (.+);$/)!;
          env[name] = expr(e.replace('wid.x', '0n').replace('wid.y', '0n'), env);
        }
        return env;
      });
      const perThread = (64 * tileK) / 8 / 128;
      // The element each store writes, by the store text: word (x, y, z, w) of the vector v = select(aw, aw.zwxy, asw).
      const body = wgsl.split('for (var k0')[1];
      expect(body).toContain('let av = select(aw0, aw0.zwxy, asw0);');
      expect(body).toMatch(/sA\[alo0 \+ 0u\] = ah0\.x;\n\s*sA\[alo0 \+ 1u\] = ah0\.y;/);
      expect(body).toMatch(/sA\[ahi0 \+ 2u\] = ah3\.x;\n\s*sA\[ahi0 \+ 3u\] = ah3\.y;/);
      for (let i = 0; i < perThread; i++) {
        // The same offsets as plain (or spread) stage: lo and hi are the chunk's two halves, swapped on odd rows.
        for (const env of units) {
          const [o, lo, hi, sw] = [env[`ao${i}`], env[`alo${i}`], env[`ahi${i}`], env[`asw${i}`]] as [bigint, bigint, bigint, boolean];
          expect([lo, hi]).toEqual(sw ? [o + 4n, o] : [o, o + 4n]);
        }
        // Half-warp h's first store: 16 lanes at lo (bytes 2·lo), 8 bytes each; its second at hi.
        for (const at of ['alo', 'ahi']) {
          for (let h = 0; h < 8; h++) {
            const slots = new Set(units.slice(16 * h, 16 * h + 16).map((env) => Number(((2n * (env[`${at}${i}`] as bigint)) % 128n) / 8n)));
            expect(slots.size, `tileK ${tileK} unit ${i} ${at} half-warp ${h}`).toBe(16);
          }
        }
      }
      // Every element where spread (plain at tileK 64) puts it: the same units, rows and offsets.
      const base = gen(tileK === 64 ? 'plain' : 'spread');
      const offsets = (w: string) => w.split('\n').map((l) => l.trim()).filter((l) => /^let a[go]\d = /.test(l)).join('\n');
      expect(offsets(wgsl)).toBe(offsets(base));
    }
    expect(validateSchedule(sg({ storeOrder: 'swapped', storeIndex: 'clamped' }), featured)).toEqual(["storeOrder 'swapped' stores at two offsets a chunk (its halves swapped on odd rows): storeIndex 'clamped' clamps one offset a unit"]);
  });

  it("resultOrder 'nm' computes each result matrix as Bᵀ·Aᵀ (left from sB, right from sA) and stores it row-major where 'mn' stores the m×n one column-major", () => {
    const c = MUL_MAT.makeCase([128, 128, 64], 'contiguous', { type0: 1, type1: 1 });
    const gen = (knobs: Record<string, string | number>) => MUL_MAT.generate(sg({ config: '16x16x16', staging: 'prefetch', matricesM: 4, matricesN: 2, ...knobs }), c).wgsl;
    const mn = gen({});
    const nm = gen({ resultOrder: 'nm' });
    // 4 m-blocks × 2 n-blocks a subgroup: 'mn' holds acc (m, n), 'nm' acc (n, m).
    expect(mn).toContain('var acc3_1 = ');
    expect(nm).toContain('var acc1_3 = ');
    expect(nm).not.toContain('var acc3_1 = ');
    // The left matrices: rows of M from sA ('mn'), rows of N from sB ('nm'); right the other way round.
    expect(mn).toContain('let l3 = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>>(&sA, min((sgm * 64u + 48u) * 40u + kk,');
    expect(nm).toContain('let l1 = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>>(&sB, min((sgn * 32u + 16u) * 40u + kk,');
    expect(nm).toContain('let r3 = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>>(&sA, min((sgm * 64u + 48u) * 40u + kk,');
    expect(nm).toContain('acc1_3 = subgroupMatrixMultiplyAccumulate(l1, r3, acc1_3);');
    // The same dst offset for output block (m 3, n 1): column-major from acc 3_1, row-major from acc 1_3.
    const at = 'based + (n0 + sgn * 32u + 16u) * 128u + m0 + sgm * 64u + 48u';
    expect(mn).toContain(`subgroupMatrixStore(&dst, ${at}, acc3_1, true, 128u);`);
    expect(nm).toContain(`subgroupMatrixStore(&dst, ${at}, acc1_3, false, 128u);`);
    // Everything else is the same kernel: the staging, the loop, the barriers.
    const staging = (w: string) => w.split('\n').filter((l) => /s[AB]\[|workgroupBarrier|src[01]\[/.test(l)).join('\n');
    expect(staging(nm)).toBe(staging(mn));
    expect(validateSchedule(sg({ config: '16x8x16', resultOrder: 'nm' }), featured)).toEqual(["resultOrder 'nm' swaps the left and right matrices: it needs the square config 16x16x16, staged operands and splitK 1 (not 16x8x16, single, splitK 1)"]);
  });

  it("prefetchAt 'interleaved' puts one guarded load after each group of MMAs sharing a right matrix, over the written-out K steps", () => {
    const gen = (knobs: Record<string, string | number>) => MUL_MAT.generate(sg({ config: '16x16x16', staging: 'prefetch', kSteps: 'unrolled', prefetchAt: 'interleaved', ...knobs }), MUL_MAT.makeCase([128, 128, 96], 'contiguous', { type0: 1, type1: 1 })).wgsl;
    const loop = gen({ matricesM: 4, matricesN: 4 }).split('for (var k0')[1];
    // 2 K steps × 4 right matrices = 8 groups, 8 loads (4 of A, 4 of B): G = a group's MMAs, L = a guarded load.
    const events = loop.split('} else {')[0].split('\n').flatMap((l) => (/acc3_\d = subgroupMatrixMultiplyAccumulate/.test(l) ? ['G'] : /^\s*if \(k0 \+ 32u < 96u\) \{$/.test(l) ? ['L'] : []));
    expect(events.join('')).toBe('GLGLGLGLGLGLGLGL');
    expect(loop).toContain('acc3_0 = subgroupMatrixMultiplyAccumulate(l3, r0, acc3_0);\n        if (k0 + 32u < 96u) {\n          aw0 = src0[ag0 + (k0 + 32u) / 8u];\n        }\n        let r1 = ');
    // Subgroups past the tile still load (every thread stages), in the multiply's else branch.
    expect(loop).toMatch(/\} else \{\n {6}if \(k0 \+ 32u < 96u\) \{\n {8}aw0 = /);
    // The default tile (2×2 matrices): 2 steps × 2 right matrices = 4 groups for its 4 loads.
    const small = gen({}).split('for (var k0')[1].split('} else {')[0];
    expect(small.split('\n').flatMap((l) => (/acc1_\d = subgroupMatrixMultiplyAccumulate/.test(l) ? ['G'] : /^\s*if \(k0 \+ 32u < 96u\) \{$/.test(l) ? ['L'] : [])).join('')).toBe('GLGLGLGL');
    expect(validateSchedule(sg({ staging: 'prefetch', prefetchAt: 'interleaved' }), featured)).toEqual(["prefetchAt 'interleaved' places the loads between the multiply's MMA groups: it needs kSteps 'unrolled'"]);
  });

  it("prefetchAt 'early' issues the next tile's loads right after this tile's stores, before the barrier", () => {
    const c = MUL_MAT.makeCase([128, 64, 96], 'contiguous', { type0: 1, type1: 1 });
    const loop = MUL_MAT.generate(sg({ config: '16x16x16', staging: 'prefetch', prefetchAt: 'early' }), c).wgsl.split('for (var k0')[1];
    const lastStore = loop.lastIndexOf('sB[');
    const load = loop.indexOf('if (k0 + 32u < 96u) {\n      aw0 = src0[');
    const barrier = loop.indexOf('workgroupBarrier();');
    expect(lastStore).toBeGreaterThan(0);
    expect(load).toBeGreaterThan(lastStore);
    expect(barrier).toBeGreaterThan(load);
    expect(loop.indexOf('subgroupMatrixMultiplyAccumulate')).toBeGreaterThan(barrier);
    expect(validateSchedule(sg({ staging: 'double', prefetchAt: 'early' }), featured)).toEqual(["prefetchAt 'early' moves prefetch staging's global loads: staging double has none there"]);
  });

  it("prefetchGuard 'clamped' issues the next tile's loads without a branch, from the last tile at the end", () => {
    const c = MUL_MAT.makeCase([128, 64, 96], 'contiguous', { type0: 1, type1: 1 });
    const branch = MUL_MAT.generate(sg({ config: '16x16x16', staging: 'prefetch' }), c).wgsl;
    const clamped = MUL_MAT.generate(sg({ config: '16x16x16', staging: 'prefetch', prefetchGuard: 'clamped' }), c).wgsl;
    expect(branch).toContain('if (k0 + 32u < 96u) {\n      aw0 = src0[ag0 + (k0 + 32u) / 8u];');
    expect(clamped).not.toContain('if (k0 + 32u < 96u)');
    expect(clamped).toContain('    aw0 = src0[ag0 + (min(k0 + 32u, 64u)) / 8u];');
    // The default is left out of the key (keys of stored results stay); 'clamped' is in it.
    expect(scheduleKey(sg({ prefetchGuard: 'branch' }))).toBe(scheduleKey(sg()));
    expect(scheduleKey(sg({ staging: 'prefetch', prefetchGuard: 'clamped' }))).toContain('"prefetchGuard":"clamped"');
    // 'peeled': no guard in the loop, which stops a tile early; the last tile after it.
    const peeled = MUL_MAT.generate(sg({ config: '16x16x16', staging: 'prefetch', prefetchGuard: 'peeled' }), c).wgsl;
    expect(peeled).toContain('for (var k0 = 0u; k0 < 64u; k0 = k0 + 32u) {');
    expect(peeled).toContain('    aw0 = src0[ag0 + (k0 + 32u) / 8u];');
    expect(peeled).not.toMatch(/if \(k0 \+ 32u < 96u\)/);
    const tail = peeled.slice(peeled.lastIndexOf('  {\n    let k0 = 64u;'));
    expect(tail).toMatch(/sA\[ao0 \+ 0u\][\s\S]*workgroupBarrier\(\);[\s\S]*acc0_0 = subgroupMatrixMultiplyAccumulate/);
    expect(tail).not.toContain('src0[');
    expect(validateSchedule(sg({ staging: 'double', prefetchGuard: 'clamped' }), featured)).toEqual(["prefetchGuard 'clamped' guards prefetch staging's next-tile loads: staging double has none"]);
  });

  it('clamps workgroup offsets to the last start a whole matrix fits: never below a real offset, so the clamp changes nothing', () => {
    // Robustness predicates every subgroupMatrixLoad on offset + span ≤ length; min(offset, length − span) lets the driver prove it.
    const cases: Record<string, number | string>[] = [
      { config: '16x16x16', subgroupsM: 4, matricesM: 4, matricesN: 4, staging: 'prefetch' },
      { config: '16x8x16', staging: 'double' },
      { config: '16x8x8', tileK: 16, matricesN: 1 },
      { config: '16x16x16', matricesM: 4, matricesN: 4, staging: 'double', storeOrder: 'matrix' },
      // Row padding: none, 32 bytes; the K steps written out (constant kk).
      { config: '16x16x16', matricesM: 4, matricesN: 4, staging: 'prefetch', rowPad: 'none' },
      { config: '16x16x16', matricesM: 4, matricesN: 2, staging: 'prefetch', rowPad: '32B', storeOrder: 'matrix' },
      { config: '16x16x16', staging: 'prefetch', kSteps: 'unrolled', prefetchAt: 'mma', rowPad: '32B' },
      { config: '16x8x8', staging: 'double', kSteps: 'unrolled', rowPad: 'none' },
    ];
    for (const knobs of cases) {
      const s = sg(knobs) as SgmatrixSchedule;
      const { BM, BN } = sgmatrixTile(s);
      const wgsl = MUL_MAT.generate(s, MUL_MAT.makeCase([BM * 2, BN * 2, 64], 'contiguous', { type0: 1, type1: 1 })).wgsl;
      const [cm, cn, ck] = s.config.split('x').map(Number);
      const len = (name: string) => Number(wgsl.match(new RegExp(`var<workgroup> ${name}: array<f16, (\\d+)>;`))![1]);
      const loads = [...wgsl.matchAll(/subgroupMatrixLoad<subgroup_matrix_(left|right)[^>]*>>\(&(s[AB][01]?), min\((.+?), (\d+)u\), (true|false), (\d+)u\);/g)];
      // Double staging: the multiply written once per buffer; unrolled K steps: once per step.
      expect(loads.length).toBe((s.staging === 'double' ? 2 : 1) * (s.kSteps === 'unrolled' ? s.tileK / ck : 1) * (s.matricesM + s.matricesN));
      const LD = s.tileK + { none: 0, '16B': 8, '32B': 16 }[s.rowPad];
      expect(len(s.staging === 'double' ? 'sA0' : 'sA')).toBe(sgmatrixTile(s).BM * LD);
      for (const [, side, buf, expr, bound, , ld] of loads) {
        expect(Number(ld)).toBe(LD);
        const span = Number(ld) * ((side === 'left' ? cm : cn) - 1) + ck;
        expect(Number(bound)).toBe(len(buf) - span);
        const f = Function('sgm', 'sgn', 'kk', 'cur', `return ${expr.replace(/(\d+)u/g, '$1')};`) as (...a: number[]) => number;
        let most = 0;
        for (let sgm = 0; sgm < s.subgroupsM; sgm++)
          for (let sgn = 0; sgn < s.subgroupsN; sgn++)
            for (let kk = 0; kk < s.tileK; kk += ck) for (const cur of [0, 1]) most = Math.max(most, f(sgm, sgn, kk, cur));
        expect(most).toBeLessThanOrEqual(Number(bound));
      }
      // 'matrix' copies: the stores clamped the same way (their offsets are checked by the copy model below).
      for (const [, buf, bound, side] of [...wgsl.matchAll(/subgroupMatrixStore\(&(s[AB][01]?), min\([ab]o\d+, (\d+)u\), ([ab])w\d+, (?:true|false), \d+u\);/g)]) {
        expect(Number(bound)).toBe(len(buf) - (LD * ((side === 'a' ? cm : cn) - 1) + ck));
      }
    }
  });

  it("'matrix' store order copies every cfg-sized matrix of the tile once, from where 'plain' loads it to where it stores it", () => {
    // A CPU model of the emitted lets: for each subgroup and unit, the global start (ag) and workgroup offset (ao) of its matrix.
    for (const knobs of [{ config: '16x16x16', matricesM: 4, matricesN: 4 }, { config: '16x8x16', subgroupsM: 4, subgroupsN: 1, matricesM: 1, matricesN: 2, tileK: 16 }] as Record<string, number | string>[]) {
      const s = sg({ ...knobs, staging: 'prefetch', storeOrder: 'matrix' }) as SgmatrixSchedule;
      const { BM, BN } = sgmatrixTile(s);
      const K = 2 * s.tileK;
      const c = MUL_MAT.makeCase([BM * 2, BN * 2, K], 'contiguous', { type0: 1, type1: 1 });
      const wgsl = MUL_MAT.generate(s, c).wgsl;
      expect(wgsl).not.toMatch(/bitcast|\bs[AB]\[/); // no 16-bit stores
      expect(wgsl).toContain('var<storage, read> src0: array<f16>;');
      const [cm, cn, ck] = s.config.split('x').map(Number);
      const lets = wgsl.split('\n').map((l) => l.trim()).filter((l) => /^let ([ab][go]\d+|base[01]|m0|n0) = /.test(l));
      const nsg = s.subgroupsM * s.subgroupsN;
      for (const [p, rows, major] of [['a', BM, cm], ['b', BN, cn]] as const) {
        const seen = new Map<number, number>();
        for (let sgi = 0; sgi < nsg; sgi++) {
          const env: Record<string, bigint> = { sg: BigInt(sgi) };
          for (const l of lets) {
            const [, name, e] = l.match(/^let (\w+) = (.+);$/)!;
            env[name] = Function(...Object.keys(env), `const wid = { x: 1n, y: 1n }; return ${e.replace(/(\d+)u/g, '$1n')};`)(...Object.values(env)) as bigint;
          }
          for (let i = 0; env[`${p}g${i}`] !== undefined; i++) {
            // The unit's guard as emitted around its load (isActive: this subgroup is one of the tile's).
            const guard = wgsl.match(new RegExp(`if \\((.+)\\) \\{\\n\\s*${p}w${i} = subgroupMatrixLoad`))![1];
            if (!Function(...Object.keys(env), `const isActive = true; return ${guard.replace(/(\d+)u/g, '$1n')};`)(...Object.values(env))) continue;
            const base = Number(env[p === 'a' ? 'base0' : 'base1']) + K * (p === 'a' ? BM : BN); // workgroup (1, 1): rows from BM (BN) on
            const g = Number(env[`${p}g${i}`]) - base;
            const [row, col] = [Math.floor(g / K), g % K]; // the matrix's first row and K column in the tile
            expect(row % major).toBe(0);
            expect(col % ck).toBe(0);
            expect(Number(env[`${p}o${i}`])).toBe(row * (s.tileK + 8) + col); // where 'plain' stores element (row, col): rows of tileK + 8
            seen.set(row * K + col, (seen.get(row * K + col) ?? 0) + 1);
          }
        }
        // Every matrix of the rows × tileK tile exactly once.
        expect([...seen.values()]).toEqual(Array((rows / major) * (s.tileK / ck)).fill(1));
      }
    }
  });
});

describe('sgmatrix knobs of issue 26 (sgm5): workgroup order, row padding, K steps, prefetch placement, clamped stores', () => {
  const f16 = (dims: number[]) => MUL_MAT.makeCase(dims, 'contiguous', { type0: 1, type1: 1 });
  /** The emitted lets named in `names`, evaluated in order (u32 literals as bigints) over `env`. */
  const evalLets = (wgsl: string, names: RegExp, env: Record<string, bigint>) => {
    for (const l of wgsl.split('\n').map((x) => x.trim()).filter((x) => names.test(x))) {
      const [, name, e] = l.match(/^let (\w+) = (.+);$/)!;
      const js = e.replace(/(\d+)u/g, '$1n').replace(/\bmin\(/g, 'mn(');
      const select = (f: unknown, t: unknown, c: boolean) => (c ? t : f);
      env[name] = Function('mn', 'select', 'wid', ...Object.keys(env), `return ${js};`)((a: bigint, b: bigint) => (a < b ? a : b), select, { x: env.wx, y: env.wy }, ...Object.values(env)) as bigint;
    }
    return env;
  };

  it('groupM walks bands of G tile-rows: every tile once, G tiles along M before the next along N; 1 (or G ≥ the M tiles) is the dispatch order', () => {
    // 64×32 tiles; M = 6 tiles (G = 4 leaves a short band of 2), N = 3 tiles.
    for (const [G, TM, TN] of [[4, 6, 3], [4, 8, 3], [8, 32, 4], [2, 5, 2]]) {
      const wgsl = MUL_MAT.generate(sg({ groupM: G }), f16([64 * TM, 32 * TN, 32])).wgsl;
      expect(wgsl).toContain(`let lin = wid.x + wid.y * ${TM}u;`);
      const order: [number, number][] = [];
      for (let wy = 0; wy < TN; wy++)
        for (let wx = 0; wx < TM; wx++) {
          const env = evalLets(wgsl, /^let (lin|band|inBand|bandRows|m0|n0) = /, { wx: BigInt(wx), wy: BigInt(wy) });
          order[wx + wy * TM] = [Number(env.m0) / 64, Number(env.n0) / 32];
        }
      // A bijection onto the TM × TN tiles.
      expect(new Set(order.map(([m, n]) => m * TN + n)).size).toBe(TM * TN);
      expect(order.every(([m, n]) => m < TM && n < TN)).toBe(true);
      // Linear ids walk a band: G tiles along M (fewer in the short last band), then the next tile along N.
      let lin = 0;
      for (let band = 0; band * G < TM; band++) {
        const rows = Math.min(G, TM - band * G);
        for (let n = 0; n < TN; n++) for (let r = 0; r < rows; r++) expect(order[lin++]).toEqual([band * G + r, n]);
      }
    }
    for (const G of [1, 8]) expect(MUL_MAT.generate(sg({ groupM: G }), f16([64 * 8, 32 * 3, 32])).wgsl).toContain('let m0 = wid.x * 64u;\n  let n0 = wid.y * 32u;');
    expect(tileOrigin(4, 8, 1, 64, 32)).toEqual(['let m0 = wid.x * 64u;', 'let n0 = wid.y * 32u;']); // one tile along N: nothing to reorder
  });

  it('pairStride P: ids w and w + P of a block of 2P (R/2 in the short last block) take tiles stacked along M on the same src1 columns; every tile once; 1 is the dispatch order', () => {
    // [P, TM, TN]: 4096³'s 32 × 32 tiles at the H200's 132 (3 blocks of 264 and 232 left) and 66 (blocks only); one short block only; 1.
    for (const [P, TM, TN] of [[132, 32, 32], [66, 32, 32], [66, 4, 6], [8, 6, 5], [3, 2, 2], [1, 4, 3]]) {
      const wgsl = MUL_MAT.generate(sg({ pairStride: P }), f16([64 * TM, 32 * TN, 32])).wgsl;
      const order: [number, number][] = [];
      for (let lin = 0; lin < TM * TN; lin++) {
        const env = evalLets(wgsl, /^let (lin|inFull|r|q|h|p|m0|n0) = /, { wx: BigInt(lin % TM), wy: BigInt(Math.floor(lin / TM)) });
        order.push([Number(env.m0) / 64, Number(env.n0) / 32]);
      }
      expect(new Set(order.map(([m, n]) => m * TN + n)).size, `P ${P} ${TM}×${TN}`).toBe(TM * TN);
      expect(order.every(([m, n]) => m < TM && n < TN)).toBe(true);
      const T = TM * TN;
      const full = Math.floor(T / (2 * P)) * 2 * P;
      for (let w = 0; w < T; w++) {
        const partner = w < full ? (w % (2 * P) < P ? w + P : null) : w - full < (T - full) / 2 ? w + (T - full) / 2 : null;
        if (partner === null) continue;
        expect(order[partner], `P ${P}: ${w} and ${partner}`).toEqual([order[w][0] + 1, order[w][1]]);
        expect(order[w][0] % 2).toBe(0);
      }
      if (P === 1) expect(order).toEqual(order.map((_, w) => [w % TM, Math.floor(w / TM)]));
    }
    // Three M tiles cannot be paired; groupM orders the workgroups another way.
    expect(MUL_MAT.fits(sg({ pairStride: 2 }), f16([192, 64, 32]))).toEqual(['pairStride 2 pairs tiles stacked along M: M = 192 needs an even count of 64-row tiles (it has 3)']);
    expect(MUL_MAT.fits(sg({ pairStride: 2 }), f16([128, 96, 32]))).toEqual([]);
    expect(validateSchedule(sg({ pairStride: 132, groupM: 8 }), featured)).toContain('pairStride 132 sets the workgroup order itself: it takes groupM 1, not 8');
    // 1 (or absent) is the key and the WGSL of before.
    expect(scheduleKey(sg({ pairStride: 1 }))).toBe(scheduleKey(sg()));
    expect(MUL_MAT.generate(sg({ pairStride: 1 }), f16([64 * 4, 32 * 3, 32])).wgsl).toContain('let m0 = wid.x * 64u;\n  let n0 = wid.y * 32u;');
  });

  it('persistent P: P workgroups (at most one a tile) take tiles w, w + P, …, each once; the last K step aims the loads at the next tile; refused where it cannot chain', () => {
    for (const [P, TM, TN] of [[5, 3, 4], [264, 32, 32], [40, 4, 2]]) {
      const g = MUL_MAT.generate(sg({ persistent: P, staging: 'prefetch' }), f16([64 * TM, 32 * TN, 96]));
      const W = Math.min(P, TM * TN);
      expect(g.dispatch).toEqual([W, 1, 1]);
      const line = (re: RegExp) => g.wgsl.split('\n').map((l) => l.trim()).find((l) => re.test(l))!.replace(/^[^=]*= /, '').replace(/;$/, '');
      // u32 arithmetic: bigints divide as integers.
      const at = (e: string, t: number, name = 't') => Number(Function(name, 'wid', `return ${e.replace(/(\d+)u/g, '$1n')};`)(BigInt(t), { x: BigInt(t) }));
      expect(g.wgsl).toContain(`for (var t = wid.x; t < ${TM * TN}u; t = t + ${W}u) {`);
      const seen: string[] = [];
      for (let w = 0; w < W; w++) {
        // The first tile's loads, then per tile: m0/n0 from t, and (before its result) the loads re-aimed at t + W.
        let loadsAt = `${at(line(/^var mL = /), w, 'w')},${at(line(/^var nL = /), w, 'w')}`;
        for (let t = w; t < TM * TN; t += W) {
          const tile = `${at(line(/^let m0 = /), t)},${at(line(/^let n0 = /), t)}`;
          expect(loadsAt, `workgroup ${w} tile ${t}`).toBe(tile);
          seen.push(tile);
          if (t + W < TM * TN) loadsAt = `${at(line(/^mL = /), t)},${at(line(/^nL = /), t)}`;
        }
      }
      expect(new Set(seen).size).toBe(TM * TN);
      expect(seen.filter((x) => { const [m, n] = x.split(',').map(Number); return !(m % 64 === 0 && m < 64 * TM && n % 32 === 0 && n < 32 * TN); })).toEqual([]);
      // Results inside the tile loop, then the accumulators zeroed for the next tile.
      expect(g.wgsl.indexOf('subgroupMatrixStore(&dst')).toBeLessThan(g.wgsl.lastIndexOf('  acc0_0 = subgroup_matrix_result<f32, 8, 16>();'));
    }
    expect(validateSchedule(sg({ persistent: 264, staging: 'double' }), featured)).toContain(
      "persistent 264 chains each tile's last K step to the next tile's loads: it needs prefetch staging with prefetchAt 'top' and prefetchGuard 'branch', splitK 1, groupM 1, pairStride 1 and staged stores (not double, top, branch, splitK 1, groupM 1, pairStride 1, plain)",
    );
    expect(MUL_MAT.fits(sg({ persistent: 8, staging: 'prefetch' }), MUL_MAT.makeCase([64, 32, 32, 2], 'contiguous', { type0: 1, type1: 1 }))).toEqual(['persistent 8 walks the tiles of one matrix product with f16 or f32 operands: not 2 batches']);
    expect(MUL_MAT.fits(sg({ persistent: 8, staging: 'prefetch' }), MUL_MAT.makeCase([64, 32, 64], 'contiguous', { type0: weightFormat('q4_0').id }))).toEqual(['persistent 8 walks the tiles of one matrix product with f16 or f32 operands: not quantized weights']);
    // 0 (or absent) is off: the key and WGSL of before; negative counts are named.
    expect(scheduleKey(sg({ persistent: 0 }))).toBe(scheduleKey(sg()));
    expect(() => sg({ persistent: -1 })).toThrow("'persistent' must be an integer ≥ 0, got -1");
  });

  it('rowPad sets the staging rows (none, 8 or 16 f16 past tileK; 16-byte aligned) and the workgroup memory', () => {
    for (const [rowPad, pad] of [['none', 0], ['16B', 8], ['32B', 16]] as const) {
      const s = sg({ config: '16x16x16', rowPad, staging: 'prefetch' }) as SgmatrixSchedule;
      expect(SGMATRIX.workgroupBytes(s)).toBe((64 + 64) * (32 + pad) * 2);
      const wgsl = MUL_MAT.generate(s, f16([128, 128, 64])).wgsl;
      expect(wgsl).toContain(`var<workgroup> sA: array<f16, ${64 * (32 + pad)}>;`);
      expect(wgsl).toContain(`let ao0 = (lid / 4u) * ${32 + pad}u + (lid % 4u) * 8u;`);
      expect(((32 + pad) * 2) % 16).toBe(0);
    }
    expect(() => sg({ rowPad: '8B' })).toThrow(/'rowPad' must be one of "16B", "none", "32B"/);
  });

  it("storeIndex 'clamped' stores at min(o, length − span) + e: span 8 f16, 4 for f32 sources, 32 for a weight block; never below any thread's offset", () => {
    const cases = [
      { s: sg({ config: '16x16x16', matricesM: 4, matricesN: 4, staging: 'prefetch', storeIndex: 'clamped' }), c: f16([128, 128, 64]), span: { a: 8, b: 8 } },
      { s: sg({ config: '16x16x16', storeIndex: 'clamped', rowPad: 'none' }), c: MUL_MAT.makeCase([64, 64, 64], 'contiguous', { type0: 1 }), span: { a: 8, b: 4 } },
      { s: sg({ staging: 'double', storeIndex: 'clamped' }), c: MUL_MAT.makeCase([64, 32, 64], 'contiguous', { type0: weightFormat('q4_0').id }), span: { a: 32, b: 4 } },
    ];
    for (const { s, c, span } of cases) {
      const wgsl = MUL_MAT.generate(s, c).wgsl;
      const { threads } = sgmatrixTile(s as SgmatrixSchedule);
      const clamps = [...wgsl.matchAll(/let ([ab])c = min\(([ab]o\d+), (\d+)u\);/g)];
      expect(clamps.length).toBeGreaterThan(0);
      // No store indexes its unit's offset directly.
      expect(wgsl).not.toMatch(/s[AB][01]?\[[ab]o\d+ \+/);
      for (const [, p, o, bound] of clamps) {
        const length = Number(wgsl.match(new RegExp(`var<workgroup> s${p.toUpperCase()}0?: array<f16, (\\d+)>;`))![1]);
        expect(Number(bound)).toBe(length - span[p as 'a' | 'b']);
        // A partial last round of units is guarded: threads past it store nothing.
        const guard = wgsl.match(new RegExp(`if \\((.+?)\\) \\{\\n\\s*let ${p}c = min\\(${o},`))?.[1];
        for (let lid = 0; lid < threads; lid++) {
          const env = evalLets(wgsl, /^let ([ab][og]\d+|m0|n0|base[01]|sg|a[bo]\d+) = /, { lid: BigInt(lid), wx: 0n, wy: 0n, sgSize: 32n });
          if (guard && !Function('lid', `return ${guard.replace(/(\d+)u/g, '$1n')};`)(BigInt(lid))) continue;
          expect(Number(env[o])).toBeLessThanOrEqual(Number(bound));
        }
      }
    }
  });

  it("kSteps 'unrolled' writes the K steps out; prefetchAt 'mma' issues the next tile's loads inside the first one (every thread once)", () => {
    const c = f16([128, 128, 96]);
    const base = { config: '16x16x16', matricesM: 4, matricesN: 4, staging: 'prefetch' };
    const unrolled = MUL_MAT.generate(sg({ ...base, kSteps: 'unrolled' }), c).wgsl;
    expect(unrolled).not.toContain('for (var kk');
    expect(unrolled).toContain('let l0 = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>>(&sA, min((sgm * 64u + 0u) * 40u + 16u, 4504u), false, 40u);');
    // 'top': the loads before the multiply, as with the loop.
    const loopTop = unrolled.split('for (var k0')[1];
    expect(loopTop.indexOf('aw0 = src0[ag0 + (k0 + 32u) / 8u];')).toBeLessThan(loopTop.indexOf('if (isActive)'));
    const mma = MUL_MAT.generate(sg({ ...base, kSteps: 'unrolled', prefetchAt: 'mma' }), c).wgsl;
    const loop = mma.split('for (var k0')[1];
    const [active, inactive] = loop.split('} else {');
    const load = 'aw0 = src0[ag0 + (k0 + 32u) / 8u];';
    // Active subgroups: after the first step's l0..l3 and r0, before its first MMA; the second step after it.
    expect(active.indexOf(load)).toBeGreaterThan(active.indexOf('let r0 = '));
    expect(active.indexOf(load)).toBeLessThan(active.indexOf('subgroupMatrixMultiplyAccumulate'));
    expect(active.split(load)).toHaveLength(2);
    expect(active.indexOf(load)).toBeLessThan(active.indexOf('+ 16u, 4504u)'));
    // Subgroups past the tile (a smaller subgroup size) load too: every thread once per tile.
    expect(inactive.split('workgroupBarrier')[0]).toContain(`if (k0 + 32u < 96u) {\n        ${load}`);
    // (2×2 · 4×2: within the default 16 KiB, so these are the only reasons.)
    const small = { ...base, matricesN: 2 };
    expect(validateSchedule(sg({ ...small, kSteps: 'unrolled', prefetchAt: 'mma' }), featured)).toEqual([]);
    expect(validateSchedule(sg({ ...small, prefetchAt: 'mma' }), featured)).toEqual(["prefetchAt 'mma' places the loads in the multiply's first K step: it needs kSteps 'unrolled'"]);
    expect(validateSchedule(sg({ ...small, staging: 'single', kSteps: 'unrolled', prefetchAt: 'mma' }), featured)).toEqual(["prefetchAt 'mma' moves prefetch staging's global loads: staging single has none there"]);
    const all = MUL_MAT.generate(sg({ ...base, kSteps: 'unrolled', prefetchAt: 'mma', groupM: 2, rowPad: 'none', storeIndex: 'clamped' }), MUL_MAT.makeCase([512, 256, 64], 'contiguous', { type0: 1, type1: 1 }));
    expect(`${all.label}\n${all.wgsl}`).toMatchSnapshot();
  });
});

describe('sgmatrix with quantized weights (decoded into f16 workgroup memory)', () => {
  const q = (name: string, dims: number[], type1 = 0) => MUL_MAT.makeCase(dims, 'contiguous', { type0: weightFormat(name).id, type1 });

  it('names what it refuses: a tileK that splits a 32-weight block, K not a whole number of tiles', () => {
    expect(MUL_MAT.fits(sg(), q('q4_0', [64, 32, 96]))).toEqual([]);
    expect(MUL_MAT.fits(sg({ tileK: 16 }), q('q8_0', [64, 32, 96]))).toEqual(['block weights are decoded a whole 32-weight block at a time: tileK 16 must be a multiple of 32']);
    expect(MUL_MAT.fits(sg({ tileK: 64 }), q('mxfp4', [64, 32, 96]))).toEqual(['K = 96 is not a multiple of tileK 64']);
    // Every format decodes whole 32-weight chunks where K % 32 == 0 (block-wgsl.ts); at other K a Track-1
    // format takes four weights a load, any tileK.
    expect(MUL_MAT.fits(sg({ tileK: 16 }), q('nvfp4', [64, 32, 48]))).toEqual([]);
    expect(MUL_MAT.fits(sg({ tileK: 16 }), q('nvfp4', [64, 32, 64]))).toEqual(['block weights are decoded a whole 32-weight block at a time: tileK 16 must be a multiple of 32']);
    expect(MUL_MAT.fits(sg(), q('q4_k', [64, 32, 256], 1))).toEqual([]);
    // A Track-1 format with a ragged tail block: K must still be whole tiles.
    expect(MUL_MAT.fits(sg(), q('int5', [64, 32, 70]))).toEqual(['K = 70 is not a multiple of tileK 32', "sgmatrix loads 4 f32 at a time: src1's rows must start on 4-element boundaries (offset 64, row stride 70)"]);
  });

  it('q4_0: a thread loads one block per K tile ahead (wq_raw) and decodes it at the store (wq_unpack), rounded to f16; labelled so', () => {
    const k = MUL_MAT.generate(sg({ staging: 'prefetch' }), q('q4_0', [64, 32, 64]));
    expect(k.inputRounding).toBe('f16');
    expect(k.features).toEqual(['shader-f16', 'subgroups', 'chromium-experimental-subgroup-matrix']);
    expect(k.label).toMatch(/ \[weights decoded to f16, f32 src1 staged as f16\]$/);
    expect(k.wgsl).toContain('@group(0) @binding(0) var<storage, read> src0: array<u32>;');
    const loop = k.wgsl.split('for (var k0')[1];
    // The next tile's raw blocks are in flight while this one is multiplied; the decode happens at the store.
    expect(loop.indexOf('ar0 = wq_raw(ab0 + (k0 + 32u) / 32u);')).toBeLessThan(loop.indexOf('subgroupMatrixMultiplyAccumulate'));
    expect(loop.indexOf('let wb = wq_unpack(ar0);')).toBeLessThan(loop.indexOf('workgroupBarrier'));
    expect(`${k.label}\n${k.wgsl}`).toMatchSnapshot();
    // f16 activations: nothing of src1 rounds, the weights still do.
    const f16 = MUL_MAT.generate(sg(), q('q4_0', [64, 32, 64], 1));
    expect(f16.inputRounding).toBe('f16');
    expect(f16.label).toMatch(/ \[weights decoded to f16\]$/);
  });

  it('nvfp4 at K = 48 (not whole 32-weight chunks, so no block decode): four weights a load through wq4, stored as f16; f16 activations loaded directly', () => {
    const k = MUL_MAT.generate(sg({ staging: 'direct', tileK: 16 }), q('nvfp4', [64, 32, 48], 1));
    expect(k.wgsl).toContain('aw0 = wq4(ag0 + (0u) / 4u);');
    expect(k.wgsl).toContain('let ah = vec4<f16>(aw0);');
    expect(k.wgsl).not.toContain('var<workgroup> sB');
    expect(k.inputRounding).toBe('f16');
    expect(`${k.label}\n${k.wgsl}`).toMatchSnapshot();
  });

  it('every block of a K tile lands once, at its row and K offset in sA (tileK 64: two blocks a row; more blocks than threads)', () => {
    // 64 rows × 2 blocks = 128 units over 32 threads (one subgroup): four per thread.
    const s = sg({ subgroupsM: 1, subgroupsN: 1, matricesM: 4, matricesN: 4, tileK: 64, config: '16x16x16' }) as SgmatrixSchedule;
    const K = 192;
    const wgsl = MUL_MAT.generate(s, q('q5_1', [128, 64, K])).wgsl;
    const lets = wgsl.split('\n').map((l) => l.trim()).filter((l) => /^let (ab\d|ao\d) = /.test(l));
    expect(lets.filter((l) => l.startsWith('let ab'))).toHaveLength(4);
    const LD = 64 + 8;
    for (const wx of [0, 1]) {
      const seen = new Map<number, number>(); // sA offset → block index
      for (let lid = 0; lid < 32; lid++) {
        const env: Record<string, bigint> = { lid: BigInt(lid), m0: BigInt(64 * wx) }; // workgroup wx along M
        for (const l of lets) {
          const [, name, e] = l.match(/^let (\w+) = (.+);$/)!;
          env[name] = Function(...Object.keys(env), `return ${e.replace(/(\d+)u/g, '$1n')};`)(...Object.values(env)) as bigint;
        }
        for (let i = 0; i < 4; i++) seen.set(Number(env[`ao${i}`]), Number(env[`ab${i}`]));
      }
      // Block c of tile row r (of the first K tile) is block (64·wx + r)·K/32 + c, stored at r·LD + 32c.
      const want = new Map(Array.from({ length: 128 }, (_, v) => [Math.floor(v / 2) * LD + (v % 2) * 32, (64 * wx + Math.floor(v / 2)) * (K / 32) + (v % 2)]));
      expect(seen).toEqual(want);
    }
  });
});

describe('sgmatrix splitK (K split between groups of subgroups inside the workgroup, summed through workgroup memory)', () => {
  const s16 = (knobs: Record<string, number | string> = {}) => sg({ config: '16x16x16', matricesM: 4, matricesN: 2, staging: 'prefetch', ...knobs }) as SgmatrixSchedule;

  it('stays out of schedules and keys at 1 (saved keys unchanged); threads, workgroup memory and limits grow with it', () => {
    expect(sg()).not.toHaveProperty('splitK');
    expect(scheduleKey(sg({ splitK: 1 }))).toBe(scheduleKey(sg()));
    expect(scheduleKey(sg({ splitK: 2 }))).toContain('"splitK":2');
    expect(enumerateSpace('sgmatrix', { splitK: [1, 2] }).filter((c) => !('splitK' in c)).length).toBe(enumerateSpace('sgmatrix', { splitK: [2] }).length);
    // 128×64 tiles: 2 K groups of 2×2 subgroups = 256 threads; staging (128 + 64)·40·2 B plus 16 KiB of f32 scratch
    // (2 groups × 4 subgroups × 2 matrices a round × 16·16 f32), in 4 rounds of the 8 matrices a subgroup holds.
    expect(sgmatrixTile(s16({ splitK: 2 }))).toEqual({ BM: 128, BN: 64, threads: 256 });
    expect(sgmatrixScratch(s16({ splitK: 2 }))).toEqual({ perRound: 2, rounds: 4, floats: 4096, bytes: 16384 });
    expect(SGMATRIX.workgroupBytes(s16({ splitK: 2 }))).toBe(192 * 40 * 2 + 16384);
    expect(SGMATRIX.workgroupBytes(s16())).toBe(192 * 40 * 2);
    expect(limitsNeeded(s16({ splitK: 2 }))).toEqual({ maxComputeWorkgroupStorageSize: 31744 });
    // 2×4 subgroups · splitK 2: 512 threads, one matrix a round.
    expect(limitsNeeded(s16({ subgroupsN: 4, splitK: 2 }))).toEqual({ maxComputeInvocationsPerWorkgroup: 512, maxComputeWorkgroupStorageSize: (128 + 128) * 40 * 2 + 16384 });
    expect(sgmatrixScratch(s16({ subgroupsN: 4, splitK: 2 }))).toMatchObject({ perRound: 1, rounds: 8 });
  });

  it('refuses by name: a split that does not divide the K steps of a tile, workgroup memory past the limit, and no subgroup matrices (SwiftShader)', () => {
    expect(validateSchedule(s16({ splitK: 4 }), featured)).toContain('splitK 4 must divide the 2 K steps of a tile (tileK 32 / the config\'s K 16): each K group multiplies tileK/splitK of every tile');
    expect(validateSchedule(s16({ splitK: 2 }), featured)).toContain('workgroup memory 31744 B exceeds maxComputeWorkgroupStorageSize 16384');
    expect(validateSchedule(s16({ splitK: 2 }), { ...featured, limits: { ...DEFAULT_LIMITS, maxComputeWorkgroupStorageSize: 49152 } })).toEqual([]);
    // SwiftShader offers neither subgroup matrices nor f16: a declared rejection, the features named.
    expect(validateSchedule(s16({ splitK: 2 }), { limits: { ...DEFAULT_LIMITS, maxComputeWorkgroupStorageSize: 49152 }, features: ['subgroups'] })).toEqual([
      "sgmatrix needs the 'chromium-experimental-subgroup-matrix' feature, which this adapter lacks",
      "sgmatrix needs the 'shader-f16' feature, which this adapter lacks",
    ]);
  });

  it('K group kg multiplies K steps kb … kb + tileK/splitK of every staged tile; every thread stages', () => {
    const c = MUL_MAT.makeCase([128, 64, 128], 'contiguous', { type0: 1, type1: 1 });
    const k = MUL_MAT.generate(s16({ tileK: 64, splitK: 2 }), c);
    expect(k.wgsl).toContain('@compute @workgroup_size(256)');
    expect(k.wgsl).toContain('let isActive = sg < 8u;\n  let kg = min(sg / 4u, 1u);\n  let sgl = sg % 4u;\n  let kb = kg * 32u;\n  let sgm = sgl % 2u;\n  let sgn = sgl / 2u;');
    expect(k.wgsl).toContain('for (var kk = 0u; kk < 32u; kk = kk + 16u) {');
    expect(k.wgsl).toContain('(&sA, min((sgm * 64u + 0u) * 72u + kb + kk, 8120u), false, 72u)');
    // 128 rows × 64 K of A = 1024 loads of 8 f16 over 256 threads: 4 each (8 at splitK 1 over 128).
    expect(k.wgsl.match(/let ag\d = /g)).toHaveLength(4);
    // Written out: the group's steps at kb + constant.
    const unrolled = MUL_MAT.generate(s16({ tileK: 64, splitK: 2, kSteps: 'unrolled' }), c).wgsl;
    expect(unrolled).toContain('* 72u + kb + 16u, 8120u)');
    expect(unrolled).not.toContain('kb + 32u');
    expect(`${k.label}\n${k.wgsl}`).toMatchSnapshot();
  });

  it('the reduction: every output of the tile is stored once, the sum of the same element of every K group\'s matrix (a CPU model of the WGSL)', () => {
    const cases: Record<string, number | string>[] = [
      { splitK: 2 },
      { splitK: 2, tileK: 64, staging: 'double' },
      { splitK: 4, tileK: 64 },
      { subgroupsN: 4, splitK: 2 },
      { matricesN: 4, splitK: 2, staging: 'single' },
      { config: '16x8x16', subgroupsM: 4, subgroupsN: 1, matricesM: 2, matricesN: 4, splitK: 2 },
    ];
    for (const knobs of cases) {
      const s = s16(knobs);
      const [cm, cn] = s.config.split('x').map(Number);
      const { BM, BN, threads } = sgmatrixTile(s);
      const nsg = s.subgroupsM * s.subgroupsN;
      const sk = s.splitK!;
      const M = BM * 2;
      const wgsl = MUL_MAT.generate(s, MUL_MAT.makeCase([M, BN, 2 * s.tileK], 'contiguous', { type0: 1, type1: 1 })).wgsl;
      const floats = Number(wgsl.match(/var<workgroup> sRed: array<f32, (\d+)>;/)![1]);
      expect(floats).toBe(sgmatrixScratch(s).floats);
      const lines = wgsl.split('\n').map((l) => l.trim());
      const tail = lines.slice(lines.findIndex((l) => l.startsWith('subgroupMatrixStore(&sRed')) - 1, lines.lastIndexOf('}'));
      const big = (e: string, env: Record<string, bigint>) => Function(...Object.keys(env), `return ${e.replace(/(\d+)u/g, '$1n')};`)(...Object.values(env)) as bigint;
      // Workgroup (1, 0): m0 = BM, n0 = 0; based (dst's offset) as the kernel has it.
      const based = BigInt(big(wgsl.match(/let based = (.+);/)![1], {}));
      const top = { m0: BigInt(BM), n0: 0n, based };
      const sRed: (string | undefined)[] = Array(floats);
      const dst = new Map<number, string[]>();
      const phases: string[] = [];
      let i = 0;
      while (i < tail.length) {
        const l = tail[i];
        if (l === 'workgroupBarrier();') {
          phases.push('barrier');
          i++;
        } else if (l === 'if (isActive) {') {
          // Each subgroup of each K group stores this round's matrices: element (m, n) at offset + n·cm + m.
          phases.push('store');
          for (i++; tail[i] !== '}'; i++) {
            const [, off, bound, acc, stride] = tail[i].match(/^subgroupMatrixStore\(&sRed, min\((.+), (\d+)u\), acc(\d+_\d+), true, (\d+)u\);$/)!;
            expect(Number(stride)).toBe(cm);
            for (let kg = 0; kg < sk; kg++)
              for (let sgl = 0; sgl < nsg; sgl++) {
                const o = Number(big(off, { kg: BigInt(kg), sgl: BigInt(sgl) }));
                expect(o).toBeLessThanOrEqual(Number(bound)); // the clamp changes nothing
                expect(Number(bound)).toBe(floats - cm * cn);
                for (let n = 0; n < cn; n++) for (let m = 0; m < cm; m++) sRed[o + n * cm + m] = `${kg}:${sgl % s.subgroupsM},${Math.floor(sgl / s.subgroupsM)}:${acc}:${m},${n}`;
              }
          }
          i++;
        } else {
          // A sum block: `{` or `if (v < V) {`, lets, four dst stores; run for every thread.
          phases.push('sum');
          const guard = l.match(/^if \((.+)\) \{$/)?.[1];
          expect(guard !== undefined || l === "{", l).toBe(true);
          const end = tail.indexOf('}', i);
          for (let lid = 0; lid < threads; lid++) {
            const env: Record<string, bigint> = { ...top, lid: BigInt(lid) };
            if (guard && !Function(...Object.keys(env), `return ${guard.replace(/(\d+)u/g, '$1n')};`)(...Object.values(env))) continue;
            for (const b of tail.slice(i + 1, end)) {
              let m: RegExpMatchArray | null;
              if ((m = b.match(/^let (\w+) = (.+);$/))) env[m[1]] = big(m[2], env);
              else if ((m = b.match(/^dst\[(.+)\] = (.+);$/))) {
                const at = Number(big(m[1], env));
                expect(dst.has(at), `output ${at} stored twice`).toBe(false);
                dst.set(at, m[2].split(' + sRed').map((r) => sRed[Number(big(r.replace(/^sRed/, '').replace(/^\[|\]$/g, ''), env))]!));
              } else throw new Error(`the model does not know: ${b}`);
            }
          }
          i = end + 1;
        }
      }
      // Rounds: stores, barrier, sums; a barrier between a round's sums and the next round's stores.
      const rounds = sgmatrixScratch(s).rounds;
      expect(phases.join(' ').replace(/( sum)+/g, ' sum')).toBe(Array(rounds).fill('store barrier sum').join(' barrier '));
      // Every output of the tile once: the sum over K groups of element (m, n) of matrix (i, j) of subgroup (sgm, sgn).
      expect(dst.size).toBe(BM * BN);
      for (let mt = 0; mt < BM; mt++)
        for (let nt = 0; nt < BN; nt++) {
          const [sgm, sgn] = [Math.floor(mt / (s.matricesM * cm)), Math.floor(nt / (s.matricesN * cn))];
          const [ii, jj] = [Math.floor((mt % (s.matricesM * cm)) / cm), Math.floor((nt % (s.matricesN * cn)) / cn)];
          const want = Array.from({ length: sk }, (_, g) => `${g}:${sgm},${sgn}:${ii}_${jj}:${mt % cm},${nt % cn}`);
          expect(dst.get(Number(based) + nt * M + BM + mt), `${JSON.stringify(knobs)} (${mt}, ${nt})`).toEqual(want);
        }
    }
  });
});
