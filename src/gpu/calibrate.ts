// Measured peaks per adapter: stream-copy bandwidth, f32 (and f16) FMA throughput, and the
// empty-dispatch floor. Each kernel's output is checked before its time is read.
import copyWgsl from '../../kernels/calibration/copy.wgsl?raw';
import emptyWgsl from '../../kernels/calibration/empty.wgsl?raw';
import { adapterFingerprint } from '../core/adapter';
import { DeviceLostError, LabError } from '../core/errors';
import { DOT4_CHAINS, DOT4_UNROLL, dot4Expected, dot4Ops, dot4Wgsl, FMA_VARIANTS, FMA_WORKGROUP_SIZE, fmaExpected, fmaFlops, fmaVariantName, fmaWgsl, type FmaType } from '../core/calibration/fma-wgsl';
import { MMA_CHAINS, MMA_CONFIGS, MMA_SUBGROUPS, mmaDims, mmaExpected, mmaFlops, mmaOperands, mmaPlan, mmaWgsl } from '../core/calibration/mma-wgsl';
import { deviceOffsetElements, f32ToF16Bits } from '../core/hostdata';
import { grid2d, nativeKernel, packParams, type KernelSpec } from '../core/kernel';
import type { Calibration } from '../core/metrics/roofline';
import type { OpCase, OracleResult } from '../core/ops/types';
import { checkOutput } from '../core/stats/correctness';
import { median, relativeSpread } from '../core/stats/timing';
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
  // A software adapter's copy must outgrow the CPU's caches: at 8 MiB its bandwidth varied 3×
  // between runs (docs/benchmarks.md). A GPU's must outgrow its L2 many times over (H200: 50 MiB).
  if (isFallbackAdapter) return { copyBytes: 32 << 20, fmaWorkgroups: 32, fmaIters: 64 };
  const cap = Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize) - 4096;
  return { copyBytes: Math.max(16 << 20, Math.min(1024 << 20, Math.floor(cap / 16) * 16)), fmaWorkgroups: 8192, fmaIters: 1024 };
}

