// The block-at-a-time decode (src/core/quant/block-wgsl.ts) on SwiftShader through Dawn (run with
// scripts/with-gpu-env.mjs): for every weight format, a kernel writes fround(q·d) and m of each chunk
// (wq_block) or each 8-weight part (wq_part),
// and fround(q·d) + m must equal the codec's decode of every weight bit for bit — ggml's block
// types, the K-quants and all Track-1 formats, with a ragged last block where the format allows one
// (block 64 at K = 96) and the packed matrix past a word offset.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNodeEngine } from '../cli/runtime-node';
import { BLOCK_PARTS, blockDecodeWgsl, hasBlockDecode, hasIntegerBlockDecode } from '../core/quant/block-wgsl';
import { ELEMENTS } from '../core/quant/element';
import { benchmarkWeights, codeWords, decodeWeights, WEIGHT_FORMATS, type WeightFormat } from '../core/quant/weights';

let lab: Awaited<ReturnType<typeof openNodeEngine>>;
let device: GPUDevice;

beforeAll(async () => {
  lab = await openNodeEngine();
  const adapter = await lab.gpu.requestAdapter();
  device = await adapter!.requestDevice();
}, 120_000);
afterAll(async () => {
  device?.destroy();
  await lab?.close();
});

/** Words before the matrix: the decode must read past them (kernels pass the guard band's offset). */
const OFFSET_WORDS = 5;

/** Per weight: [fround(q·d), m] as the GPU computed them, one wq_block call per chunk or one wq_part call per 8 weights. */
async function gpuDecode(f: WeightFormat, words: Uint32Array, rows: number, cols: number, form: 'block' | 'part'): Promise<Float32Array> {
  const calls = (rows * cols) / (form === 'block' ? 32 : 8);
  const dec = blockDecodeWgsl(f.id, OFFSET_WORDS, 'src0', { rows, cols });
  const code = decodeKernel(dec.wgsl, calls, [
    form === 'block' ? '  let b = wq_block(g.x);' : `  let b = wq_part(g.x / ${BLOCK_PARTS}u, g.x % ${BLOCK_PARTS}u);`,
    `  for (var i = 0u; i < ${form === 'block' ? 8 : 2}u; i = i + 1u) {`,
    '    let p = b.q[i] * b.d;',
    '    for (var t = 0u; t < 4u; t = t + 1u) {',
    `      let at = (g.x * ${form === 'block' ? 32 : 8}u + i * 4u + t) * 2u;`,
    '      out[at] = p[t];',
    '      out[at + 1u] = b.m;',
    '    }',
    '  }',
  ]);
  return runDecodeKernel(code, words, calls, rows * cols * 2);
}

/**
 * Per weight: wq_block_c8's i8 (less the format's bias) × its scale (d, or d1 for weights 16…31 of a
 * block with two), placed where dot4Order says the byte belongs.
 */
async function gpuDecodeC8(f: WeightFormat, words: Uint32Array, rows: number, cols: number): Promise<Float32Array> {
  const calls = (rows * cols) / 32;
  const dec = blockDecodeWgsl(f.id, OFFSET_WORDS, 'src0', { rows, cols });
  // Element of word i, byte t: 4i + t ('k'), or 8⌊i/2⌋ + (i & 1) + 2t ('nib').
  const at = dec.dot4Order === 'k' ? 'i * 4u + t' : '(i >> 1u) * 8u + (i & 1u) + 2u * t';
  const code = decodeKernel(dec.wgsl, calls, [
    '  let b = wq_block_c8(g.x);',
    '  for (var i = 0u; i < 8u; i = i + 1u) {',
    `    let d = ${dec.halves ? 'select(b.d, b.d1, i >= 4u)' : 'b.d'};`,
    '    for (var t = 0u; t < 4u; t = t + 1u) {',
    `      let q = (bitcast<i32>(b.q[i] << (24u - 8u * t)) >> 24u) - ${dec.bias}i;`,
    `      out[g.x * 32u + ${at}] = f32(q) * d;`,
    '    }',
    '  }',
  ]);
  return runDecodeKernel(code, words, calls, rows * cols);
}

/** wq_quad_c8 (four blocks a call, blocksPerLoad 4's decode) per weight as gpuDecodeC8 writes wq_block_c8's ('k' order, no halves). */
async function gpuDecodeQuad(f: WeightFormat, words: Uint32Array, rows: number, cols: number): Promise<Float32Array> {
  const calls = (rows * cols) / 128;
  const dec = blockDecodeWgsl(f.id, OFFSET_WORDS, 'src0', { rows, cols });
  const code = decodeKernel(dec.wgsl + dec.quadC8!, calls, [
    '  let o = wq_quad_c8(g.x * 4u);',
    ...[0, 1, 2, 3].flatMap((h) => [
      '  for (var i = 0u; i < 8u; i = i + 1u) {',
      '    for (var t = 0u; t < 4u; t = t + 1u) {',
      `      out[g.x * 128u + ${h * 32}u + i * 4u + t] = f32(bitcast<i32>(o.b${h}.q[i] << (24u - 8u * t)) >> 24u) * o.b${h}.d;`,
      '    }',
      '  }',
    ]),
  ]);
  return runDecodeKernel(code, words, calls, rows * cols);
}

