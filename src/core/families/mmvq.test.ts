import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../adapter';
import { MUL_MAT } from '../ops/mul-mat';
import { schedulesFor } from '../ops/registry';
import { blockDecodeWgsl } from '../quant/block-wgsl';
import { weightFormat } from '../quant/weights';
import { parseSchedule, validateSchedule, type Schedule } from '../schedule/schedule';
import { DOT4_WGSL_FEATURE, MMVQ, mmvqWorkgroupBytes, type MmvqSchedule } from './mmvq';
import { scheduleKey } from './types';

const mmvq = (knobs: Record<string, number | string> = {}): Schedule => parseSchedule({ family: 'mmvq', workgroupSize: 64, rowsPerWorkgroup: 4, reduction: 'subgroup', ...knobs });
const dot4 = { limits: DEFAULT_LIMITS, features: ['subgroups'], wgslFeatures: [DOT4_WGSL_FEATURE] };
const quant = (name: string, dims: number[], type1 = 0) => MUL_MAT.makeCase(dims, 'contiguous', { type0: weightFormat(name).id, type1 });

describe('mmvq family (integer-dot GEMV over q8_1 activations)', () => {
  it('reads schedules written before rowsPerThread and activations as one row per thread, prequantized', () => {
    expect(mmvq()).toMatchObject({ rowsPerThread: 1, activations: 'prequantized' });
    expect(validateSchedule(mmvq({ rowsPerThread: 2, activations: 'fused' }), dot4)).toEqual([]);
    expect(validateSchedule(mmvq({ rowsPerThread: 8 }), dot4)).toEqual(['rowsPerThread 8 must be a power of two ≤ rowsPerWorkgroup 4']);
    expect(validateSchedule(mmvq(), { ...dot4, wgslFeatures: [] })).toEqual([`mmvq needs WGSL's ${DOT4_WGSL_FEATURE} (dot4I8Packed), which this runtime does not offer`]);
    // One partial per thread, row and column (N ≤ 8) when a row group has several threads.
    expect(MMVQ.workgroupBytes(mmvq({ rowsPerThread: 2 }) as never)).toBe(64 * 2 * 8 * 4);
    expect(MMVQ.workgroupBytes(mmvq({ workgroupSize: 64, rowsPerWorkgroup: 64 }) as never)).toBe(0);
  });

  it('prequantized: a quantize pass into three vec4 per block, then the GEMV; fused: one pass over src1, the same q8_1_block', () => {
    const c = quant('q4_0', [37, 3, 96]);
    const pre = MUL_MAT.generate(mmvq(), c);
    expect(pre.prelude).toHaveLength(1);
    expect(pre.scratch).toEqual([{ name: 'xq', sizeBytes: 3 * 3 * 48 }]);
    expect(pre.prelude![0].wgsl).toContain('let x = q8_1_block((64u + (t / 3u) * 96u) / 4u + (t % 3u) * 8u);');
    expect(pre.wgsl).toContain('let x = ld_xq(3u + kb);');
    expect(pre.bindings.map((b) => b.role)).toEqual(['src0', 'scratch', 'dst']);
    const fused = MUL_MAT.generate(mmvq({ activations: 'fused', rowsPerThread: 2 }), c);
    expect(fused.prelude).toBeUndefined();
    expect(fused.scratch).toBeUndefined();
    expect(fused.inputRounding).toBe('q8_1');
    expect(fused.bindings.map((b) => b.role)).toEqual(['src0', 'src1', 'dst']);
    expect(fused.wgsl).toContain('let x = q8_1_block(xb2 + kb * 8u);');
    // src1 sits 64 elements into its buffer (the guard band). The rounding is one function in both kernels, character for character.
    const fnOf = (w: string) => w.slice(w.indexOf('fn q8_1_block'), w.indexOf('}', w.indexOf('return Xq(')));
    expect(fnOf(fused.wgsl)).toBe(fnOf(pre.prelude![0].wgsl));
    // Two rows per thread: both weight blocks loaded before either is used; 4 rows / 2 = 2 groups of 32 threads.
    expect(fused.wgsl).toMatch(/let w0 = wq_block_c8\(ab0 \+ kb\);\n\s+let w1 = wq_block_c8\(ab1 \+ kb\);/);
    expect(fused.wgsl).toContain('let g = lid / 32u;');
    expect(fused.dispatch).toEqual([10, 1, 1]);
    // Two blocks per step: four weight loads (2 rows × 2 blocks) before the first dot, then a one-block tail.
    const two = MUL_MAT.generate(mmvq({ rowsPerThread: 2, blocksPerThread: 2 }), c).wgsl;
    expect(two).toMatch(/for \(; kb \+ 32u < 3u; kb = kb \+ 64u\) \{\n\s+let w0_0 = wq_block_c8\(ab0 \+ kb\);\n\s+let w1_0 = wq_block_c8\(ab1 \+ kb\);\n\s+let w0_1 = wq_block_c8\(ab0 \+ kb \+ 32u\);\n\s+let w1_1 = wq_block_c8\(ab1 \+ kb \+ 32u\);/);
    expect(two).toContain('let x = ld_xq(6u + kb + 32u);');
    expect(two).toContain('for (; kb < 3u; kb = kb + 32u) {');
  });

  it("folds the format's bias into Σq of the activations (integers, once per block), the min into d·Σq", () => {
    const gen = (name: string) => MUL_MAT.generate(mmvq(), quant(name, [8, 1, 64])).wgsl;
    expect(gen('q4_0')).toContain('dot4I8Packed(w0.q[7], x.qb.w) - 8i * x.isum;');
    expect(gen('q5_0')).toContain('dot4I8Packed(w0.q[7], x.qb.w) - 16i * x.isum;');
    expect(gen('q8_0')).toContain('dot4I8Packed(w0.q[7], x.qb.w);');
    expect(gen('q4_1')).toContain('acc0_0 = acc0_0 + w0.d * x.d * f32(si0) + w0.m * x.s;');
    // wq_block_c8: q4_0's codes are the nibbles masked out of a word, no per-byte bias (wq_block_i8 keeps it).
    const q4 = blockDecodeWgsl('q4_0', 0);
    expect(q4.bias).toBe(8);
    const c8 = q4.wgsl.slice(q4.wgsl.indexOf('fn wq_block_c8'));
    expect(c8).toContain('b.q[0] = (r.qs[0] & 0x0f0f0f0fu);');
    expect(c8).toContain('b.q[4] = ((r.qs[0] >> 4u) & 0x0f0f0f0fu);');
    expect(c8).not.toContain('0x80808080u');
    expect(blockDecodeWgsl('q8_0', 0).bias).toBe(0);
    expect(MUL_MAT.fits(mmvq(), quant('q4_k', [8, 1, 256]))).toEqual(['mmvq takes weights whose codes are integers for dot4I8Packed (ggml q4_0, q4_1, q5_0, q5_1, q8_0, mxfp4; Track-1 E2M1, int4/int8, mxint4/mxint8), not this src0']);
  });

  it('E2M1 and Track-1 4-bit codes: activations packed in nibble order, two partial dots where a block has two scales (nvfp4)', () => {
    const nv = MUL_MAT.generate(mmvq(), quant('nvfp4', [8, 1, 64]));
    // Word 0 pairs with code word 0's even nibbles (quants 0, 2, 4, 6), word 1 with its odd ones.
    expect(nv.prelude![0].wgsl).toContain('return Xq(vec4<u32>(pack4xI8(vec4<i32>(q0.xz, q1.xz)), pack4xI8(vec4<i32>(q0.yw, q1.yw)), pack4xI8(vec4<i32>(q2.xz, q3.xz)), pack4xI8(vec4<i32>(q2.yw, q3.yw))),');
    expect(nv.wgsl).toContain('let sj0 = dot4I8Packed(w0.q[4], x.qb.x) + dot4I8Packed(w0.q[5], x.qb.y) + dot4I8Packed(w0.q[6], x.qb.z) + dot4I8Packed(w0.q[7], x.qb.w);');
    expect(nv.wgsl).toContain('acc0_0 = acc0_0 + x.d * (w0.d * f32(si0) + w0.d1 * f32(sj0));');
    // The fused kernel packs in the same order (one q8_1_block for both).
    expect(MUL_MAT.generate(mmvq({ activations: 'fused' }), quant('nvfp4', [8, 1, 64])).wgsl).toContain('pack4xI8(vec4<i32>(q6.yw, q7.yw))');
    // ggml's MXFP4 pairs its words in k order like q4_0; int4's bias through Σq.
    expect(MUL_MAT.generate(mmvq(), quant('mxfp4', [8, 1, 64])).prelude![0].wgsl).toContain('pack4xI8(q0), pack4xI8(q1)');
    expect(MUL_MAT.generate(mmvq(), quant('int4', [8, 1, 64])).wgsl).toContain('dot4I8Packed(w0.q[7], x.qb.w) - 8i * x.isum;');
  });

  it("shared: one pass, the workgroup quantizes all N·K/32 blocks into workgroup memory (pass 1's layout and q8_1_block), one barrier, then pass 2's loop", () => {
    const c = quant('q4_0', [37, 3, 96]);
    const pre = MUL_MAT.generate(mmvq({ rowsPerWorkgroup: 16, rowsPerThread: 2 }), c);
    const sh = MUL_MAT.generate(mmvq({ rowsPerWorkgroup: 16, rowsPerThread: 2, activations: 'shared' }), c);
    expect(sh.prelude).toBeUndefined();
    expect(sh.scratch).toBeUndefined();
    expect(sh.inputRounding).toBe('q8_1');
    expect(sh.bindings.map((b) => b.role)).toEqual(['src0', 'src1', 'dst']);
    expect(sh.dispatch).toEqual([3, 1, 1]);
    expect(sh.wgsl).toContain('mmvq shared (activations quantized into workgroup memory, one pass)');
    // 3 columns × 3 blocks × 3 vec4, then the 64·2·3 partials.
    expect(sh.wgsl).toContain('var<workgroup> xq: array<vec4<u32>, 27>;');
    expect(sh.wgsl).toContain('var<workgroup> part: array<f32, 384>;');
    expect(sh.wgsl).toMatch(/for \(var t = lid; t < 9u; t = t \+ 64u\) \{\n\s+let x = q8_1_block\(\(64u \+ \(t \/ 3u\) \* 96u\) \/ 4u \+ \(t % 3u\) \* 8u\);[^]*?\}\n\s+workgroupBarrier\(\);\n\s+let g = lid \/ 8u;/);
    // The rounding is pass 1's function, character for character; the GEMV loop (ld_xq onward) is pass 2's.
    const fnOf = (w: string) => w.slice(w.indexOf('fn q8_1_block'), w.indexOf('}', w.indexOf('return Xq(')));
    expect(fnOf(sh.wgsl)).toBe(fnOf(pre.prelude![0].wgsl));
    const loopOf = (w: string) => w.slice(w.indexOf('fn ld_xq')).replace(/^.*\n/, '');
    expect(loopOf(sh.wgsl).slice(loopOf(sh.wgsl).indexOf('let g = '))).toBe(loopOf(pre.wgsl).slice(loopOf(pre.wgsl).indexOf('let g = ')));
    // nvfp4: the activations packed in nibble order in workgroup memory too.
    expect(MUL_MAT.generate(mmvq({ activations: 'shared' }), quant('nvfp4', [8, 1, 64])).wgsl).toContain('pack4xI8(vec4<i32>(q6.yw, q7.yw))');
  });

  it("shared: its workgroup memory is N·K/32·48 B + partials, refused with the numbers where the device's limit is smaller; rowsPerWorkgroup up to 64", () => {
    const sh = (knobs: Record<string, number | string> = {}) => mmvq({ workgroupSize: 256, activations: 'shared', ...knobs });
    expect(validateSchedule(sh({ rowsPerWorkgroup: 64 }), dot4)).toEqual([]);
    expect(validateSchedule(sh({ rowsPerWorkgroup: 32, rowsPerThread: 2 }), dot4)).toEqual([]);
    expect(() => mmvq({ activations: 'global' })).toThrow('\'activations\' must be one of "prequantized", "fused", "shared", got "global"');
    // 24 KiB of q8_1 blocks at K = 16384, N = 1 (512 blocks × 48 B), plus 256 partials (4 threads a row: T > 1).
    expect(mmvqWorkgroupBytes(sh() as MmvqSchedule, { N: 1, K: 16384 })).toBe(24576 + 1024);
    expect(mmvqWorkgroupBytes(sh({ rowsPerWorkgroup: 256 }) as MmvqSchedule, { N: 1, K: 16384 })).toBe(24576); // one thread a row: no partials
    expect(mmvqWorkgroupBytes(mmvq({ workgroupSize: 256 }) as MmvqSchedule, { N: 1, K: 16384 })).toBe(1024); // prequantized: the partials only
    // The schedule alone declares its partials (N ≤ 8); the case's blocks are fits()'s.
    expect(MMVQ.workgroupBytes(sh() as never)).toBe(256 * 8 * 4);
    const h200 = { ...DEFAULT_LIMITS, maxComputeWorkgroupStorageSize: 49152 };
    const big = quant('q4_0', [64, 1, 16384]);
    expect(MUL_MAT.fits(sh(), big, h200)).toEqual([]);
    expect(MUL_MAT.fits(sh(), big, DEFAULT_LIMITS)).toEqual(["activations 'shared' needs 25600 B of workgroup memory (1·512 q8_1 blocks × 48 B + 1024 B of partials), over maxComputeWorkgroupStorageSize 16384"]);
    expect(MUL_MAT.fits(sh(), quant('q8_0', [64, 2, 16384]), h200)).toEqual(["activations 'shared' needs 51200 B of workgroup memory (2·512 q8_1 blocks × 48 B + 2048 B of partials), over maxComputeWorkgroupStorageSize 49152"]);
    // prequantized needs no workgroup memory for the activations; without limits the check is the device's.
    expect(MUL_MAT.fits(mmvq({ workgroupSize: 256 }), quant('q8_0', [64, 8, 16384]), DEFAULT_LIMITS)).toEqual([]);
    expect(MUL_MAT.fits(sh(), quant('q8_0', [64, 2, 16384]))).toEqual([]);
    // A rule that does not fit this device is passed over for the registry's (schedulesFor hands its limits to fits).
    const rule = { when: [], schedule: sh() };
    expect(schedulesFor('MUL_MAT', big, { ...dot4, limits: h200 }, [rule as never])).toMatchObject({ activations: 'shared' });
    expect(schedulesFor('MUL_MAT', big, dot4, [rule as never])).toMatchObject({ family: 'mmvq', activations: 'prequantized' });
    // Swept on request only: the default sweep keeps prequantized and rows per workgroup up to 16.
    expect(MMVQ.space.activations.values).toEqual(['prequantized', 'fused', 'shared']);
    expect(MMVQ.space.activations.sweep).toEqual(['prequantized']);
    expect(MMVQ.space.rowsPerWorkgroup.sweep).toEqual([1, 2, 4, 8, 16]);
  });

  it("shared's quantize four threads a block and its weights preloaded; blocks in pairs (q4_0, q8_0): knobs checked, the WGSL they emit", () => {
    const sh = (knobs: Record<string, number | string> = {}) => mmvq({ workgroupSize: 256, rowsPerWorkgroup: 16, rowsPerThread: 2, activations: 'shared', ...knobs });
    expect(mmvq()).toMatchObject({ quantizeThreads: 1, preload: 'none', blocksPerLoad: 1 });
    expect(validateSchedule(sh({ quantizeThreads: 4, preload: 'weights', blocksPerLoad: 2 }), dot4)).toEqual([]);
    expect(validateSchedule(mmvq({ quantizeThreads: 4, preload: 'weights' }), dot4)).toEqual(["quantizeThreads 4 is 'shared' activations' knob (got 'prequantized')", "preload 'weights' is 'shared' activations' knob (got 'prequantized')"]);
    expect(validateSchedule(sh({ quantizeThreads: 4 }), { ...dot4, features: [] })).toContain("quantizeThreads 4 needs the 'subgroups' feature (max and Σq by shuffles), which this adapter lacks");
    expect(validateSchedule(sh({ quantizeThreads: 2, blocksPerLoad: 3 }), dot4)).toEqual(['blocksPerLoad 3 must be 1, 2, 4 or 8', 'quantizeThreads 2 must be 1 or 4']);
    expect(MUL_MAT.fits(mmvq({ blocksPerLoad: 2 }), quant('q4_1', [8, 1, 64]))).toEqual(['blocksPerLoad 2 loads q4_0 or q8_0 blocks in pairs (wq_pair_c8), not this src0']);
    expect(MUL_MAT.fits(mmvq({ blocksPerLoad: 2 }), quant('q8_0', [8, 1, 96]))).toEqual(['blocksPerLoad 2 needs an even number of blocks a row, got K/32 = 3']);
    const c = quant('q4_0', [64, 1, 4096]);
    const w = MUL_MAT.generate(sh({ quantizeThreads: 4, preload: 'weights', blocksPerThread: 2 }), c).wgsl;
    // 128 blocks × 4 lanes over 256 threads: two trips, no guard; the first step's four loads before the quantize.
    expect(w).toContain('for (var b4 = 0u; b4 < 512u; b4 = b4 + 256u) {\n    let t4 = b4 + lid;');
    expect(w).toContain('xq[o + p / 2u][c] = pack4xI8(q0);');
    expect(w.indexOf('let p1_1 = wq_block_c8(ab1 + kb + 32u);')).toBeLessThan(w.indexOf('for (var b4'));
    expect(w).toContain('kb = kb + 64u;\n  for (; kb + 32u < 128u; kb = kb + 64u) {');
    expect(w).toContain('enable subgroups;');
    const pairs = MUL_MAT.generate(mmvq({ blocksPerLoad: 2 }), quant('q8_0', [64, 1, 4096])).wgsl;
    expect(pairs).toContain('let w0 = wq_pair_c8(ab0 + 2u * (kb));');
    expect(pairs).toContain('let x = ld_xq(2u * (kb) + 1u);');
    expect(pairs).toContain('for (var kb = j; kb < 64u; kb = kb + 16u) {');
    expect(blockDecodeWgsl('q8_0', 0).pairC8).toContain('fn wq_pair_c8(blk: u32) -> WqPairI8 {');
    expect(blockDecodeWgsl('q4_1', 0).pairC8).toBeUndefined();
  });

  it("codeLoads 'vec4': src0 as vec4<u32>, a Track-1 block's codes one 16-byte load (8-bit: two), scales component picks; 'words' is today's WGSL byte for byte; ggml blocks refused", () => {
    expect(mmvq()).toMatchObject({ codeLoads: 'words' });
    expect(() => mmvq({ codeLoads: 'vec8' })).toThrow(`'codeLoads' must be one of "words", "vec4", got "vec8"`);
    const knobless = (name: string, dims: number[]) => MUL_MAT.generate(parseSchedule({ family: 'mmvq', workgroupSize: 64, rowsPerWorkgroup: 4, reduction: 'subgroup' }), quant(name, dims)).wgsl;
    for (const name of ['nvfp4', 'mxfp4_t1', 'int4', 'int8', 'q4_0']) {
      const dims = [13, 3, 96];
      const words = MUL_MAT.generate(mmvq({ codeLoads: 'words' }), quant(name, dims)).wgsl;
      expect(words, name).toBe(knobless(name, dims));
      expect(words, name).toContain('var<storage, read> src0: array<u32>;');
      expect(words, name).toContain('return bitcast<u32>(src0[64u + w]);');
    }
    // src0's words start 64 past the buffer's start (the 256-byte guard): vec4 16.
    for (const [name, loads] of [
      ['nvfp4', ['let V0 = src0[16u + blk];']],
      ['mxfp4_t1', ['let V0 = src0[16u + blk];']],
      ['int4', ['let V0 = src0[16u + blk];']],
      ['int8', ['let V0 = src0[16u + blk * 2u];', 'let V1 = src0[16u + blk * 2u + 1u];', 'let W7 = V1.w;']],
    ] as const) {
      const c = quant(name, [13, 3, 96]);
      expect(MUL_MAT.fits(mmvq({ codeLoads: 'vec4' }), c), name).toEqual([]);
      const w = MUL_MAT.generate(mmvq({ codeLoads: 'vec4', rowsPerThread: 2, blocksPerThread: 2 }), c).wgsl;
      expect(w, name).toContain('var<storage, read> src0: array<vec4<u32>>;');
      expect(w, name).toContain('mmvq pass 2: 4 row(s) per workgroup, 2 per thread, 32 thread(s) per row group over blocks, 2 block(s) per step, codes as vec4 loads');
      expect(w, name).toContain('fn wq_w(w: u32) -> u32 {\n  let i = 64u + w;\n  return src0[i >> 2u][i & 3u];\n}');
      const c8 = w.slice(w.indexOf('fn wq_block_c8'), w.indexOf('return b;', w.indexOf('fn wq_block_c8')));
      for (const l of [...loads, 'let W0 = V0.x;', 'let W3 = V0.w;']) expect(c8, name).toContain(l);
      expect(c8, name).not.toContain('wq_w(w0');
      // The rest of the kernel is the 'words' kernel's.
      const words = MUL_MAT.generate(mmvq({ codeLoads: 'words', rowsPerThread: 2, blocksPerThread: 2 }), c).wgsl;
      const main = (x: string) => x.slice(x.indexOf('@compute'));
      expect(main(w), name).toBe(main(words));
    }
    // nvfp4's scale pair: one word through wq_w (a component pick), past the code stream.
    expect(MUL_MAT.generate(mmvq({ codeLoads: 'vec4' }), quant('nvfp4', [13, 1, 96])).wgsl).toContain('let sw = wq_w(156u + (si >> 2u)) >> ((si & 3u) * 8u);');
    for (const [name, bytes] of [['mxfp4', 17], ['q4_1', 20]] as const) {
      expect(MUL_MAT.fits(mmvq({ codeLoads: 'vec4' }), quant(name, [8, 1, 64])), name).toEqual([`codeLoads 'vec4' loads a block's codes as one 16-byte vec4: ggml ${name} blocks are ${bytes} B (codes at byte ${name === 'q4_1' ? 4 : 1} of each): a block's codes do not start on a 16-byte boundary`]);
    }
    // q4_0 and q8_0: only eight blocks at a time (144 / 272 B, whole vec4s).
    for (const [name, bytes] of [['q4_0', 18], ['q8_0', 34]] as const) {
      expect(MUL_MAT.fits(mmvq({ codeLoads: 'vec4' }), quant(name, [8, 1, 256])), name).toEqual([`codeLoads 'vec4' takes these blocks eight at a time (blocksPerLoad 8: whole vec4s), got blocksPerLoad 1: ggml ${name} blocks are ${bytes} B (codes at byte 2 of each): a block's codes do not start on a 16-byte boundary`]);
      expect(MUL_MAT.fits(mmvq({ codeLoads: 'vec4', blocksPerLoad: 8 }), quant(name, [8, 1, 256])), name).toEqual([]);
    }
    expect(blockDecodeWgsl('nvfp4', 65, 'src0', { rows: 4, cols: 64 }).c8Vec4Why).toBe("nvfp4's code stream starts at word 65 of src0, not on a 16-byte boundary");
    expect(blockDecodeWgsl('nvfp4', 64, 'src0', { rows: 4, cols: 64 }).c8Vec4).toContain('let V0 = src0[16u + blk];');
  });

  it("blocksPerLoad 8 with codeLoads 'vec4': eight q4_0 (q8_0) blocks from 9 (17) whole vec4s, four of wq_pair_c8's pairs; refused elsewhere", () => {
    expect(validateSchedule(mmvq({ codeLoads: 'vec4', blocksPerLoad: 8 }), dot4)).toEqual([]);
    expect(MUL_MAT.fits(mmvq({ blocksPerLoad: 8 }), quant('q4_0', [8, 1, 256]))).toEqual(["blocksPerLoad 8 reads its eight blocks as whole vec4s: it needs codeLoads 'vec4'"]);
    expect(MUL_MAT.fits(mmvq({ codeLoads: 'vec4', blocksPerLoad: 8 }), quant('q4_0', [8, 1, 320]))).toEqual(['blocksPerLoad 8 needs the blocks a row in eights, got K/32 = 10']);
    expect(MUL_MAT.fits(mmvq({ codeLoads: 'vec4', blocksPerLoad: 8 }), quant('nvfp4', [8, 1, 256]))).toEqual(['blocksPerLoad 8 loads eight q4_0 or q8_0 blocks as whole vec4s (wq_oct_c8), not this src0']);
    expect(MUL_MAT.fits(mmvq({ codeLoads: 'vec4', blocksPerLoad: 8 }), quant('q4_1', [8, 1, 256]))).toHaveLength(2);
    const w = MUL_MAT.generate(mmvq({ codeLoads: 'vec4', blocksPerLoad: 8, rowsPerThread: 2 }), quant('q4_0', [64, 3, 1024])).wgsl;
    const has = (x: string, lines: readonly string[]) => lines.forEach((l) => expect(x).toContain(l));
    has(w, ['var<storage, read> src0: array<vec4<u32>>;', 'let w0 = wq_oct_c8(ab0 + 8u * (kb));', 'for (var kb = j; kb < 4u; kb = kb + 32u) {', 'let x = ld_xq(8u * (kb) + 7u);', 'dot4I8Packed(w1.b7.q[7], x.qb.w) - 8i * x.isum;']);
    const oct = w.slice(w.indexOf('fn wq_oct_c8'), w.indexOf('return o;'));
    // Pair 3 from words 27…35: block 6's scale W27's low half, its codes funnelled by 16 bits; block 7's W31's high half, codes W32…35 whole.
    has(oct, ['let v = 16u + (blk >> 3u) * 9u;', 'let V8 = src0[v + 8u];', 'let W35 = V8.w;', 'o.b6.d = unpack2x16float(W27).x;', 'let a3s0 = (W27 >> 16u) | (W28 << 16u);', 'o.b7.d = unpack2x16float(W31 >> 16u).x;', 'let b3s3 = W35;']);
    expect(oct).toMatch(/o\.b7\.q\[0\] = [^;]*b3s0[^;]*;/);
    expect(oct).not.toContain('wq_w(');
    const q8 = MUL_MAT.generate(mmvq({ codeLoads: 'vec4', blocksPerLoad: 8 }), quant('q8_0', [64, 1, 256])).wgsl;
    expect(q8).toContain('let v = 16u + (blk >> 3u) * 17u;');
    expect(q8).toContain('o.b7.d = unpack2x16float(W59 >> 16u).x;');
    expect(q8).toContain('let b3s7 = W67;');
    // 'words' (the default) keeps q4_0's WGSL without wq_oct_c8.
    expect(MUL_MAT.generate(mmvq(), quant('q4_0', [64, 1, 256])).wgsl).not.toContain('wq_oct_c8');
  });

  it('blocksPerLoad 4: four ggml mxfp4 blocks from 17 aligned words (wq_quad_c8, constant shifts); refused by name elsewhere and where a row is not whole fours', () => {
    expect(validateSchedule(mmvq({ blocksPerLoad: 4 }), dot4)).toEqual([]);
    expect(MUL_MAT.fits(mmvq({ blocksPerLoad: 4 }), quant('mxfp4', [8, 3, 256]))).toEqual([]);
    // With the table, the four-block load's code words go through it too (no bit decode left behind).
    const quadTable = MUL_MAT.generate(mmvq({ blocksPerLoad: 4, e2m1Decode: 'table' }), quant('mxfp4', [8, 1, 256])).wgsl;
    expect(quadTable).toContain('let p00 = wq_e2m1x2_lut((W0 >> 8u) | (W1 << 24u));');
    expect(quadTable).not.toMatch(/[^n] wq_e2m1x2_i8\(/);
    expect(MUL_MAT.fits(mmvq({ blocksPerLoad: 4 }), quant('mxfp4', [8, 1, 192]))).toEqual(['blocksPerLoad 4 needs the blocks a row in fours, got K/32 = 6']);
    for (const name of ['q4_0', 'q8_0', 'nvfp4', 'mxfp4_t1']) expect(MUL_MAT.fits(mmvq({ blocksPerLoad: 4 }), quant(name, [8, 1, 256])), name).toEqual(['blocksPerLoad 4 loads four ggml mxfp4 blocks as 17 aligned words (wq_quad_c8), not this src0']);
    expect(MUL_MAT.fits(mmvq({ blocksPerLoad: 4, codeLoads: 'vec4' }), quant('mxfp4', [8, 1, 256]))).toHaveLength(1);
    const w = MUL_MAT.generate(mmvq({ blocksPerLoad: 4, rowsPerThread: 2, blocksPerThread: 2 }), quant('mxfp4', [64, 3, 2048])).wgsl;
    const has = (x: string, lines: readonly string[]) => lines.forEach((l) => expect(x, l).toContain(l));
    // 16 fours a row over 32 threads a row group: the two-step loop never runs whole, the tail does.
    has(w, ['fn wq_quad_c8(blk: u32) -> WqQuadI8 {', 'let w0_1 = wq_quad_c8(ab0 + 4u * (kb + 32u));', 'let w1 = wq_quad_c8(ab1 + 4u * (kb));', 'for (; kb < 16u; kb = kb + 32u) {', 'let x = ld_xq(128u + 4u * (kb) + 3u);', 'dot4I8Packed(w1.b3.q[7], x.qb.w);', 'acc1_2 = acc1_2 + w1.b3.d * x.d * f32(si1);']);
    // Single blocks (the default) do not carry it.
    expect(MUL_MAT.generate(mmvq(), quant('mxfp4', [64, 1, 256])).wgsl).not.toContain('wq_quad_c8');
  });

  it("dotFloat 'mantissa': each dot chain starts from 1.5·2^23's bits and becomes f32 by a bitcast less 1.5·2^23, no conversion; 'convert' (the default) is today's WGSL", () => {
    // The default stays out of the schedule (and its key): keys saved before the knob are unchanged.
    expect(mmvq()).not.toHaveProperty('dotFloat');
    expect(mmvq({ dotFloat: 'convert' })).toEqual(mmvq());
    expect(() => mmvq({ dotFloat: 'i2f' })).toThrow(/'dotFloat' must be one of "convert", "mantissa"/);
    const nv = MUL_MAT.generate(mmvq({ dotFloat: 'mantissa' }), quant('nvfp4', [8, 1, 256])).wgsl;
    expect(nv).toContain('let si0 = 0x4b400000i + dot4I8Packed(w0.q[0], x.qa.x) + ');
    expect(nv).toContain('let sj0 = 0x4b400000i + dot4I8Packed(w0.q[4], x.qb.x) + ');
    expect(nv).toContain('acc0_0 = acc0_0 + x.d * (w0.d * (bitcast<f32>(si0) - 12582912.0) + w0.d1 * (bitcast<f32>(sj0) - 12582912.0));');
    const q4 = MUL_MAT.generate(mmvq({ dotFloat: 'mantissa' }), quant('q4_1', [8, 1, 256])).wgsl;
    expect(q4).toContain('acc0_0 = acc0_0 + w0.d * x.d * (bitcast<f32>(si0) - 12582912.0) + w0.m * x.s;');
    expect(q4).not.toMatch(/f32\(si/);
    const q40 = MUL_MAT.generate(mmvq({ dotFloat: 'mantissa' }), quant('q4_0', [8, 1, 256])).wgsl;
    expect(q40).toMatch(/let si0 = 0x4b400000i \+ .* - 8i \* x\.isum;/);
    expect(MUL_MAT.generate(mmvq({ dotFloat: 'convert' }), quant('nvfp4', [8, 1, 256])).wgsl).toBe(MUL_MAT.generate(parseSchedule({ family: 'mmvq', workgroupSize: 64, rowsPerWorkgroup: 4, reduction: 'subgroup' }), quant('nvfp4', [8, 1, 256])).wgsl);
  });

  it("e2m1Decode 'table': E2M1 codes looked up in a 32 KiB per-lane workgroup table, the activations packed in its order; 'bits' is today's WGSL; refused by name elsewhere", () => {
    // 'bits' is left out of the schedule (omitDefault): keys made before the knob hold.
    expect(mmvq()).not.toHaveProperty('e2m1Decode');
    expect(mmvq({ e2m1Decode: 'bits' })).toEqual(mmvq());
    expect(scheduleKey(mmvq({ e2m1Decode: 'table' }))).toContain('"e2m1Decode":"table"');
    expect(() => mmvq({ e2m1Decode: 'lut' })).toThrow(`'e2m1Decode' must be one of "bits", "table", got "lut"`);
    expect(MMVQ.space.e2m1Decode.sweep).toEqual(['bits']);
    // 'bits' spelled or not: the same kernel.
    const knobless = (name: string, dims: number[]) => MUL_MAT.generate(parseSchedule({ family: 'mmvq', workgroupSize: 64, rowsPerWorkgroup: 4, reduction: 'subgroup' }), quant(name, dims));
    for (const name of ['nvfp4', 'mxfp4', 'q4_0']) expect(MUL_MAT.generate(mmvq({ e2m1Decode: 'bits' }), quant(name, [13, 3, 96])).wgsl, name).toBe(knobless(name, [13, 3, 96]).wgsl);
    // The schedule declares the table beside its partials (256 threads, one row a workgroup: 256·8·4 B).
    const table = (knobs: Record<string, number | string> = {}) => mmvq({ workgroupSize: 256, rowsPerWorkgroup: 1, e2m1Decode: 'table', ...knobs });
    expect(MMVQ.workgroupBytes(table() as never)).toBe(32768 + 8192);
    expect(mmvqWorkgroupBytes(table() as MmvqSchedule, { N: 1, K: 16384 })).toBe(32768 + 1024);
    expect(validateSchedule(table(), { ...dot4, limits: { ...DEFAULT_LIMITS, maxComputeWorkgroupStorageSize: 49152 } })).toEqual([]);
    expect(validateSchedule(table({ rowsPerThread: 1 }), dot4)).toEqual(['workgroup memory 40960 B exceeds maxComputeWorkgroupStorageSize 16384']);
    const h200 = { ...DEFAULT_LIMITS, maxComputeWorkgroupStorageSize: 49152 };
    const swiftshader = { ...DEFAULT_LIMITS, maxComputeWorkgroupStorageSize: 32768 };
    expect(MUL_MAT.fits(table(), quant('nvfp4', [64, 1, 16384]), h200)).toEqual([]);
    expect(MUL_MAT.fits(table(), quant('nvfp4', [64, 1, 256]), swiftshader)).toEqual(["e2m1Decode 'table' needs 33792 B of workgroup memory (32768 B of E2M1 table + 1024 B of partials), over maxComputeWorkgroupStorageSize 32768"]);
    // One thread a row: no partials, the table alone fits 32 KiB.
    expect(MUL_MAT.fits(mmvq({ workgroupSize: 64, rowsPerWorkgroup: 64, e2m1Decode: 'table' }), quant('nvfp4', [64, 3, 256]), swiftshader)).toEqual([]);
    // 'shared' beside it: 6 KiB of q8_1 blocks at K = 4096 fit the H200's 48 KiB, 24 KiB at K = 16384 do not.
    expect(MUL_MAT.fits(table({ activations: 'shared' }), quant('mxfp4_t1', [64, 1, 4096]), h200)).toEqual([]);
    expect(MUL_MAT.fits(table({ activations: 'shared' }), quant('mxfp4_t1', [64, 1, 16384]), h200)).toEqual(["activations 'shared' with e2m1Decode 'table' needs 58368 B of workgroup memory (1·512 q8_1 blocks × 48 B + 32768 B of E2M1 table + 1024 B of partials), over maxComputeWorkgroupStorageSize 49152"]);
    for (const name of ['q4_0', 'int4', 'mxint8']) expect(MUL_MAT.fits(table(), quant(name, [8, 1, 64])), name).toEqual(["e2m1Decode 'table' looks E2M1 codes up (nvfp4, mxfp4_t1, fp4, fp4_f16, ggml mxfp4), not this src0's codes"]);
    for (const name of ['nvfp4', 'mxfp4_t1', 'fp4', 'fp4_f16', 'mxfp4']) expect(MUL_MAT.fits(table(), quant(name, [8, 1, 64])), name).toEqual([]);
    const sh4 = { workgroupSize: 64, rowsPerWorkgroup: 64, activations: 'shared', quantizeThreads: 4, e2m1Decode: 'table' };
    expect(MUL_MAT.fits(mmvq(sh4), quant('mxfp4', [8, 1, 64]))).toEqual(["e2m1Decode 'table' with ggml mxfp4 packs each activation word from both halves of a q8_1 block: 'shared' with quantizeThreads 4 splits a block over lanes (use quantizeThreads 1)"]);
    expect(MUL_MAT.fits(mmvq(sh4), quant('nvfp4', [8, 1, 64]))).toEqual([]);
    // Track-1: word t of the q8_1 block pairs with quants 4t + {0, 2, 1, 3} (X01 = [lo0, lo1, hi0, hi1] of a code word's bytes).
    const nv = MUL_MAT.generate(table(), quant('nvfp4', [8, 1, 64]));
    expect(nv.prelude![0].wgsl).toContain('return Xq(vec4<u32>(pack4xI8(q0.xzyw), pack4xI8(q1.xzyw), pack4xI8(q2.xzyw), pack4xI8(q3.xzyw)), vec4<u32>(pack4xI8(q4.xzyw),');
    // The table is filled first, then the loop; the two scales a block (nvfp4) as before.
    expect(nv.wgsl).toContain('mmvq pass 2: 1 row(s) per workgroup, 1 per thread, 256 thread(s) per row group over blocks, 1 block(s) per step, E2M1 codes through a workgroup table, dot4I8Packed');
    expect(nv.wgsl).toMatch(/fn main\(.*\) \{\n\s+wq_lane = lid & 31u;\n\s+for \(var b = lid; b < 256u; b = b \+ 256u\) \{[^]*?workgroupBarrier\(\);\n\s+let g = 0u;/);
    expect(nv.wgsl).toContain('let p1 = wq_e2m1x2_lut(W1);');
    expect(nv.wgsl).toContain('acc0_0 = acc0_0 + x.d * (w0.d * f32(si0) + w0.d1 * f32(sj0));');
    // ggml mxfp4: word t < 4 pairs with quants 4t + {0, 1, 16, 17}, word t + 4 with 4t + {2, 3, 18, 19}.
    const mx = MUL_MAT.generate(table(), quant('mxfp4', [8, 1, 64]));
    expect(mx.prelude![0].wgsl).toContain('return Xq(vec4<u32>(pack4xI8(vec4<i32>(q0.xy, q4.xy)), pack4xI8(vec4<i32>(q1.xy, q5.xy)), pack4xI8(vec4<i32>(q2.xy, q6.xy)), pack4xI8(vec4<i32>(q3.xy, q7.xy))), vec4<u32>(pack4xI8(vec4<i32>(q0.zw, q4.zw)),');
    expect(mx.wgsl).toContain('let p2 = wq_e2m1x2_lut(r.qs[2]);');
    // 'shared' with the four-lane quantize (Track-1), fused, and codeLoads 'vec4' take the table too.
    const sh = MUL_MAT.generate(mmvq(sh4), quant('nvfp4', [8, 1, 64])).wgsl;
    expect(sh).toContain('xq[o + p / 2u][c] = pack4xI8(q0.xzyw);');
    expect(sh.indexOf('wq_lane = lid & 31u;')).toBeLessThan(sh.indexOf('for (var b4'));
    expect(MUL_MAT.generate(mmvq({ ...sh4, activations: 'fused', quantizeThreads: 1 }), quant('mxfp4_t1', [8, 1, 64])).wgsl).toContain('pack4xI8(q7.xzyw)');
    expect(MUL_MAT.generate(table({ codeLoads: 'vec4' }), quant('mxfp4_t1', [8, 1, 64])).wgsl).toContain('let p0 = wq_e2m1x2_lut(W0);');
  });

  it("is the registry's pick for integer block weights at N ≤ 8 where WGSL offers dot4I8Packed; gemv elsewhere", () => {
    const noSub = { ...dot4, features: [] };
    const plain = { limits: DEFAULT_LIMITS, features: ['subgroups'] };
    for (const name of ['q4_0', 'q4_1', 'q5_0', 'q5_1', 'q8_0']) {
      for (const N of [1, 3, 8]) expect(schedulesFor('MUL_MAT', quant(name, [64, N, 128]), dot4), `${name} N=${N}`).toMatchObject({ family: 'mmvq', reduction: 'subgroup' });
      expect(schedulesFor('MUL_MAT', quant(name, [64, 2, 128], 1), noSub)).toMatchObject({ family: 'mmvq', reduction: 'shared' });
      expect(schedulesFor('MUL_MAT', quant(name, [64, 2, 128]), plain)).toMatchObject({ family: 'gemv' });
    }
    // E2M1 and Track-1 integer codes too (nvfp4 at N = 3, f16 activations, without subgroups).
    for (const name of ['mxfp4', 'nvfp4', 'mxfp4_t1', 'int4', 'int8']) expect(schedulesFor('MUL_MAT', quant(name, [64, 1, 128]), dot4), name).toMatchObject({ family: 'mmvq' });
    expect(schedulesFor('MUL_MAT', quant('nvfp4', [64, 3, 128], 1), noSub)).toMatchObject({ family: 'mmvq', reduction: 'shared' });
    // Codes that are not integers by bit operations, or past the decode ground: the rules after it.
    expect(schedulesFor('MUL_MAT', quant('mxfp8_e4m3', [64, 1, 128]), dot4)).toMatchObject({ family: 'gemv' });
    expect(schedulesFor('MUL_MAT', quant('int5', [64, 1, 128]), dot4)).toMatchObject({ family: 'gemv' });
    expect(schedulesFor('MUL_MAT', quant('q4_k', [64, 1, 256]), dot4)).toMatchObject({ family: 'gemv' });
    expect(schedulesFor('MUL_MAT', quant('q4_0', [64, 9, 128]), dot4)).toMatchObject({ family: 'matmul' });
    // f32 and f16 weights keep gemv.
    expect(schedulesFor('MUL_MAT', MUL_MAT.makeCase([64, 1, 128]), dot4)).toMatchObject({ family: 'gemv' });
  });

  it("the H200's rules (tune-mmvq4): q4_0 and q8_0 at N = 1 — 'shared' with the four-thread quantize up to 4096², two rows and two blocks a thread for q4_0 at 16384²", () => {
    const noSub = { ...dot4, features: [] };
    const shared = { family: 'mmvq', workgroupSize: 256, rowsPerWorkgroup: 16, rowsPerThread: 2, blocksPerThread: 4, activations: 'shared', quantizeThreads: 4, preload: 'none' };
    const pick = { family: 'mmvq', workgroupSize: 256, rowsPerWorkgroup: 4, rowsPerThread: 1, blocksPerThread: 1, activations: 'prequantized' };
    for (const name of ['q4_0', 'q8_0']) {
      for (const dims of [[4096, 1, 4096], [64, 1, 128], [4096, 1, 2048]]) expect(schedulesFor('MUL_MAT', quant(name, dims), dot4), `${name} ${dims}`).toMatchObject(shared);
      // Within the 16 KiB default at K = 4096: 6 KiB of q8_1 blocks and 2 KiB of partials.
      expect(mmvqWorkgroupBytes(schedulesFor('MUL_MAT', quant(name, [4096, 1, 4096]), dot4) as MmvqSchedule, { N: 1, K: 4096 })).toBe(8192);
      for (const dims of [[4096, 2, 4096], [8192, 1, 4096], [4096, 1, 8192]]) expect(schedulesFor('MUL_MAT', quant(name, dims), dot4), `${name} ${dims}`).toMatchObject(pick);
      // Without subgroups: the shared-tree rule.
      expect(schedulesFor('MUL_MAT', quant(name, [4096, 1, 4096]), noSub)).toMatchObject({ ...pick, reduction: 'shared' });
    }
    for (const name of ['q4_1', 'q5_0', 'mxfp4', 'nvfp4']) expect(schedulesFor('MUL_MAT', quant(name, [4096, 1, 4096]), dot4), name).toMatchObject(pick);
    // 16384²: two rows and two blocks a thread for q4_0 and the E2M1 formats (fifth session: nvfp4 68.4 against 72.6 µs); fp4 and int4 unmeasured, the rule below.
    for (const name of ['q4_0', 'nvfp4', 'mxfp4_t1', 'mxfp4']) expect(schedulesFor('MUL_MAT', quant(name, [16384, 1, 16384]), dot4), name).toMatchObject({ ...pick, rowsPerWorkgroup: 8, rowsPerThread: 2, blocksPerThread: 2 });
    for (const name of ['fp4', 'int4']) expect(schedulesFor('MUL_MAT', quant(name, [16384, 1, 16384]), dot4), name).toMatchObject(pick);
    expect(schedulesFor('MUL_MAT', quant('q8_0', [16384, 1, 16384]), dot4)).toMatchObject(pick);
  });
});
