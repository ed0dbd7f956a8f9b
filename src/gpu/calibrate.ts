// Measured peaks per adapter: stream-copy bandwidth, f32 (and f16) FMA throughput, and the
// empty-dispatch floor. Each kernel's output is checked before its time is read.
import copyWgsl from '../../kernels/calibration/copy.wgsl?raw';
import emptyWgsl from '../../kernels/calibration/empty.wgsl?raw';
import fmaF16Wgsl from '../../kernels/calibration/fma_f16.wgsl?raw';
import fmaF32Wgsl from '../../kernels/calibration/fma_f32.wgsl?raw';
import { adapterFingerprint } from '../core/adapter';
import { LabError } from '../core/errors';
import { deviceOffsetElements } from '../core/hostdata';
import { grid2d, nativeKernel, packParams, type KernelSpec } from '../core/kernel';
import type { Calibration } from '../core/metrics/roofline';
import type { OpCase, OracleResult } from '../core/ops/types';
import { checkOutput } from '../core/stats/correctness';
import { contiguous, type TensorDesc } from '../core/tensor';
import type { ProgressFn } from '../core/progress';
import type { GpuContext } from './device';
import { measure } from './measure';
import { Session } from './session';

/** A synthetic case: calibration kernels reuse Level 1's sessions, guards and checks. */
function calibrationCase(name: string, srcs: TensorDesc[], dst: TensorDesc): OpCase {
  return { op: `calibration:${name}`, dims: [...dst.ne], layout: 'contiguous', label: name, srcs, dst, inplace: false, params: {} };
}

function exact(ref: Float64Array): OracleResult {
  return { ref, epsFloor: new Float64Array(ref.length), terms: 1 };
}

async function checkedSession(ctx: GpuContext, kernel: KernelSpec, c: OpCase, inputs: ArrayBuffer[], oracle: OracleResult): Promise<Session> {
  const session = await Session.prepare(ctx, kernel, c, inputs);
  session.upload();
  await session.dispatch();
  const report = checkOutput(c.dst, oracle, session.dstBefore(), await session.readback());
  if (!report.correct) {
    session.destroy();
    throw new LabError(`calibration kernel ${kernel.label} is wrong on this adapter: ${report.failures[0] ?? ''}`);
  }
  return session;
}

interface Sizes {
  copyBytes: number;
  fmaWorkgroups: number;
  fmaIters: number;
}

/** Big enough to saturate a datacenter GPU; small on a software adapter (a CPU). */
export function calibrationSizes(ctx: Pick<GpuContext, 'adapter'>): Sizes {
  const { limits, isFallbackAdapter } = ctx.adapter;
  if (isFallbackAdapter) return { copyBytes: 8 << 20, fmaWorkgroups: 32, fmaIters: 64 };
  const cap = Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize) - 4096;
  return { copyBytes: Math.max(16 << 20, Math.min(512 << 20, Math.floor(cap / 16) * 16)), fmaWorkgroups: 8192, fmaIters: 1024 };
}

/** Sizes with overrides (the Node CLI passes KERNEL_LAB_COPY_MB for bandwidth experiments). */
export function withCopyOverride(s: Sizes, copyMiB: number | undefined): Sizes {
  return copyMiB && copyMiB > 0 ? { ...s, copyBytes: copyMiB * 1024 * 1024 } : s;
}

