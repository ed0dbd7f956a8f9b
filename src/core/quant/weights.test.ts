import { describe, expect, it } from 'vitest';
import { ggmlDequantize, ggmlQuantize } from './ggml';
import { quantize } from './codec';
import { dequantize } from './codec';
import { benchmarkWeights, decodeWeightRows, decodeWeights, dequantizeFast, encodeWeights, poolRows, quantError, realisticWeights, shapeProblem, weightBits, weightFormat, WEIGHT_FORMATS, weightStoredBytes, weightWords } from './weights';
import { weightDecodeWgsl } from './weights-wgsl';

describe('weight formats', () => {
  it('lists every ggml block type and Track-1 format once, ggml ids kept', () => {
    expect(WEIGHT_FORMATS).toHaveLength(9 + 30);
    expect(new Set(WEIGHT_FORMATS.map((f) => f.name)).size).toBe(39);
    expect(new Set(WEIGHT_FORMATS.map((f) => f.id)).size).toBe(39);
    expect(weightFormat('q4_0').id).toBe(2);
    expect(weightFormat(8).name).toBe('q8_0');
    expect(weightFormat('Q6_K').id).toBe(14);
    expect(weightFormat('mxfp4').id).toBe(39);
    expect(weightFormat('mxfp4_t1').codecName).toBe('mxfp4');
    expect(() => weightFormat('q9_0')).toThrow(/unknown weight format 'q9_0' \(known: q4_0, q4_1, .* int8_f16\)/);
  });

  it('bits per weight and stored bytes follow the block layouts', () => {
    expect(weightBits(weightFormat('q4_0'))).toBe(4.5);
    expect(weightBits(weightFormat('q8_0'))).toBe(8.5);
    expect(weightBits(weightFormat('q4_k'))).toBe(4.5);
    expect(weightBits(weightFormat('q6_k'))).toBe(6.5625);
    expect(weightBits(weightFormat('mxfp4'))).toBe(4.25);
    expect(weightBits(weightFormat('nvfp4'))).toBe(4.5);
    expect(weightStoredBytes(weightFormat('q4_0'), 3, 64)).toBe(3 * 2 * 18);
    // 3 rows of 2 Q4_0 blocks: 108 bytes, 27 words.
    expect(weightWords(weightFormat('q4_0'), 3, 64)).toBe(27);
    // int3: 3·70 codes of 3 bits = 630 bits → 20 words; 3 rows × 2 blocks fp32 scales → 6; + global.
    expect(weightWords(weightFormat('int3'), 3, 70)).toBe(20 + 6 + 1);
  });

  it('ragged rows: allowed for group-scaled Track-1, refused by name elsewhere', () => {
    expect(shapeProblem(weightFormat('int3'), 70)).toBeNull();
    expect(shapeProblem(weightFormat('q4_0'), 70)).toBe('q4_0: K = 70 is not a multiple of its block size 32, and q4_0 forbids a ragged tail block');
    expect(shapeProblem(weightFormat('nvfp4'), 24)).toMatch(/block size 16/);
    expect(() => encodeWeights(weightFormat('q4_k'), new Float32Array(256), 1, 256)).toThrow(/q4_k: the lab reads q4_k but has no encoder/);
  });

  it('ggml rows are GGUF bytes back to back: decode equals the reference per row', () => {
    const w = realisticWeights(2, 64, 5);
    const f = weightFormat('q5_1');
    const words = encodeWeights(f, w, 2, 64);
    const row1 = ggmlQuantize('q5_1', w.subarray(64));
    expect(new Uint8Array(words.buffer).slice(48, 96)).toEqual(row1);
    expect(decodeWeights(f, words, 2, 64).subarray(64)).toEqual(ggmlDequantize('q5_1', row1, 64));
  });

  it('the realistic generator is heavy-tailed and seeded; errors shrink with bits', () => {
    const w = realisticWeights(64, 256, 1);
    expect(realisticWeights(64, 256, 1)).toEqual(w);
    let s2 = 0;
    let big = 0;
    for (const x of w) {
      s2 += x * x;
      if (Math.abs(x) > 0.1) big++;
    }
    expect(Math.sqrt(s2 / w.length)).toBeGreaterThan(0.018);
    expect(Math.sqrt(s2 / w.length)).toBeLessThan(0.03);
    expect(big).toBeGreaterThan(5); // 5σ outliers a Gaussian alone would almost never draw
    const err = (name: string) => {
      const f = weightFormat(name);
      const { words, source } = benchmarkWeights(f, 64, 256, 1);
      return quantError(source!, decodeWeights(f, words, 64, 256));
    };
    const q8 = err('q8_0');
    const q4 = err('q4_0');
    const i2 = err('int2');
    expect(q8.nmse).toBeLessThan(1e-4);
    expect(q4.nmse).toBeGreaterThan(q8.nmse * 50);
    expect(i2.nmse).toBeGreaterThan(q4.nmse);
    expect(q8.maxRelError).toBeLessThan(0.5);
  });

  it('K-quants without an encoder get random valid blocks that decode finite', () => {
    for (const name of ['q4_k', 'q5_k', 'q6_k']) {
      const f = weightFormat(name);
      const { words, source } = benchmarkWeights(f, 2, 512, 3);
      expect(source).toBeNull();
      const w = decodeWeights(f, words, 2, 512);
      expect(w.every(Number.isFinite)).toBe(true);
      expect(Math.max(...w.map(Math.abs))).toBeGreaterThan(0);
    }
  });

  it('WGSL decode: one wq() per format, reading src0 past the guard words', () => {
    const q4 = weightDecodeWgsl('q4_0', 3, 64, 64);
    expect(q4).toContain('fn wq(i: u32) -> f32');
    expect(q4).toContain('bitcast<u32>(src0[64u + w])');
    expect(q4).toContain('f32(i32(nib) - 8) * d');
    expect(weightDecodeWgsl('nvfp4', 2, 32, 0)).toContain('(e * s) * bitcast<f32>(wq_word(');
    for (const f of WEIGHT_FORMATS) expect(weightDecodeWgsl(f.id, 2, f.blockSize * 2, 0)).toMatch(/fn wq\(i: u32\) -> f32 \{/);
  });

  it('the table decode of large matrices equals the codec decode bit for bit (straddling, fp16, nvfp4, ragged)', () => {
    for (const name of ['int3', 'fp8_e5m2_f16', 'nvfp4', 'mxint5', 'int6']) {
      const q = quantize(name, realisticWeights(3, 70 - (name === 'nvfp4' || name === 'mxint5' ? 6 : 0), 9), 3, 70 - (name === 'nvfp4' || name === 'mxint5' ? 6 : 0));
      expect(new Uint32Array(dequantizeFast(q).buffer), name).toEqual(new Uint32Array(dequantize(q).buffer));
    }
  });

  it('a matrix over 4M weights repeats its first rows, encoded once, word for word', () => {
    const f = weightFormat('nvfp4');
    expect(poolRows(f, 1025, 4096)).toBe(1024);
    expect(poolRows(weightFormat('q4_0'), 100, 4096)).toBe(100);
    const { words, source } = benchmarkWeights(f, 1025, 4096, 2);
    expect(source).toHaveLength(1024 * 4096);
    // First differing word (−1: none); toEqual on millions of elements is too slow.
    const diff = (a: Uint32Array, b: Uint32Array) => (a.length !== b.length ? -2 : a.findIndex((x, i) => x !== b[i]));
    const w = new Uint32Array(decodeWeights(f, words, 1025, 4096).buffer);
    expect(diff(w.subarray(1024 * 4096), w.subarray(0, 4096))).toBe(-1);
    const direct = encodeWeights(f, source!, 1024, 4096);
    const codes = 1024 * 4096 / 8;
    expect(diff(words.subarray(0, codes), direct.subarray(0, codes))).toBe(-1);
    expect(diff(words.subarray(1025 * 4096 / 8, 1025 * 4096 / 8 + 1024 * 256 / 4), direct.subarray(codes, codes + 1024 * 256 / 4))).toBe(-1);
    expect(words[words.length - 1]).toBe(direct[direct.length - 1]);
  }, 120_000);

  it('row ranges decode exactly the rows of the whole matrix (ggml, K-quant, Track-1 straddling words and ragged)', () => {
    for (const [name, cols] of [['q5_1', 64], ['q4_k', 256], ['int3', 70], ['nvfp4', 48], ['fp8_e5m2_f16', 33]] as const) {
      const f = weightFormat(name);
      const { words } = benchmarkWeights(f, 5, cols, 4);
      const all = decodeWeights(f, words, 5, cols);
      expect(new Uint32Array(decodeWeightRows(f, words, 5, cols, 1, 4).buffer), name).toEqual(new Uint32Array(all.slice(cols, 4 * cols).buffer));
      expect(decodeWeightRows(f, words, 5, cols, 2, 2)).toHaveLength(0);
    }
    expect(() => decodeWeightRows(weightFormat('q8_0'), new Uint32Array(34 / 2), 2, 32, 1, 3)).toThrow(/q8_0: rows \[1, 3\) outside 0…2/);
  });

  it('the encoded pool is cached, but every call gets its own words (they may be transferred)', () => {
    const f = weightFormat('q4_0');
    const a = benchmarkWeights(f, 4, 64, 6);
    const b = benchmarkWeights(f, 4, 64, 6);
    expect(b.words).not.toBe(a.words);
    expect(b.words).toEqual(a.words);
    a.words.fill(0);
    expect(benchmarkWeights(f, 4, 64, 6).words).toEqual(b.words);
    expect(benchmarkWeights(f, 4, 64, 7).words).not.toEqual(b.words);
  });
});