export const COPY_ROUNDS = 3;
/** Above this spread between copy rounds the measured bandwidth is flagged unreliable. */
export const COPY_MAX_SPREAD = 0.03;

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
  let copySpread: number;
  try {
    // Three rounds: the spread between their medians says whether the number can be trusted.
    const roundsNs: number[] = [];
    for (let r = 0; r < COPY_ROUNDS; r++) {
      const t = await measure(ctx, copy, { minRuns: 20 });
      roundsNs.push(t.medianNs);
      details.push(`copy round ${r + 1}: ${sizes.copyBytes} B read + written, median ${t.medianNs.toFixed(0)} ns over ${t.runs} runs (${t.method}, resolution ${t.resolutionNs} ns)`);
    }
    copyGBps = (2 * sizes.copyBytes) / median(roundsNs);
    copySpread = relativeSpread(roundsNs);
    details.push(`copy: ${copyGBps.toFixed(1)} GB/s, spread between rounds ${(100 * copySpread).toFixed(1)}%${copySpread > COPY_MAX_SPREAD ? ` — over ${100 * COPY_MAX_SPREAD}%: this bandwidth is unreliable` : ''}`);
  } finally {
    copy.destroy();
  }

  // FMA throughput, f32 then f16: every variant checked, the fastest kept (see fma-wgsl.ts).
  const fmaThreads = sizes.fmaWorkgroups * FMA_WORKGROUP_SIZE;
  const throughput = async (name: string, wgsl: string, features: string[], ab: ArrayBuffer, ref: Float64Array, dstType: 'f32' | 'i32', iters: number, ops: number): Promise<number> => {
    const out = contiguous(dstType, [fmaThreads]);
    const c = calibrationCase(name, [contiguous(dstType === 'i32' ? 'i32' : 'f32', [4])], out);
    const kernel: KernelSpec = {
      ...nativeKernel(`calibration/${name}`, wgsl, ['src0', 'dst', 'params'], grid2d(sizes.fmaWorkgroups), packParams([deviceOffsetElements(out), iters, fmaThreads, 0])),
      features,
    };
    const session = await checkedSession(ctx, kernel, c, [ab], exact(ref));
    try {
      const t = await measure(ctx, session, { minRuns: 20 });
      details.push(`${name}: ${fmaThreads} threads × ${iters} iterations, ${(ops / 1e9).toFixed(1)} G ops per run, median ${t.medianNs.toFixed(0)} ns over ${t.runs} runs → ${(ops / t.medianNs).toFixed(0)} G/s`);
      return ops / t.medianNs;
    } finally {
      session.destroy();
    }
  };
  const fma = async (type: FmaType): Promise<number> => {
    let best = 0;
    for (const v of FMA_VARIANTS.filter((x) => x.type === type)) {
      // Same FMAs per chain for every variant; in f16 few enough that the count stays exact.
      const perChain = type === 'f16' ? Math.min(sizes.fmaIters, 1024) : sizes.fmaIters;
      const iters = Math.max(1, Math.floor(perChain / v.unroll));
      const ref = new Float64Array(fmaThreads);
      for (let t = 0; t < fmaThreads; t++) ref[t] = fmaExpected(v, t, iters);
      const gflops = await throughput(fmaVariantName(v), fmaWgsl(v), type === 'f16' ? ['shader-f16'] : [], new Float32Array([1, 1, 0, 0]).buffer, ref, 'f32', iters, fmaFlops(v, fmaThreads, iters));
      best = Math.max(best, gflops);
    }
    return best;
  };
  step('f32 FMA loop', 0.3);
  const f32Gflops = await fma('f32');
  let f16Gflops: number | null = null;
  if (ctx.device.features.has('shader-f16')) {
    step('f16 FMA loop', 0.5);
    f16Gflops = await fma('f16');
  } else details.push("fma f16: skipped (no 'shader-f16' on this adapter)");
  step('int8 dot product', 0.7);
  let int8Gops: number | null = null;
  try {
    const iters = Math.max(1, Math.floor(sizes.fmaIters / DOT4_UNROLL));
    const ref = new Float64Array(fmaThreads);
    for (let t = 0; t < fmaThreads; t++) ref[t] = dot4Expected(t, iters);
    int8Gops = await throughput('dot4-i8', dot4Wgsl(), [], new Uint32Array([0x01010101, 0x01010101, 0, 0]).buffer, ref, 'i32', iters, dot4Ops(fmaThreads, iters, DOT4_CHAINS, DOT4_UNROLL));
  } catch (e) {
    if (e instanceof DeviceLostError) throw e;
    // Not every WGSL implementation offers packed_4x8_integer_dot_product: a skip, not a failure.
    details.push(`dot4-i8: skipped (${(e as Error).message.split('\n')[0]})`);
  }

  // The subgroup-matrix ceiling per f16→f32 config, where the adapter offers subgroup matrices.
  let mma: Record<string, number> | null = null;
  if (ctx.device.features.has('chromium-experimental-subgroup-matrix') && ctx.device.features.has('shader-f16')) {
    step('subgroup-matrix ceiling', 0.75);
    mma = {};
    for (const config of MMA_CONFIGS) {
      try {
        mma[config] = await mmaCeilingGflops(ctx, config, details);
      } catch (e) {
        if (e instanceof DeviceLostError) throw e;
        details.push(`mma ${config}: skipped (${(e as Error).message.split('\n')[0]})`);
      }
    }
  } else details.push("mma: skipped (no 'chromium-experimental-subgroup-matrix' with 'shader-f16' on this device)");

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
    int8Gops,
    ...(mma ? { mmaGflops: Object.freeze(mma) } : {}),
    copySpread,
    emptyDispatchNs,
    measuredAt: new Date().toISOString(),
    details: Object.freeze(details),
  });
}

/** Register-only subgroupMatrixMultiplyAccumulate loop (see mma-wgsl.ts), checked, then timed. */
async function mmaCeilingGflops(ctx: GpuContext, config: (typeof MMA_CONFIGS)[number], details: string[]): Promise<number> {
  const workgroups = ctx.adapter.isFallbackAdapter ? 4 : 1056;
  const iters = ctx.adapter.isFallbackAdapter ? 8 : 512;
  const { m, n } = mmaDims(config);
  const operands = mmaOperands(config);
  const src = contiguous('f16', [operands.length]);
  const out = contiguous('f32', [workgroups * MMA_SUBGROUPS * MMA_CHAINS * m * n]);
  const c = calibrationCase(`mma-${config}`, [src], out);
  // Loads and stores start past the buffers' guard band (mmaPlan; a CPU model checks it in mma-wgsl.test.ts).
  const plan = mmaPlan(config, deviceOffsetElements(src), deviceOffsetElements(out));
  const kernel: KernelSpec = { ...nativeKernel(`calibration/mma-${config}`, mmaWgsl(config, iters, plan), ['src0', 'dst'], grid2d(workgroups)), features: ['shader-f16', 'subgroups', 'chromium-experimental-subgroup-matrix'] };
  const input = Uint16Array.from(operands, (v) => f32ToF16Bits(v));
  const session = await checkedSession(ctx, kernel, c, [input.buffer], exact(mmaExpected(config, iters, workgroups)));
  try {
    const t = await measure(ctx, session, { minRuns: 20 });
    const flops = mmaFlops(config, workgroups, iters);
    details.push(`mma ${config}: ${workgroups} workgroups × ${MMA_SUBGROUPS} subgroups × ${MMA_CHAINS} chains × ${iters} MMAs, median ${t.medianNs.toFixed(0)} ns over ${t.runs} runs → ${(flops / t.medianNs).toFixed(0)} GFLOP/s`);
    return flops / t.medianNs;
  } finally {
    session.destroy();
  }
}
