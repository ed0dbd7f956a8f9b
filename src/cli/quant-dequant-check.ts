// The generated DEQUANT kernel on a real WebGPU device (SwiftShader here) against the codec's CPU
// decode, bit for bit, for all 30 Track-1 formats. Run as its own process (Dawn does not start
// inside a vitest fork): quant-dequant.test.ts bundles it and runs it under gpuEnv.
import { dequantize, quantize, type QuantizedMatrix } from '../core/quant/codec';
import { QUANT_FORMATS } from '../core/quant/formats';
import { DEQUANT_WORKGROUP, dequantKernelWgsl } from '../core/quant/wgsl';

let gpuInstance: GPU | undefined;

async function openDevice(): Promise<GPUDevice> {
  const dawn = (await import('webgpu')) as unknown as { create(flags: string[]): GPU; globals: Record<string, unknown> };
  for (const [k, v] of Object.entries(dawn.globals)) if (!(k in globalThis)) (globalThis as Record<string, unknown>)[k] = v;
  // Hold the GPU object: Dawn aborts the process if it is collected while its device lives.
  gpuInstance = dawn.create([]);
  const adapter = await gpuInstance.requestAdapter();
  if (!adapter) throw new Error('no WebGPU adapter (run under scripts/with-gpu-env.mjs)');
  return adapter.requestDevice();
}

function storage(device: GPUDevice, data: Uint32Array): GPUBuffer {
  const buf = device.createBuffer({ size: Math.max(16, data.byteLength + 4), usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
  // One spare word: a straddling read of the last code may touch word w + 1.
  device.queue.writeBuffer(buf, 0, data);
  return buf;
}

async function runDequant(device: GPUDevice, q: QuantizedMatrix): Promise<Float32Array> {
  const n = q.rows * q.cols;
  const module = device.createShaderModule({ code: dequantKernelWgsl(q.format) });
  const info = await module.getCompilationInfo();
  const errors = info.messages.filter((m) => m.type === 'error');
  if (errors.length) throw new Error(`${q.format}: ${errors.map((m) => `${m.lineNum}: ${m.message}`).join('\n')}`);
  const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
  const dst = device.createBuffer({ size: n * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
  const read = device.createBuffer({ size: n * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const groups = Math.ceil(n / DEQUANT_WORKGROUP);
  const params = device.createBuffer({ size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  const p = new DataView(new ArrayBuffer(16));
  p.setUint32(0, q.rows, true);
  p.setUint32(4, q.cols, true);
  p.setFloat32(8, q.globalScale, true);
  p.setUint32(12, groups, true);
  device.queue.writeBuffer(params, 0, p.buffer);
  const bind = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [storage(device, q.codes), storage(device, q.scales), dst, params].map((buffer, binding) => ({ binding, resource: { buffer } })),
  });
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bind);
  pass.dispatchWorkgroups(groups);
  pass.end();
  enc.copyBufferToBuffer(dst, 0, read, 0, n * 4);
  device.queue.submit([enc.finish()]);
  await read.mapAsync(GPUMapMode.READ);
  return new Float32Array(read.getMappedRange().slice(0));
}

function weights(n: number, seed: number): Float32Array {
  const out = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    // Blocks at scales 2^-12…2^12 so f16 and E8M0 scales range widely.
    out[i] = (s / 2 ** 32 - 0.5) * 2 ** (((i >> 4) % 25) - 12);
  }
  return out;
}

/** One line per format: 'ok' or the first mismatching element. */
export async function checkAllFormats(): Promise<string[]> {
  const device = await openDevice();
  const lines: string[] = [];
  for (const f of QUANT_FORMATS) {
    const rows = 3;
    const cols = f.raggedTail ? f.blockSize * 3 + 5 : f.blockSize * 3;
    const q = quantize(f.name, weights(rows * cols, f.blockSize * 7 + f.name.length), rows, cols);
    const want = new Uint32Array(dequantize(q).buffer);
    const got = new Uint32Array((await runDequant(device, q)).buffer);
    const bad = want.findIndex((w, i) => w !== got[i]);
    lines.push(bad < 0 ? `${f.name} ok ${rows}x${cols}` : `${f.name} MISMATCH [${bad}]: gpu ${got[bad].toString(16)} cpu ${want[bad].toString(16)}`);
  }
  device.destroy();
  return lines;
}

checkAllFormats().then(
  (lines) => {
    // exitCode, not exit(): exiting under Dawn's live threads aborts the process.
    console.log(lines.join('\n'));
    process.exitCode = lines.every((l) => l.includes(' ok ')) ? 0 : 1;
  },
  (e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  },
);
