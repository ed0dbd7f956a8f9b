// A small corpus of hostile census inputs, one per class (GGUF headers, hyperparameters, ggml
// text): each is refused by name with its cap, in well under a second, before any graph is
// built from it; the valid edge of each cap is accepted. The cases (#21, #25) by number.
import { describe, expect, it } from 'vitest';
import { GGUF_TENSOR_CAPS, MODEL_CAPS } from '../input/caps';
import { censusOf, type CensusRequest } from './census-request';
import { DEDUPLICATED_NOTE, formatGraphText, graphLines, isDeduplicated, parseGraphText } from './ggml-text';
import { bytesSource, GGUF_CAPS, GGUF_MAGIC, GGUF_VALUE_TYPES, readGgufHeader, writeGgufHeader, type GgufValueType } from './gguf';
import { buildTrainingGraph } from './graph';
import { PRESETS } from './model-config';

type Kv = { key: string; type: GgufValueType; value: number | bigint | string };
const llama = (over: Record<string, Kv['value']> = {}): Kv[] =>
  Object.entries({
    'general.architecture': 'llama',
    'llama.vocab_size': 512,
    'llama.embedding_length': 64,
    'llama.attention.head_count': 8,
    'llama.block_count': 5,
    'llama.feed_forward_length': 172,
    ...over,
  }).map(([key, value]) => ({ key, type: typeof value === 'string' ? 'string' : typeof value === 'bigint' ? 'u64' : 'u32', value }));

const gguf = (kv: Kv[], tensors: Parameters<typeof writeGgufHeader>[1] = []): CensusRequest & { kind: 'gguf' } => ({
  kind: 'gguf',
  file: new Blob([writeGgufHeader(kv as never, tensors) as Uint8Array<ArrayBuffer>]),
  name: 'hostile.gguf',
});

/** Refused with `message`, within `ms`. */
async function refused(p: Promise<unknown>, message: RegExp, ms = 1000): Promise<void> {
  const t0 = performance.now();
  await expect(p).rejects.toThrow(message);
  expect(performance.now() - t0).toBeLessThan(ms);
}