/** A kernel over `calls` threads with the decode's functions, src0 (the words) and out (f32). */
function decodeKernel(decode: string, calls: number, body: readonly string[]): string {
  const head = ['@group(0) @binding(0) var<storage, read> src0: array<u32>;', '@group(0) @binding(1) var<storage, read_write> out: array<f32>;', decode];
  return [...head, '@compute @workgroup_size(64)', 'fn main(@builtin(global_invocation_id) g: vec3<u32>) {', `  if (g.x >= ${calls}u) { return; }`, ...body, '}'].join('\n');
}

async function runDecodeKernel(code: string, words: Uint32Array, calls: number, outFloats: number): Promise<Float32Array> {
  const module = device.createShaderModule({ code });
  const pipeline = await device.createComputePipelineAsync({ layout: 'auto', compute: { module, entryPoint: 'main' } });
  const padded = new Uint32Array(OFFSET_WORDS + words.length);
  padded.fill(0xdeadbeef, 0, OFFSET_WORDS);
  padded.set(words, OFFSET_WORDS);
  const src = device.createBuffer({ size: padded.byteLength, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(src, 0, padded);
  const outBytes = outFloats * 4;
  const out = device.createBuffer({ size: outBytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
  const read = device.createBuffer({ size: outBytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const bind = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: src } }, { binding: 1, resource: { buffer: out } }] });
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bind);
  pass.dispatchWorkgroups(Math.ceil(calls / 64));
  pass.end();
  enc.copyBufferToBuffer(out, 0, read, 0, outBytes);
  device.queue.submit([enc.finish()]);
  await read.mapAsync(GPUMapMode.READ);
  const r = new Float32Array(read.getMappedRange().slice(0));
  read.unmap();
  for (const b of [src, out, read]) b.destroy();
  return r;
}

/** The 4-bit formats' codes overwritten with every code 0…15 in turn (E2M1's −0 included), scales kept (ggml mxfp4's: extremes). */
function everyCode(f: WeightFormat, words: Uint32Array, rows: number, cols: number): Uint32Array {
  const out = words.slice();
  const bytes = new Uint8Array(out.buffer);
  // Byte i: low nibble ⌊i/4⌋, high ⌊i/4⌋ + i + 5 (mod 16): each nibble of a word takes all 16 codes over 64 bytes, beside varied neighbours.
  const pairs = (i: number) => ((i >> 2) & 15) | ((((i >> 2) + i + 5) & 15) << 4);
  if (f.kind === 'track1' && /fp4|int4/.test(f.name)) for (let i = 0; i < codeWords(f, rows, cols) * 4; i++) bytes[i] = pairs(i);
  if (f.name === 'mxfp4') {
    // …and its E8M0 scales towards the ends of the range (12 · 2^127 is +Inf, as in the codec). Not 0 or 1: their
    // halves 2^-128, 2^-127 are f32 subnormals, and the products here flush to 0 on SwiftShader (docs/quant.md).
    const e8m0 = [2, 3, 4, 127, 128, 200, 253, 254, 255];
    for (let b = 0; b < (rows * cols) / 32; b++) {
      bytes[b * 17] = e8m0[b % e8m0.length];
      for (let j = 0; j < 16; j++) bytes[b * 17 + 1 + j] = pairs(b * 16 + j);
    }
  }
  return out;
}

/** K per format: a multiple of 32 (and of 256 for the K-quants); 96 leaves block-64 formats a ragged last block. */
const colsOf = (f: WeightFormat) => (f.kind === 'ggml-k' ? 512 : 96);

