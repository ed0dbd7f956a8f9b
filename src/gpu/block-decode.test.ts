// The block-at-a-time decode (src/core/quant/block-wgsl.ts) on SwiftShader through Dawn (run with
// scripts/with-gpu-env.mjs): for every weight format, a kernel writes fround(q·d) and m of each chunk
// (wq_block) or each 8-weight part (wq_part),
// and fround(q·d) + m must equal the codec's decode of every weight bit for bit — ggml's block
// types, the K-quants and all Track-1 formats, with a ragged last block where the format allows one
// (block 64 at K = 96) and the packed matrix past a word offset.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNodeEngine } from '../cli/runtime-node';
import { BLOCK_PARTS, blockDecodeWgsl, hasBlockDecode } from '../core/quant/block-wgsl';
import { benchmarkWeights, decodeWeights, WEIGHT_FORMATS, type WeightFormat } from '../core/quant/weights';

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
  const code = [
    '@group(0) @binding(0) var<storage, read> src0: array<u32>;',
    '@group(0) @binding(1) var<storage, read_write> out: array<f32>;',
    dec.wgsl,
    '@compute @workgroup_size(64)',
    'fn main(@builtin(global_invocation_id) g: vec3<u32>) {',
    `  if (g.x >= ${calls}u) { return; }`,
    form === 'block' ? '  let b = wq_block(g.x);' : `  let b = wq_part(g.x / ${BLOCK_PARTS}u, g.x % ${BLOCK_PARTS}u);`,
    `  for (var i = 0u; i < ${form === 'block' ? 8 : 2}u; i = i + 1u) {`,
    '    let p = b.q[i] * b.d;',
    '    for (var t = 0u; t < 4u; t = t + 1u) {',
    `      let at = (g.x * ${form === 'block' ? 32 : 8}u + i * 4u + t) * 2u;`,
    '      out[at] = p[t];',
    '      out[at + 1u] = b.m;',
    '    }',
    '  }',
    '}',
  ].join('\n');
  const module = device.createShaderModule({ code });
  const pipeline = await device.createComputePipelineAsync({ layout: 'auto', compute: { module, entryPoint: 'main' } });
  const padded = new Uint32Array(OFFSET_WORDS + words.length);
  padded.fill(0xdeadbeef, 0, OFFSET_WORDS);
  padded.set(words, OFFSET_WORDS);
  const src = device.createBuffer({ size: padded.byteLength, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(src, 0, padded);
  const outBytes = rows * cols * 2 * 4;
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
});
