// Results with realistic content and no GPU: the real shape matrix of every op, full-precision
// timings from a seeded generator. For tests (share links, markdown, storage) and the share-link
// benchmark, which must measure what a real full lane would need.
import { DEFAULT_LIMITS, type AdapterDescriptor } from '../adapter';
import { prng } from '../hostdata';
import { computeMetrics, peaksFor } from '../metrics/roofline';
import { OPS, registryEntry } from '../ops/registry';
import { median } from '../stats/timing';
import { timingVerdict } from '../stats/verdict';
import { CODE_HASH, LAB_VERSION, RESULT_SCHEMA_VERSION, type LaneJson, type Level1Json, type SweepJson } from './json';

export function sampleAdapter(over: Partial<AdapterDescriptor> = {}): AdapterDescriptor {
  return {
    vendor: 'google',
    architecture: 'swiftshader',
    device: 'swiftshader device (subzero)',
    description: 'SwiftShader Device (Subzero) (0x0000C0DE)',
    isFallbackAdapter: true,
    runtime: 'browser',
    features: ['timestamp-query', 'shader-f16', 'subgroups', 'float32-filterable', 'depth-clip-control', 'indirect-first-instance'],
    limits: DEFAULT_LIMITS,
    subgroupMinSize: 4,
    subgroupMaxSize: 4,
    ...over,
  };
}

const STAMPS = { schemaVersion: RESULT_SCHEMA_VERSION, labVersion: LAB_VERSION, codeHash: CODE_HASH };

export function sampleLevel1(over: Partial<Level1Json> = {}): Level1Json {
  return {
    kind: 'level1',
    ...STAMPS,
    op: 'ADD',
    shape: '256x16',
    layout: 'inplace',
    label: '256x16 inplace',
    variant: 'generated',
    scheduleKey: 'elementwise{"elementsPerThread":4,"vectorWidth":4,"workgroupSize":256}',
    schedule: null,
    fallback: null,
    correct: true,
    maxErr: 0,
    bound: 9.5367431640625e-7,
    correctness: { worstRatio: 0, elements: 4096, checked: 4096, outOfBound: 0, nonFinite: 0, guardViolations: 0, failures: [] },
    timing: { runs: 1200, minNs: 10_240.5, medianNs: 12_345.678, maxNs: 19_876.25, resolutionNs: 1, method: 'timestamp', spanNs: 14_814_813.6, spanShort: false, note: 'serialized latency: one compute pass per run in one command buffer (submission amortized, runs never overlap)' },
    flops: null,
    readBytes: 32_768,
    writeBytes: 16_384,
    metrics: null,
    dispatch: [4, 1, 1],
    adapter: sampleAdapter(),
    startedAt: '2026-03-01T10:00:00.000Z',
    ...over,
  };
}

const CHECKLIST_TITLES: Record<string, string> = {
  semantics: 'semantics exact (native matches the oracle, aliasing and params included)',
  'lane-green': 'lane green (generated dispatches > 0, every fallback declared, no device rejection)',
  'no-slower': 'no shape slower beyond the tolerance',
  'device-parity': "generated kernel's device output matches the oracle",
  'contract-clean': 'require fails cleanly on a shape outside the contract',
};

