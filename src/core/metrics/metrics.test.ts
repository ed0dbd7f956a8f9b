import { describe, expect, it } from 'vitest';
import type { AdapterDescriptor } from '../adapter';
import { DEFAULT_LIMITS } from '../adapter';
import { classify, computeMetrics, peaksFor, peaksForKernel, ridge, type Calibration, type Peaks } from './roofline';
import { specFor } from './spec-table';
import { kernelFeatures } from '../program';

const adapter = (over: Partial<AdapterDescriptor>): AdapterDescriptor => ({
  vendor: '',
  architecture: '',
  device: '',
  description: '',
  isFallbackAdapter: false,
  runtime: 'node',
  features: [],
  limits: DEFAULT_LIMITS,
  subgroupMinSize: 0,
  subgroupMaxSize: 0,
  ...over,
});

const h200: Peaks = { bandwidthGBps: 4800, f32Gflops: 67_000, source: 'spec', launchFloorNs: 3000 };

describe('spec table', () => {
  it('knows adapters by what WebGPU reports', () => {
    expect(specFor(adapter({ vendor: 'nvidia', architecture: 'hopper', device: 'nvidia-h200' }))).toMatchObject({ name: 'NVIDIA H200 SXM', bandwidthGBps: 4800, f32Gflops: 67_000 });
    expect(specFor(adapter({ vendor: 'nvidia', description: 'NVIDIA GeForce RTX 4090' }))?.bandwidthGBps).toBe(1008);
    expect(specFor(adapter({ vendor: 'nvidia', description: 'NVIDIA GeForce RTX 4070 Ti' }))?.name).toBe('NVIDIA RTX 4070 Ti');
    expect(specFor(adapter({ vendor: 'apple', architecture: 'metal-3', description: 'Apple M3 Max' }))?.f32Gflops).toBe(12_800);
    expect(specFor(adapter({ vendor: 'apple', architecture: 'metal-3', description: 'Apple M3' }))?.f32Gflops).toBe(3_500);
    expect(specFor(adapter({ vendor: 'amd', architecture: 'rdna-3', description: 'AMD Radeon RX 7900 XTX' }))?.bandwidthGBps).toBe(960);
    expect(specFor(adapter({ vendor: 'intel', architecture: 'xe-hpg', description: 'Intel(R) Arc(TM) A770 Graphics' }))?.name).toBe('Intel Arc A770');
    expect(specFor(adapter({ vendor: 'nvidia', description: 'NVIDIA A100-SXM4-80GB' }))?.bandwidthGBps).toBe(2039);
  });

  it('leaves unknown and software adapters blank, never failing', () => {
    expect(specFor(adapter({ vendor: 'apple', architecture: 'metal-3' }))).toBeNull();
    expect(specFor(adapter({ vendor: 'google', architecture: 'swiftshader', isFallbackAdapter: true }))).toBeNull();
    expect(specFor(adapter({}))).toBeNull();
    const m = computeMetrics({ minNs: 900, medianNs: 1000 }, 2e6, 1e6, peaksFor(adapter({}), null));
    expect(m).toMatchObject({ gbps: 1000, gflops: 2000, arithmeticIntensity: 2, pctPeakBw: null, pctPeakFlops: null, bottleneck: null, peakSource: null });
  });

  it('takes the measured calibration when the spec is unknown', () => {
    const cal: Calibration = { kind: 'calibration', adapterFingerprint: 'x', copyGBps: 100, f32Gflops: 1000, f16Gflops: null, emptyDispatchNs: 5000, measuredAt: '', details: [] };
    expect(peaksFor(adapter({ vendor: 'google', architecture: 'swiftshader', isFallbackAdapter: true }), cal)).toEqual({ bandwidthGBps: 100, f32Gflops: 1000, source: 'measured', launchFloorNs: 5000 });
    expect(peaksFor(adapter({ device: 'nvidia-h200' }), cal)).toEqual({ bandwidthGBps: 4800, f32Gflops: 67_000, source: 'spec', launchFloorNs: 5000 });
  });

  it('holds a subgroup-matrix kernel to the measured MMA ceiling, or to none', () => {
    const peaks = peaksFor(adapter({ device: 'nvidia-h200' }), null);
    const cal: Calibration = { kind: 'calibration', adapterFingerprint: 'x', copyGBps: 4180, f32Gflops: 61_500, f16Gflops: 64_900, mmaGflops: { '16x8x16': 640_000, '16x8x8': 480_000 }, emptyDispatchNs: 6000, measuredAt: '', details: [] };
    const mma = { features: ['shader-f16', 'subgroups', 'chromium-experimental-subgroup-matrix'] };
    expect(peaksForKernel(peaks, mma, cal)).toEqual({ ...peaks, f32Gflops: 640_000 });
    expect(peaksForKernel(peaks, mma, null)).toEqual({ ...peaks, f32Gflops: null });
    expect(peaksForKernel(peaks, { features: ['subgroups'] }, cal)).toBe(peaks);
    // A program (the lane's and the sweep's generated side) needs what any of its passes needs.
    const pass = (features?: string[]) => ({ label: 'p', wgsl: '', entryPoint: 'main', dispatch: [1, 1, 1] as [number, number, number], bindings: [], ...(features ? { features } : {}) });
    const program = { label: 'two passes', passes: [pass(), pass(mma.features)], scratch: [], explicitLayout: false };
    expect(kernelFeatures(program).features).toEqual(mma.features);
    expect(peaksForKernel(peaks, kernelFeatures(program), cal).f32Gflops).toBe(640_000);
    expect(peaksForKernel(peaks, kernelFeatures({ ...program, passes: [pass(['subgroups'])] }), cal)).toBe(peaks);
  });
});

