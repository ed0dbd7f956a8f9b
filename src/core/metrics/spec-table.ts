// Published peaks per GPU, keyed by what a WebGPU adapter reports. An adapter no entry matches
// gets blank spec columns, never an error. FP32 is the vector (non-tensor, non-matrix) peak:
// WGSL f32 arithmetic runs there. Bandwidth is DRAM/HBM, the upper bound of any published range.
import type { AdapterDescriptor } from '../adapter';

export interface SpecPeaks {
  /** What the entry is, e.g. 'NVIDIA H200 SXM'. */
  readonly name: string;
  readonly bandwidthGBps: number;
  /** f32 vector FMA peak (2 flops per FMA). */
  readonly f32Gflops: number;
  /** f16 vector peak where the vendor publishes one (WGSL f16 needs 'shader-f16'). */
  readonly f16Gflops: number | null;
  /** Where the numbers come from. */
  readonly source: string;
}

interface SpecEntry extends SpecPeaks {
  /** Tested against "vendor architecture device description", lower-cased. */
  readonly match: RegExp;
}

const NV = 'NVIDIA product datasheet';
const AMD = 'AMD product specifications (amd.com)';
const INTEL = 'Intel ARK / Arc product brief';
// The metaltile bench-metrics PR (#247, seeds/) corrected Apple's FP32 vector peaks to the
// published per-chip figures; bandwidths are Apple's (upper bound of a published range).
const APPLE = 'Apple tech specs (bandwidth); FP32 per the metaltile bench-metrics PR table';