describe('census: hostile GGUF headers', () => {
  it('refuses absurd hyperparameters by the file\'s key and the cap, before building a graph', async () => {
    // block_count 1,000,000 once built for 233 s and died at 4.4 GB; 2^31−1 never finished.
    await refused(censusOf(gguf(llama({ 'llama.block_count': 1_000_000 }))), /llama\.block_count is 1000000, above the cap of 256 \(nLayer/);
    await refused(censusOf(gguf(llama({ 'llama.block_count': 2 ** 31 - 1 }))), /llama\.block_count is 2147483647, above the cap of 256/);
    await refused(censusOf(gguf(llama({ 'llama.embedding_length': 2n ** 40n }))), /llama\.embedding_length is 1099511627776, above the cap of 131072 \(nEmbd/);
    await refused(censusOf(gguf(llama({ 'llama.feed_forward_length': 2n ** 50n }))), /llama\.feed_forward_length is 1125899906842624, above the cap of 1048576 \(nFf/);
    await refused(censusOf(gguf(llama({ 'llama.vocab_size': 2n ** 53n - 1n }))), /llama\.vocab_size is 9007199254740991, above the cap of 4194304 \(nVocab/);
    await refused(censusOf(gguf(llama({ 'llama.vocab_size': 2n ** 64n - 1n }))), /llama\.vocab_size is 18446744073709551615, above the cap/);
    // Each within its cap, but the logits would not be: named by the tensor and its factors.
    await refused(censusOf({ ...gguf(llama({ 'llama.vocab_size': 1 << 22 })), nCtx: 1 << 18, nBatch: 16 }), /the logits \(vocab 4194304 × context 262144 × batch 16\) would hold 17592186044416 elements, above the cap of 2\^40 per tensor/);
  });

  it('refuses a tensor dimension of 2^53−1 and a tensor past 2^40 elements, naming the cap', async () => {
    const huge = [{ name: 'token_embd.weight', ne: [64, 2 ** 53 - 1], type: 0, offset: 0n }];
    await refused(readGgufHeader(bytesSource(writeGgufHeader(llama() as never, huge))), /tensor 'token_embd\.weight' ne1 at offset \d+ is 9007199254740991, above the cap of 2\^32 per dimension/);
    const wide = [{ name: 'w', ne: [2 ** 32, 2 ** 32], type: 0, offset: 0n }];
    await refused(readGgufHeader(bytesSource(writeGgufHeader([], wide))), /tensor 'w' at offset \d+: 4294967296 × 4294967296 is 18446744073709551616 elements, above the cap of 2\^40 per tensor/);
    // Without vocab_size the vocabulary comes from token_embd's ne1: capped there too.
    const embd = [{ name: 'token_embd.weight', ne: [64, GGUF_TENSOR_CAPS.dim], type: 0, offset: 0n }];
    const kv = llama().filter((k) => k.key !== 'llama.vocab_size');
    await refused(censusOf(gguf(kv, embd)), /nVocab is 4294967296, above the cap of 4194304/);
  });

  it('reads a 2^22-element array in one slice, not element by element; refuses arrays past 2^23 elements in all', async () => {
    // One array of 2^22 u8 at the cap: read in bulk (was one await per element, minutes for 100 of them).
    const n = GGUF_CAPS.arrayElements;
    const bytes = arrayFile([n], 1);
    let reads = 0;
    const src = { sizeBytes: bytes.length, read: async (o: number, k: number) => (reads++, bytes.subarray(o, Math.min(bytes.length, o + k))) };
    const t0 = performance.now();
    const h = await readGgufHeader(src);
    expect(performance.now() - t0).toBeLessThan(2000);
    expect((h.metadata.get('a0') as number[]).length).toBe(n);
    expect(reads).toBeLessThanOrEqual(3);
    // 100 such arrays (400 MiB, under the 512 MiB header cap): refused at the third, by the total.
    await refused(readGgufHeader(bytesSource(arrayFile([n, n, n], 100))), /length of 'a2' at offset \d+ is 4194304: the metadata arrays would hold 12582912 elements in all, above the cap of 8388608/, 3000);
  });

  it('reads a vocabulary of strings without an await per token', async () => {
    const tokens = Array.from({ length: 50_000 }, (_, i) => `t${i}`);
    const bytes = writeGgufHeader([...llama(), { key: 'tokenizer.ggml.tokens', type: 'array', elemType: 'string', value: tokens }] as never);
    const h = await readGgufHeader(bytesSource(bytes));
    expect((h.metadata.get('tokenizer.ggml.tokens') as string[])[49_999]).toBe('t49999');
  });
});

/** A GGUF file whose first keys are u8 arrays of `lengths` (bodies only for those that fit). */
function arrayFile(lengths: number[], kvCount: number): Uint8Array {
  const bodies = lengths.slice(0, 2).reduce((a, b) => a + b, 0);
  const out = new Uint8Array(24 + lengths.length * (8 + 2 + 4 + 4 + 8) + bodies);
  const dv = new DataView(out.buffer);
  let at = 0;
  dv.setUint32(at, GGUF_MAGIC, true), (at += 4);
  dv.setUint32(at, 3, true), (at += 4);
  dv.setBigUint64(at, 0n, true), (at += 8);
  dv.setBigUint64(at, BigInt(kvCount), true), (at += 8);
  lengths.forEach((n, i) => {
    dv.setBigUint64(at, 2n, true), (at += 8);
    out.set(new TextEncoder().encode(`a${i}`), at), (at += 2);
    dv.setUint32(at, GGUF_VALUE_TYPES.indexOf('array'), true), (at += 4);
    dv.setUint32(at, GGUF_VALUE_TYPES.indexOf('u8'), true), (at += 4);
    dv.setBigUint64(at, BigInt(n), true), (at += 8);
    if (i < 2) at += n; // zeros
  });
  return out.subarray(0, at);
}

describe('census: hostile hyperparameters (--context, --batch, presets)', () => {
  it('caps context and batch by name, and refuses an inherited preset name', async () => {
    await refused(censusOf({ kind: 'preset', preset: 'tiny', nCtx: 1e9 }), /tiny: nCtx is 1000000000, above the cap of 1048576/);
    await refused(censusOf({ kind: 'preset', preset: 'tiny', nBatch: 2 ** 31 }), /tiny: nBatch is 2147483648, above the cap of 4096/);
    await refused(censusOf({ kind: 'preset', preset: '7b', nCtx: MODEL_CAPS.nCtx }), /the attention scores \(context 1048576² × heads 32 × batch 1\) would hold 35184372088832 elements, above the cap of 2\^40/);
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      await refused(censusOf({ kind: 'preset', preset: name }), new RegExp(`unknown preset '${name}' \\(presets: tiny, 1b, 7b, micro\\)`));
    }
    const edge = await censusOf({ kind: 'preset', preset: 'tiny', nCtx: 4096, nBatch: 4 });
    expect(edge.config).toMatchObject({ nCtx: 4096, nBatch: 4 });
  });
});

describe('census: hostile ggml text', () => {
  /** An ADD (op 2) line of one destination shape and its sources. */
  const line = (ne: string, src = '0 64 1 1 1 4 256 256 256', nSrc = 1) => `2 0 ${ne} 0 ${nSrc} ${src} x`;

  it('an empty import is an error, not a 0-node census', async () => {
    for (const text of ['', '\n\n  \n', '   ']) await refused(censusOf({ kind: 'text', text, name: 'empty.txt' }), /the text is empty: no op lines to take a census of/);
  });

  it('refuses 64 MiB of newlines by the line cap before splitting it', async () => {
    const t0 = performance.now();
    expect(() => parseGraphText('\n'.repeat(64 * 1024 * 1024))).toThrow('more than 1000000 lines (blank ones included), the cap: refused before parsing');
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(() => parseGraphText('1 '.repeat(10_000))).toThrow(/line 1: 19999 characters, above the cap of 8192 per line/);
  });

  it('caps each dimension at 2^32 and each tensor at 2^40 elements; refuses byte counts past 2^53', async () => {
    expect(() => parseGraphText(line(`${2 ** 53 - 1} 1 1 1`))).toThrow('line 1: ne0 is 9007199254740991, outside 1..4294967296');
    expect(() => parseGraphText(line('1048576 1048576 2 1'))).toThrow('line 1: shape 1048576x1048576x2x1 is 2199023255552 elements, above the cap of 2^40 per tensor');
    expect(() => parseGraphText(line('64 1 1 1', '0 1 1 1 99999999999 4 4 4 4'))).toThrow('line 1: src0 ne3 is 99999999999, outside 1..4294967296');
    // Each tensor at the cap, 10 sources a line, 200 lines: 2^42 B × 11 × 200 passes 2^53.
    const src = Array.from({ length: 10 }, () => '0 1048576 1048576 1 1 4 4 4 4').join(' ');
    const big = Array.from({ length: 200 }, () => line('1048576 1048576 1 1', src, 10)).join('\n');
    await refused(censusOf({ kind: 'text', text: big, name: 'big.txt' }), /big\.txt: the bytes its ADD nodes move \(or the total\) pass 2\^53, where counts stop being exact: refused/, 3000);
  });

  it('a de-duplicated file (llama.cpp test-export-graph-ops) imports with a note that counts are per distinct line', async () => {
    const lines = graphLines(buildTrainingGraph(PRESETS.tiny));
    const full = formatGraphText(lines);
    // What test-export-graph-ops writes: a set of ops compared without their names.
    const seen = new Set<string>();
    const distinct = lines.filter((l) => {
      const key = JSON.stringify({ ...l, name: '' });
      return seen.has(key) ? false : (seen.add(key), true);
    });
    expect(distinct.length).toBeLessThan(lines.length);
    expect(isDeduplicated(parseGraphText(full))).toBe(false);
    const dedup = await censusOf({ kind: 'text', text: formatGraphText(distinct), name: 'tests.txt' });
    expect(dedup.note).toBe(DEDUPLICATED_NOTE);
    expect(dedup.census.rows.reduce((s, r) => s + r.nodes, 0)).toBe(distinct.length);
    expect((await censusOf({ kind: 'text', text: full, name: 'tiny.txt' })).note).toBeNull();
  });
});