/** A lane over every op's whole matrix, as `npm run lab -- lane --json` writes it. */
export function sampleLane(opts: { repeat?: number; seed?: number; adapter?: AdapterDescriptor; startedAt?: string; ops?: readonly string[] } = {}): LaneJson {
  const repeat = opts.repeat ?? 5;
  const next = prng(opts.seed ?? 7);
  const adapter = opts.adapter ?? sampleAdapter();
  const peaks = peaksFor(adapter, null);
  const pairs = OPS.filter((op) => !opts.ops || opts.ops.includes(op.name)).map((op) => {
    const shapes = op.matrix.map((e) => {
      const nativeNs = 20_000 + next() * 2_000_000;
      const gain = 0.7 + next() * 0.8;
      const speedups = Array.from({ length: repeat }, () => gain * (0.97 + next() * 0.06));
      const generatedNs = nativeNs / median(speedups);
      const c = op.makeCase(e.dims, e.layout, e.params);
      const bytes = op.bytes(c);
      const metricsOf = (ns: number) => computeMetrics({ minNs: ns * 0.98, medianNs: ns }, op.flops(c), bytes.readBytes + bytes.writeBytes, peaks);
      return {
        shape: c.label,
        layout: e.layout,
        scheduleKey: `${op.family}{"vectorWidth":4,"workgroupSize":256}`,
        nativeMedianNs: nativeNs,
        generatedMedianNs: generatedNs,
        speedupMedian: median(speedups),
        speedupMin: Math.min(...speedups),
        speedupMax: Math.max(...speedups),
        speedups,
        verdict: timingVerdict(speedups),
        fallback: null,
        note: null,
        nativeMetrics: metricsOf(nativeNs),
        generatedMetrics: metricsOf(generatedNs),
      };
    });
    return {
      op: op.name,
      state: registryEntry(op.name).state,
      registryState: registryEntry(op.name).state,
      gating: false,
      counters: { generatedDispatches: shapes.length * repeat * 180, nativeFallbacks: {}, undeclaredFallbacks: 0, deviceRejections: 0 },
      shapes,
      checklist: Object.entries(CHECKLIST_TITLES).map(([id, title]) => ({ id: id as 'semantics', title, pass: true, evidence: `${id}: ${shapes.length}/${shapes.length} shapes (layouts: ${[...new Set(shapes.map((s) => s.layout))].join(', ')})` })),
      verdict: 'work-items' as const,
    };
  });
  return {
    kind: 'lane',
    ...STAMPS,
    adapter,
    settings: { repeat, tolerance: 0.05, seed: 1, prefer: [], control: null, undeclare: [], wallBoundMs: 10_000, proposalRules: 0 },
    pairs,
    skipped: [],
    green: true,
    startedAt: opts.startedAt ?? '2026-03-01T10:00:00.000Z',
    durationMs: 183_456.789,
  };
}

/** A small sweep of ADD over two shapes, shaped as `npm run lab -- sweep --json` writes it. */
export function sampleSweep(): SweepJson {
  const schedule = (workgroupSize: number, elementsPerThread: number) => ({ family: 'elementwise' as const, workgroupSize, elementsPerThread, vectorWidth: 4 });
  const key = (wg: number, ept: number) => `elementwise{"elementsPerThread":${ept},"vectorWidth":4,"workgroupSize":${wg}}`;
  const cell = (shape: string, medianNs: number, gain: number, outcome: 'win' | 'lose' | 'noise') => ({ shape, medianNs, spread: 0.0112, gain, outcome, metrics: null });
  return {
    kind: 'sweep',
    ...STAMPS,
    op: 'ADD',
    adapter: sampleAdapter(),
    settings: { reps: 9, seed: 1, space: { workgroupSize: [64, 256], elementsPerThread: [1, 2], vectorWidth: [4] } },
    shapes: ['256x16', '1000x33'],
    excludedShapes: [{ shape: '64x64 src1-transposed', reason: 'src1-rows-not-contiguous: src1 rows are strided' }],
    reference: [
      { shape: '256x16', variant: key(256, 4), medianNs: 37_605.75, spread: 0.0085 },
      { shape: '1000x33', variant: key(256, 4), medianNs: 238_931.25, spread: 0.0001 },
    ],
    candidates: [
      { key: key(64, 2), schedule: schedule(64, 2), status: 'accepted', reason: 'wins 1000x33 (6.2% > 1.1%); rule "ne0 ≥ 1000" excludes 256x16', shapes: [cell('256x16', 42_645.75, -0.134, 'lose'), cell('1000x33', 224_177, 0.0618, 'win')], rule: [{ feature: 'ne0', min: 1000 }], meanWinGain: 0.0618 },
      { key: key(256, 1), schedule: schedule(256, 1), status: 'noise', reason: 'no gain outside the noise', shapes: [cell('256x16', 37_700, -0.002, 'noise'), cell('1000x33', 238_000, 0.004, 'noise')], rule: null, meanWinGain: null },
      { key: key(64, 1), schedule: schedule(64, 1), status: 'invalid', reason: 'takes none of the shapes', shapes: [], rule: null, meanWinGain: null },
    ],
    proposal: [{ key: key(64, 2), schedule: schedule(64, 2), when: [{ feature: 'ne0', min: 1000 }], covers: ['1000x33'], meanWinGain: 0.0618 }],
    startedAt: '2026-03-01T10:00:00.000Z',
    durationMs: 41_234.5,
  } as unknown as SweepJson;
}
