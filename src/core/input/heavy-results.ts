// The heaviest results the caps accept, and links made with no check on the way in: for the
// fuzz test and for the e2e check in Chromium (this module imports nothing that needs the op
// registry or its WGSL, so Playwright can load it).
import { DEFAULT_LIMITS, type AdapterDescriptor } from '../adapter';
import { crc32, toBase64Url } from '../report/bytes';
import { CODE_HASH, LAB_VERSION, RESULT_SCHEMA_VERSION, type SweepJson } from '../report/json';
import { SWEEP_CAPS } from './caps';

const STAMPS = { schemaVersion: RESULT_SCHEMA_VERSION, labVersion: LAB_VERSION, codeHash: CODE_HASH };
const ADAPTER: AdapterDescriptor = { vendor: 'google', architecture: 'swiftshader', device: 'swiftshader device (subzero)', description: 'SwiftShader Device (Subzero) (0x0000C0DE)', isFallbackAdapter: true, runtime: 'browser', features: ['timestamp-query'], limits: DEFAULT_LIMITS, subgroupMinSize: 4, subgroupMaxSize: 4 };

async function deflateRaw(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('deflate-raw') as unknown as TransformStream<Uint8Array, Uint8Array>);
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * A link for any JSON text, made as encodeShare lays one out (format 2: CRC-32 over header
 * then JSON) but with no cap or check on the way in: what a hostile link maker can send.
 */
export async function linkFor(jsonText: string, header = '2.'): Promise<string> {
  const json = new TextEncoder().encode(jsonText);
  const head = new TextEncoder().encode(header);
  const all = new Uint8Array(head.length + json.length);
  all.set(head);
  all.set(json, head.length);
  const deflated = await deflateRaw(json);
  const body = new Uint8Array(deflated.length + 4);
  body.set(deflated);
  new DataView(body.buffer).setUint32(deflated.length, header.startsWith('1') ? crc32(json) : crc32(all));
  return `${header}${toBase64Url(body)}`;
}

/** A sweep of `shapes` × `candidates` (every cell filled, or none), shaped as the lab writes one. */
export function sweepOf(shapes: number, candidates: number, filled = true): SweepJson {
  const names = Array.from({ length: shapes }, (_, i) => `${i + 1}x16`);
  const cell = (shape: string, i: number) => ({ shape, medianNs: 1000 + i, spread: 0.01, gain: 0.01, outcome: 'noise' as const, metrics: null });
  return {
    ...STAMPS,
    kind: 'sweep',
    op: 'ADD',
    adapter: ADAPTER,
    settings: { reps: 9, seed: 1, space: { workgroupSize: [64], elementsPerThread: [1, 2], vectorWidth: [4] } },
    excludedShapes: [],
    startedAt: '2026-03-01T10:00:00.000Z',
    durationMs: 41_234.5,
    shapes: names,
    reference: names.map((shape) => ({ shape, variant: 'native', medianNs: 1000, spread: 0.01 })),
    candidates: Array.from({ length: candidates }, (_, c) => ({ status: 'noise', reason: 'no gain outside the noise', rule: null, meanWinGain: null, key: `elementwise{"elementsPerThread":${c + 1},"vectorWidth":4,"workgroupSize":64}`, schedule: { family: 'elementwise', workgroupSize: 64, elementsPerThread: c + 1, vectorWidth: 4 }, shapes: filled ? names.map((s, i) => cell(s, i + c)) : [] })),
    proposal: [],
  } as unknown as SweepJson;
}

/** The heaviest sweep the caps accept: 64 shapes × 128 candidates, every cell filled (8192 cells). */
export function heaviestAcceptedSweep(): SweepJson {
  return sweepOf(SWEEP_CAPS.shapes, SWEEP_CAPS.cells / SWEEP_CAPS.shapes);
}