export async function runCalibration(ctx: GpuContext, onProgress?: ProgressFn, copyMiB?: number): Promise<Calibration> {
  const sizes = withCopyOverride(calibrationSizes(ctx), copyMiB);
  const details: string[] = [];
  const step = (label: string, fraction: number) => onProgress?.({ label, fraction, etaMs: null });

  // Stream copy.
  step('stream copy', 0);
  const n = sizes.copyBytes / 4;
  const src = contiguous('f32', [n]);
  const copyCase = calibrationCase('copy', [src], contiguous('f32', [n]));
  const input = new Float32Array(n);
  for (let i = 0; i < n; i++) input[i] = (i % 9973) - 4986;
  const vec4s = n / 4;
  const perThread = 4;
  const threads = Math.ceil(vec4s / perThread);
  const copyKernel = nativeKernel('calibration/copy.wgsl', copyWgsl, ['src0', 'dst', 'params'], grid2d(Math.ceil(threads / 256)), packParams([deviceOffsetElements(src) / 4, vec4s, Math.ceil(threads / 256) * 256, perThread]));
  const copy = await checkedSession(ctx, copyKernel, copyCase, [input.buffer], exact(Float64Array.from(input)));
  let copyGBps: number;
  try {
    const t = await measure(ctx, copy, { minRuns: 20 });
    copyGBps = (2 * sizes.copyBytes) / t.medianNs;
    details.push(`copy: ${sizes.copyBytes} B read + written, median ${t.medianNs.toFixed(0)} ns over ${t.runs} runs (${t.method}, resolution ${t.resolutionNs} ns)`);
  } finally {
    copy.destroy();
  }

  // FMA throughput, f32 then f16.
  const fma = async (kind: 'f32' | 'f16'): Promise<number> => {
    const iters = kind === 'f16' ? Math.min(sizes.fmaIters, 256) : sizes.fmaIters;
    const fmaThreads = sizes.fmaWorkgroups * 256;
    const ab = contiguous('f32', [4]);
    const out = contiguous('f32', [fmaThreads]);
    const c = calibrationCase(`fma-${kind}`, [ab], out);
    const ref = new Float64Array(fmaThreads);
    // Every component starts at lid % 16 and gains 1 per FMA (a = b = 1): 32 components.
    for (let t = 0; t < fmaThreads; t++) ref[t] = 32 * ((t % 256) % 16 + iters);
    const kernel: KernelSpec = {
      ...nativeKernel(`calibration/fma_${kind}.wgsl`, kind === 'f32' ? fmaF32Wgsl : fmaF16Wgsl, ['src0', 'dst', 'params'], grid2d(sizes.fmaWorkgroups), packParams([deviceOffsetElements(out), iters, fmaThreads, 0])),
      features: kind === 'f16' ? ['shader-f16'] : [],
    };
    const session = await checkedSession(ctx, kernel, c, [new Float32Array([1, 1, 0, 0]).buffer], exact(ref));
    try {
      const t = await measure(ctx, session, { minRuns: 20 });
      const flops = fmaThreads * iters * 8 * 4 * 2;
      details.push(`fma ${kind}: ${fmaThreads} threads × ${iters} iterations × 8 vec4 FMAs, median ${t.medianNs.toFixed(0)} ns over ${t.runs} runs`);
      return flops / t.medianNs;
    } finally {
      session.destroy();
    }
  };
  step('f32 FMA loop', 0.35);
  const f32Gflops = await fma('f32');
  let f16Gflops: number | null = null;
  if (ctx.device.features.has('shader-f16')) {
    step('f16 FMA loop', 0.6);
    f16Gflops = await fma('f16');
  } else details.push("fma f16: skipped (no 'shader-f16' on this adapter)");

  // Empty dispatch.
  step('empty dispatch', 0.8);
  const dst = contiguous('f32', [4]);
  const emptyCase = calibrationCase('empty', [], dst);
  const empty = await Session.prepare(ctx, nativeKernel('calibration/empty.wgsl', emptyWgsl, ['dst'], [1, 1, 1]), emptyCase, []);
  let emptyDispatchNs: number;
  try {
    empty.upload();
    await empty.dispatch();
    const t = await measure(ctx, empty, { minRuns: 200 });
    emptyDispatchNs = t.medianNs;
    details.push(`empty dispatch: median ${t.medianNs.toFixed(0)} ns over ${t.runs} runs (${t.method}, resolution ${t.resolutionNs} ns)`);
  } finally {
    empty.destroy();
  }
  step('done', 1);
  return Object.freeze({
    kind: 'calibration',
    adapterFingerprint: adapterFingerprint(ctx.adapter),
    copyGBps,
    f32Gflops,
    f16Gflops,
    emptyDispatchNs,
    measuredAt: new Date().toISOString(),
    details: Object.freeze(details),
  });
}