// Order matters: the first match wins, so specific names precede their families.
const TABLE: readonly SpecEntry[] = [
  // NVIDIA datacenter (GH100: H100/H200 SXM FP32 67 TFLOPS, FP16 non-tensor 133.8)
  { match: /h200/, name: 'NVIDIA H200 SXM', bandwidthGBps: 4800, f32Gflops: 67_000, f16Gflops: 133_800, source: `${NV}: H200 (HBM3e 4.8 TB/s)` },
  { match: /h100.*pcie/, name: 'NVIDIA H100 PCIe', bandwidthGBps: 2000, f32Gflops: 51_200, f16Gflops: 102_400, source: `${NV}: H100 PCIe` },
  { match: /h100/, name: 'NVIDIA H100 SXM5', bandwidthGBps: 3350, f32Gflops: 67_000, f16Gflops: 133_800, source: `${NV}: H100 SXM5 (HBM3 3.35 TB/s)` },
  { match: /a100.*80/, name: 'NVIDIA A100 80GB SXM', bandwidthGBps: 2039, f32Gflops: 19_500, f16Gflops: 78_000, source: `${NV}: A100 80GB` },
  { match: /a100/, name: 'NVIDIA A100 40GB', bandwidthGBps: 1555, f32Gflops: 19_500, f16Gflops: 78_000, source: `${NV}: A100 40GB` },
  { match: /\bl40s\b/, name: 'NVIDIA L40S', bandwidthGBps: 864, f32Gflops: 91_600, f16Gflops: 91_600, source: `${NV}: L40S` },
  { match: /\bl40\b/, name: 'NVIDIA L40', bandwidthGBps: 864, f32Gflops: 90_500, f16Gflops: 90_500, source: `${NV}: L40` },
  { match: /\bl4\b/, name: 'NVIDIA L4', bandwidthGBps: 300, f32Gflops: 30_300, f16Gflops: 30_300, source: `${NV}: L4` },
  // GeForce RTX 50 / 40 / 30 (boost-clock FP32)
  { match: /rtx 5090/, name: 'NVIDIA RTX 5090', bandwidthGBps: 1792, f32Gflops: 104_800, f16Gflops: 104_800, source: `${NV}: RTX 5090` },
  { match: /rtx 5080/, name: 'NVIDIA RTX 5080', bandwidthGBps: 960, f32Gflops: 56_300, f16Gflops: 56_300, source: `${NV}: RTX 5080` },
  { match: /rtx 5070 ti/, name: 'NVIDIA RTX 5070 Ti', bandwidthGBps: 896, f32Gflops: 43_900, f16Gflops: 43_900, source: `${NV}: RTX 5070 Ti` },
  { match: /rtx 5070/, name: 'NVIDIA RTX 5070', bandwidthGBps: 672, f32Gflops: 30_900, f16Gflops: 30_900, source: `${NV}: RTX 5070` },
  { match: /rtx 4090/, name: 'NVIDIA RTX 4090', bandwidthGBps: 1008, f32Gflops: 82_600, f16Gflops: 82_600, source: `${NV}: RTX 4090` },
  { match: /rtx 4080/, name: 'NVIDIA RTX 4080', bandwidthGBps: 717, f32Gflops: 48_700, f16Gflops: 48_700, source: `${NV}: RTX 4080` },
  { match: /rtx 4070 ti/, name: 'NVIDIA RTX 4070 Ti', bandwidthGBps: 504, f32Gflops: 40_100, f16Gflops: 40_100, source: `${NV}: RTX 4070 Ti` },
  { match: /rtx 4070/, name: 'NVIDIA RTX 4070', bandwidthGBps: 504, f32Gflops: 29_100, f16Gflops: 29_100, source: `${NV}: RTX 4070` },
  { match: /rtx 4060/, name: 'NVIDIA RTX 4060', bandwidthGBps: 272, f32Gflops: 15_100, f16Gflops: 15_100, source: `${NV}: RTX 4060` },
  { match: /rtx 3090/, name: 'NVIDIA RTX 3090', bandwidthGBps: 936, f32Gflops: 35_600, f16Gflops: 35_600, source: `${NV}: RTX 3090` },
  { match: /rtx 3080/, name: 'NVIDIA RTX 3080', bandwidthGBps: 760, f32Gflops: 29_800, f16Gflops: 29_800, source: `${NV}: RTX 3080 (10 GB)` },
  { match: /rtx 3070/, name: 'NVIDIA RTX 3070', bandwidthGBps: 448, f32Gflops: 20_300, f16Gflops: 20_300, source: `${NV}: RTX 3070` },
  { match: /rtx 3060/, name: 'NVIDIA RTX 3060', bandwidthGBps: 360, f32Gflops: 12_700, f16Gflops: 12_700, source: `${NV}: RTX 3060` },
  // AMD RDNA 4 / 3 / 2 (FP32 as AMD publishes it; RDNA 3/4 count dual-issue)
  { match: /9070 xt/, name: 'AMD Radeon RX 9070 XT', bandwidthGBps: 640, f32Gflops: 48_700, f16Gflops: 97_300, source: `${AMD}: RX 9070 XT` },
  { match: /rx 9070/, name: 'AMD Radeon RX 9070', bandwidthGBps: 640, f32Gflops: 36_100, f16Gflops: 72_300, source: `${AMD}: RX 9070` },
  { match: /7900 xtx/, name: 'AMD Radeon RX 7900 XTX', bandwidthGBps: 960, f32Gflops: 61_400, f16Gflops: 122_800, source: `${AMD}: RX 7900 XTX` },
  { match: /7900 xt/, name: 'AMD Radeon RX 7900 XT', bandwidthGBps: 800, f32Gflops: 51_500, f16Gflops: 103_000, source: `${AMD}: RX 7900 XT` },
  { match: /7800 xt/, name: 'AMD Radeon RX 7800 XT', bandwidthGBps: 624, f32Gflops: 37_300, f16Gflops: 74_600, source: `${AMD}: RX 7800 XT` },
  { match: /rx 7600/, name: 'AMD Radeon RX 7600', bandwidthGBps: 288, f32Gflops: 21_750, f16Gflops: 43_500, source: `${AMD}: RX 7600` },
  { match: /6900 xt/, name: 'AMD Radeon RX 6900 XT', bandwidthGBps: 512, f32Gflops: 23_040, f16Gflops: 46_080, source: `${AMD}: RX 6900 XT` },
  { match: /6800 xt/, name: 'AMD Radeon RX 6800 XT', bandwidthGBps: 512, f32Gflops: 20_740, f16Gflops: 41_470, source: `${AMD}: RX 6800 XT` },
  { match: /6700 xt/, name: 'AMD Radeon RX 6700 XT', bandwidthGBps: 384, f32Gflops: 13_210, f16Gflops: 26_430, source: `${AMD}: RX 6700 XT` },
  // Intel Arc (Xe-HPG, Xe2)
  { match: /arc.*b580/, name: 'Intel Arc B580', bandwidthGBps: 456, f32Gflops: 13_700, f16Gflops: 27_300, source: `${INTEL}: Arc B580` },
  { match: /arc.*a770/, name: 'Intel Arc A770', bandwidthGBps: 560, f32Gflops: 19_660, f16Gflops: 39_320, source: `${INTEL}: Arc A770 16GB` },
  { match: /arc.*a750/, name: 'Intel Arc A750', bandwidthGBps: 512, f32Gflops: 17_200, f16Gflops: 34_400, source: `${INTEL}: Arc A750` },
  { match: /iris.*xe/, name: 'Intel Iris Xe (96 EU)', bandwidthGBps: 68, f32Gflops: 2_200, f16Gflops: 4_400, source: `${INTEL}: Iris Xe 96 EU with LPDDR4x-4266` },
  // Apple silicon (GPU FP32; bandwidth of the unified memory)
  { match: /apple m5 max/, name: 'Apple M5 Max', bandwidthGBps: 614, f32Gflops: 16_600, f16Gflops: null, source: APPLE },
  { match: /apple m5/, name: 'Apple M5', bandwidthGBps: 153, f32Gflops: 4_400, f16Gflops: null, source: APPLE },
  { match: /apple m4 max/, name: 'Apple M4 Max', bandwidthGBps: 546, f32Gflops: 17_200, f16Gflops: null, source: APPLE },
  { match: /apple m4 pro/, name: 'Apple M4 Pro', bandwidthGBps: 273, f32Gflops: 8_600, f16Gflops: null, source: APPLE },
  { match: /apple m4/, name: 'Apple M4', bandwidthGBps: 120, f32Gflops: 4_300, f16Gflops: null, source: APPLE },
  { match: /apple m3 ultra/, name: 'Apple M3 Ultra', bandwidthGBps: 819, f32Gflops: 28_400, f16Gflops: null, source: APPLE },
  { match: /apple m3 max/, name: 'Apple M3 Max', bandwidthGBps: 400, f32Gflops: 12_800, f16Gflops: null, source: APPLE },
  { match: /apple m3 pro/, name: 'Apple M3 Pro', bandwidthGBps: 150, f32Gflops: 7_100, f16Gflops: null, source: APPLE },
  { match: /apple m3/, name: 'Apple M3', bandwidthGBps: 100, f32Gflops: 3_500, f16Gflops: null, source: APPLE },
  { match: /apple m2 ultra/, name: 'Apple M2 Ultra', bandwidthGBps: 800, f32Gflops: 27_200, f16Gflops: null, source: APPLE },
  { match: /apple m2 max/, name: 'Apple M2 Max', bandwidthGBps: 400, f32Gflops: 13_600, f16Gflops: null, source: APPLE },
  { match: /apple m2 pro/, name: 'Apple M2 Pro', bandwidthGBps: 200, f32Gflops: 6_800, f16Gflops: null, source: APPLE },
  { match: /apple m2/, name: 'Apple M2', bandwidthGBps: 100, f32Gflops: 3_600, f16Gflops: null, source: APPLE },
  { match: /apple m1 ultra/, name: 'Apple M1 Ultra', bandwidthGBps: 800, f32Gflops: 21_200, f16Gflops: null, source: APPLE },
  { match: /apple m1 max/, name: 'Apple M1 Max', bandwidthGBps: 400, f32Gflops: 10_600, f16Gflops: null, source: APPLE },
  { match: /apple m1 pro/, name: 'Apple M1 Pro', bandwidthGBps: 200, f32Gflops: 5_300, f16Gflops: null, source: APPLE },
  { match: /apple m1/, name: 'Apple M1', bandwidthGBps: 68, f32Gflops: 2_600, f16Gflops: null, source: APPLE },
];

/** What the spec lookup matches against: every identifying string the adapter gave. */
export function adapterText(a: Pick<AdapterDescriptor, 'vendor' | 'architecture' | 'device' | 'description'>): string {
  return [a.vendor, a.architecture, a.device, a.description].join(' ').toLowerCase().replace(/[-_]/g, ' ');
}

/** The adapter's published peaks, or null (unknown adapter, or a software one). */
export function specFor(a: Pick<AdapterDescriptor, 'vendor' | 'architecture' | 'device' | 'description' | 'isFallbackAdapter'>): SpecPeaks | null {
  if (a.isFallbackAdapter) return null;
  const text = adapterText(a);
  const entry = TABLE.find((e) => e.match.test(text));
  if (!entry) return null;
  const { match: _match, ...peaks } = entry;
  return peaks;
}

export const SPEC_TABLE_SIZE = TABLE.length;