describe('roofline metrics', () => {
  it('computes GB/s, GFLOP/s, AI and %-of-peak from the median', () => {
    // ADD over 64M f32: 768 MiB moved in 190 µs.
    const add = computeMetrics({ minNs: 185_000, medianNs: 190_000 }, null, 3 * 4 * 2 ** 26, h200);
    expect(add.latencyMinUs).toBe(185);
    expect(add.latencyMedianUs).toBe(190);
    expect(add.gbps).toBeCloseTo(4238.45, 1);
    expect(add.pctPeakBw).toBeCloseTo(88.3, 1);
    expect(add.gflops).toBeNull();
    expect(add.arithmeticIntensity).toBeNull();
    expect(add.bottleneck).toBe('memory-bound');
    // MUL_MAT 4096³ f32 in 5 ms: 27.5 TFLOP/s, AI = 2·4096³ / (3·4096²·4) ≈ 682.7.
    const mm = computeMetrics({ minNs: 4.9e6, medianNs: 5e6 }, 2 * 4096 ** 3, 3 * 4096 * 4096 * 4, h200);
    expect(mm.gflops).toBeCloseTo(27_487.8, 1);
    expect(mm.arithmeticIntensity).toBeCloseTo(682.67, 2);
    expect(mm.pctPeakFlops).toBeCloseTo(41.03, 2);
    expect(mm.bottleneck).toBe('latency-bound');
    expect(ridge(h200)).toBeCloseTo(13.96, 2);
  });

  it('reaches each bottleneck verdict', () => {
    expect(classify({ medianNs: 5000, arithmeticIntensity: null, pctPeakBw: 1, pctPeakFlops: null }, h200)).toBe('launch-bound');
    expect(classify({ medianNs: 1e6, arithmeticIntensity: 100, pctPeakBw: 5, pctPeakFlops: 50 }, h200)).toBe('compute-bound');
    expect(classify({ medianNs: 1e6, arithmeticIntensity: 100, pctPeakBw: 5, pctPeakFlops: 49.9 }, h200)).toBe('latency-bound');
    expect(classify({ medianNs: 1e6, arithmeticIntensity: 0.1, pctPeakBw: 60, pctPeakFlops: 1 }, h200)).toBe('memory-bound');
    expect(classify({ medianNs: 1e6, arithmeticIntensity: 0.1, pctPeakBw: 59, pctPeakFlops: 1 }, h200)).toBe('latency-bound');
    expect(classify({ medianNs: 1e6, arithmeticIntensity: null, pctPeakBw: 80, pctPeakFlops: null }, h200)).toBe('memory-bound');
    // Launch-bound needs a measured floor: without one, a tiny kernel is latency-bound.
    expect(classify({ medianNs: 5000, arithmeticIntensity: null, pctPeakBw: 1, pctPeakFlops: null }, { ...h200, launchFloorNs: null })).toBe('latency-bound');
  });
});