describe('block-at-a-time decode equals the codec bit for bit (SwiftShader)', () => {
  it('every weight format at K % 32 == 0: ggml blocks, K-quants, Track-1 (straddling codes, 16-weight blocks, ragged block 64)', async () => {
    const wrong: string[] = [];
    const rows = 3;
    for (const f of WEIGHT_FORMATS) {
      const cols = colsOf(f);
      expect(hasBlockDecode(f.id, cols), f.name).toBe(true);
      const { words } = benchmarkWeights(f, rows, cols, 0x5eed + f.id);
      const ref = decodeWeights(f, words, rows, cols);
      for (const form of ['block', 'part'] as const) {
        const got = await gpuDecode(f, words, rows, cols, form);
        let bad = 0;
        let first = '';
        for (let i = 0; i < ref.length; i++) {
          const qd = got[2 * i];
          const m = got[2 * i + 1];
          const w = m === 0 ? qd : Math.fround(qd + m);
          // === keeps −0 equal to 0 (a negative zero code sums the same).
          if (!(w === ref[i])) {
            bad++;
            first ||= `weight ${i}: ${w} (q·d ${qd}, m ${m}) vs codec ${ref[i]}`;
          }
        }
        if (bad) wrong.push(`${f.name} ${form}: ${bad}/${ref.length} differ, first ${first}`);
      }
    }
    expect(wrong).toEqual([]);
  }, 600_000);

  it("wq_block_c8 (mmvq's integer codes): i8 × scale is the codec's weight for every format that has it — every 4-bit code, E2M1 as its ×2 integers with the scale halved, int4 through its bias, nvfp4's two scales", async () => {
    const wrong: string[] = [];
    const rows = 3;
    const c8 = WEIGHT_FORMATS.filter((f) => hasIntegerBlockDecode(f.id));
    expect(c8.map((f) => f.name)).toEqual(['q4_0', 'q4_1', 'q5_0', 'q5_1', 'q8_0', 'mxfp4', 'nvfp4', 'mxfp4_t1', 'fp4', 'int4', 'int8', 'mxint4', 'mxint8', 'fp4_f16', 'int4_f16', 'int8_f16']);
    for (const f of c8) {
      const cols = colsOf(f);
      const words = everyCode(f, benchmarkWeights(f, rows, cols, 0x5eed + f.id).words, rows, cols);
      const ref = decodeWeights(f, words, rows, cols);
      const dec = blockDecodeWgsl(f.id, 0, 'src0', { rows, cols });
      const got = await gpuDecodeC8(f, words, rows, cols);
      let bad = 0;
      let first = '';
      for (let i = 0; i < ref.length; i++) {
        // q4_1/q5_1 carry a min (the kernel adds m·Σx): compare q·d only where there is none. nvfp4
        // multiplies its global into the halved scale (one rounding moved): within 2 ulp of the codec's.
        if (dec.hasMin) continue;
        const ok = dec.halves ? Math.abs(got[i] - ref[i]) <= Math.abs(ref[i]) * 2 ** -22 : got[i] === ref[i];
        if (!ok) {
          bad++;
          first ||= `weight ${i}: ${got[i]} vs codec ${ref[i]}`;
        }
      }
      if (bad) wrong.push(`${f.name}: ${bad}/${ref.length} differ, first ${first}`);
    }
    expect(wrong).toEqual([]);
  }, 600_000);

  it("wq_quad_c8 (four ggml mxfp4 blocks from 17 words, constant shifts: mmvq's blocksPerLoad 4) is the codec's weight for every code and scale, past a word offset", async () => {
    const f = WEIGHT_FORMATS.find((w) => w.name === 'mxfp4')!;
    const [rows, cols] = [3, 256];
    const words = everyCode(f, benchmarkWeights(f, rows, cols, 0x5eed).words, rows, cols);
    const ref = decodeWeights(f, words, rows, cols);
    const got = await gpuDecodeQuad(f, words, rows, cols);
    const bad = [...ref.keys()].filter((i) => got[i] !== ref[i]);
    expect(bad.slice(0, 3).map((i) => `weight ${i}: ${got[i]} vs codec ${ref[i]}`)).toEqual([]);
  }, 120_000);

  it("wq_e4m3x2_f16 (nvfp4's scale pair through unpack2x16float): every pair of E4M3 codes × 2^8 is the codec's value, subnormals included (0x7f / 0xff: ±480)", async () => {
    const f = WEIGHT_FORMATS.find((w) => w.name === 'nvfp4')!;
    const dec = blockDecodeWgsl(f.id, OFFSET_WORDS, 'src0', { rows: 2, cols: 64 });
    // Word i: codes i & 255 (low) and i >> 8 (high), garbage above (the decode ignores bits 16…31).
    const words = Uint32Array.from({ length: 65536 }, (_, i) => (((i * 0x9e37) & 0xffff) << 16) | i);
    const code = decodeKernel(dec.wgsl, 65536, ['  let v = wq_e4m3x2_f16(wq_w(g.x)) * 256.0;', '  out[g.x * 2u] = v.x;', '  out[g.x * 2u + 1u] = v.y;']);
    const got = await runDecodeKernel(code, words, 65536, 65536 * 2);
    const want = (c: number) => ((c & 0x7f) === 0x7f ? (c & 0x80 ? -480 : 480) : ELEMENTS.e4m3.decode(c));
    const bad: string[] = [];
    for (let i = 0; i < 65536 && bad.length < 5; i++) {
      if (!Object.is(got[2 * i], want(i & 255)) || !Object.is(got[2 * i + 1], want(i >> 8))) bad.push(`${(i & 255).toString(16)},${(i >> 8).toString(16)}: ${got[2 * i]},${got[2 * i + 1]}`);
    }
    expect(bad).toEqual([]);
  }, 120_000);
});
