// Roofline metrics for a timed kernel: latency, GB/s, GFLOP/s, arithmetic intensity, %-of-peak
// and a bottleneck verdict (DESIGN.md "Metrics"). Rates use the median time.
import type { AdapterDescriptor } from '../adapter';
import { specFor } from './spec-table';

export type Bottleneck = 'compute-bound' | 'memory-bound' | 'launch-bound' | 'latency-bound';

/** A measured calibration, stored per adapter. */
export interface Calibration {
  readonly kind: 'calibration';
  readonly adapterFingerprint: string;
  readonly copyGBps: number;
  readonly f32Gflops: number;
  readonly f16Gflops: number | null;
  /** Packed int8 dot products (dot4I8Packed), G int ops/s; null or absent where not offered. */
  readonly int8Gops?: number | null;
  /** Register-only subgroup-matrix loop per f16→f32 config ('16x8x16' → GFLOP/s): the MMA ceiling; absent where not offered. */
  readonly mmaGflops?: Readonly<Record<string, number>>;
  /** (max − min) / median of the copy rounds' medians; above 3% the bandwidth is unreliable. */
  readonly copySpread?: number;
  /** Median time of an empty dispatch: the launch floor. */
  readonly emptyDispatchNs: number;
  readonly measuredAt: string;
  /** How each number was obtained (bytes, threads, runs, resolution). */
  readonly details: readonly string[];
}

export interface Peaks {
  readonly bandwidthGBps: number | null;
  readonly f32Gflops: number | null;
  readonly source: 'spec' | 'measured' | null;
  /** Empty-dispatch floor (measured only). */
  readonly launchFloorNs: number | null;
}

export interface Metrics {
  readonly latencyMinUs: number;
  readonly latencyMedianUs: number;
  readonly gbps: number;
  /** null for memory-only ops (no flop formula). */
  readonly gflops: number | null;
  /** flops per byte moved; null for memory-only ops. */
  readonly arithmeticIntensity: number | null;
  readonly pctPeakBw: number | null;
  readonly pctPeakFlops: number | null;
  readonly bottleneck: Bottleneck | null;
  readonly peakSource: 'spec' | 'measured' | null;
}

/** Thresholds of the verdict (DESIGN.md). */
export const COMPUTE_BOUND_MIN_PCT_FLOP = 50;
export const MEMORY_BOUND_MIN_PCT_BW = 60;
/** "Near the launch floor": within this factor of the empty dispatch. */
export const LAUNCH_BOUND_FACTOR = 2;

/**
 * Peaks for metrics: the spec table where it knows the adapter (the published ceiling), else
 * the adapter's measured calibration; the launch floor is always the measured one.
 */
export function peaksFor(adapter: Pick<AdapterDescriptor, 'vendor' | 'architecture' | 'device' | 'description' | 'isFallbackAdapter'>, calibration: Calibration | null): Peaks {
  const spec = specFor(adapter);
  if (spec) return { bandwidthGBps: spec.bandwidthGBps, f32Gflops: spec.f32Gflops, source: 'spec', launchFloorNs: calibration?.emptyDispatchNs ?? null };
  if (calibration) return { bandwidthGBps: calibration.copyGBps, f32Gflops: calibration.f32Gflops, source: 'measured', launchFloorNs: calibration.emptyDispatchNs };
  return { bandwidthGBps: null, f32Gflops: null, source: null, launchFloorNs: null };
}

/**
 * The peaks a kernel is held to: one on subgroup matrices (tensor cores) against the measured
 * register-only MMA ceiling, never the f32 ALU peak it would exceed several times over; without
 * that calibration its %FLOP stays blank.
 */
export function peaksForKernel(peaks: Peaks, kernel: { readonly features?: readonly string[] }, calibration: Calibration | null): Peaks {
  if (!kernel.features?.includes('chromium-experimental-subgroup-matrix')) return peaks;
  const mma = Object.values(calibration?.mmaGflops ?? {});
  return { ...peaks, f32Gflops: mma.length ? Math.max(...mma) : null };
}

/** Ridge point: the arithmetic intensity where the bandwidth slope meets the compute ceiling. */
export function ridge(peaks: Peaks): number | null {
  return peaks.bandwidthGBps && peaks.f32Gflops ? peaks.f32Gflops / peaks.bandwidthGBps : null;
}

export function classify(m: { medianNs: number; arithmeticIntensity: number | null; pctPeakBw: number | null; pctPeakFlops: number | null }, peaks: Peaks): Bottleneck | null {
  if (peaks.launchFloorNs !== null && m.medianNs <= LAUNCH_BOUND_FACTOR * peaks.launchFloorNs) return 'launch-bound';
  const r = ridge(peaks);
  if (r === null) return null;
  const ai = m.arithmeticIntensity ?? 0;
  if (ai >= r && (m.pctPeakFlops ?? 0) >= COMPUTE_BOUND_MIN_PCT_FLOP) return 'compute-bound';
  if (ai < r && (m.pctPeakBw ?? 0) >= MEMORY_BOUND_MIN_PCT_BW) return 'memory-bound';
  return 'latency-bound';
}

export function computeMetrics(t: { minNs: number; medianNs: number }, flops: number | null, bytesMoved: number, peaks: Peaks): Metrics {
  const gbps = bytesMoved / t.medianNs;
  const gflops = flops === null ? null : flops / t.medianNs;
  const arithmeticIntensity = flops === null ? null : flops / bytesMoved;
  const pctPeakBw = peaks.bandwidthGBps ? (100 * gbps) / peaks.bandwidthGBps : null;
  const pctPeakFlops = gflops !== null && peaks.f32Gflops ? (100 * gflops) / peaks.f32Gflops : null;
  return {
    latencyMinUs: t.minNs / 1e3,
    latencyMedianUs: t.medianNs / 1e3,
    gbps,
    gflops,
    arithmeticIntensity,
    pctPeakBw,
    pctPeakFlops,
    bottleneck: classify({ medianNs: t.medianNs, arithmeticIntensity, pctPeakBw, pctPeakFlops }, peaks),
    peakSource: peaks.source,
  };
}
