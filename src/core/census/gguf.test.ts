import { describe, expect, it } from 'vitest';
import { bytesSource, GGUF_CAPS, readGgufHeader, writeGgufHeader, type ByteSource } from './gguf';

const LLAMA_KV = [
  { key: 'general.architecture', type: 'string', value: 'llama' },
  { key: 'llama.block_count', type: 'u32', value: 5 },
  { key: 'llama.embedding_length', type: 'u32', value: 64 },
  { key: 'llama.rope.freq_base', type: 'f32', value: 10000 },
  { key: 'general.file_type', type: 'u64', value: 7 },
  { key: 'tokenizer.ggml.tokens', type: 'array', elemType: 'string', value: ['<s>', 'a', 'bé'] },
  { key: 'flag', type: 'bool', value: true },
] as const;

const TENSORS = [
  { name: 'token_embd.weight', ne: [64, 512], type: 0, offset: 0n },
  { name: 'blk.0.attn_norm.weight', ne: [64], type: 0, offset: 131072n },
];

/** Counts the bytes actually asked for, to show the tensor data is never read. */
function counting(bytes: Uint8Array): ByteSource & { reads: [number, number][] } {
  const reads: [number, number][] = [];
  return { sizeBytes: bytes.length, reads, read: async (o, n) => (reads.push([o, n]), bytes.subarray(o, Math.min(bytes.length, o + n))) };
}

describe('readGgufHeader', () => {
  it('reads the metadata and tensor infos the test wrote', async () => {
    const bytes = writeGgufHeader(LLAMA_KV as never, TENSORS);
    const h = await readGgufHeader(bytesSource(bytes));
    expect(h.version).toBe(3);
    expect(h.metadata.get('general.architecture')).toBe('llama');
    expect(h.metadata.get('llama.block_count')).toBe(5);
    expect(h.metadata.get('llama.rope.freq_base')).toBe(10000);
    expect(h.metadata.get('general.file_type')).toBe(7n);
    expect(h.metadata.get('tokenizer.ggml.tokens')).toEqual(['<s>', 'a', 'bé']);
    expect(h.metadata.get('flag')).toBe(true);
    expect(h.types.get('llama.block_count')).toBe('u32');
    expect(h.tensors).toEqual([
      { name: 'token_embd.weight', ne: [64, 512], type: 0, offset: 0n },
      { name: 'blk.0.attn_norm.weight', ne: [64], type: 0, offset: 131072n },
    ]);
    expect(h.alignment).toBe(32);
    expect(h.headerBytes).toBe(bytes.length);
  });

  it('reads only the header of a large file: one ranged read, never the data', async () => {
    const header = writeGgufHeader(LLAMA_KV as never, TENSORS);
    // a "file" of 3 GiB whose bytes past the header are never materialised
    const src: ByteSource & { reads: [number, number][] } = {
      sizeBytes: 3 * 1024 ** 3,
      reads: [],
      async read(o, n) {
        this.reads.push([o, n]);
        const out = new Uint8Array(Math.min(n, this.sizeBytes - o));
        out.set(header.subarray(o, o + out.length));
        return out;
      },
    };
    const h = await readGgufHeader(src);
    expect(h.tensors.length).toBe(2);
    expect(src.reads).toEqual([[0, 1 << 20]]);
  });

  it('names the field and offset of a truncated file', async () => {
    const bytes = writeGgufHeader(LLAMA_KV as never, TENSORS);
    await expect(readGgufHeader(bytesSource(bytes.subarray(0, 2)))).rejects.toThrow('truncated file: magic at offset 0 needs 4 bytes, the file has 2');
    await expect(readGgufHeader(bytesSource(bytes.subarray(0, bytes.length - 3)))).rejects.toThrow(/truncated file: tensor 'blk.0.attn_norm.weight' offset at offset \d+ needs 8 bytes/);
    await expect(readGgufHeader(bytesSource(bytes.subarray(0, 40)))).rejects.toThrow(/truncated file: metadata key 0 at offset 32 needs 20 bytes, the file has 40/);
  });

  it('refuses a file that is not GGUF, a newer version, an old and a big-endian one', async () => {
    await expect(readGgufHeader(bytesSource(new TextEncoder().encode('PK\u0003\u0004 a zip file')))).rejects.toThrow("not a GGUF file: magic at offset 0 is 0x04034b50, not 'GGUF'");
    await expect(readGgufHeader(bytesSource(writeGgufHeader([], [], 4)))).rejects.toThrow('version at offset 4 is 4, newer than the GGUF versions this reader knows (2, 3)');
    await expect(readGgufHeader(bytesSource(writeGgufHeader([], [], 1)))).rejects.toThrow('GGUF version 1');
    await expect(readGgufHeader(bytesSource(writeGgufHeader([], [], 0x03000000)))).rejects.toThrow('big-endian');
    expect((await readGgufHeader(bytesSource(writeGgufHeader([], [], 2)))).version).toBe(2);
  });

  it('caps a huge array and a huge string by their declared lengths, before reading them', async () => {
    const arr = writeGgufHeader([{ key: 'tokenizer.ggml.scores', type: 'array', elemType: 'f32', value: [1] }]);
    // patch the declared array length (8 bytes after the element type) to 2^40
    const at = arr.length - 4 - 8;
    new DataView(arr.buffer).setBigUint64(at, 1n << 40n, true);
    await expect(readGgufHeader(bytesSource(arr))).rejects.toThrow(`length of 'tokenizer.ggml.scores' at offset ${at} is 1099511627776, above the cap of ${GGUF_CAPS.arrayElements}`);
    const str = writeGgufHeader([{ key: 'general.name', type: 'string', value: 'x' }]);
    new DataView(str.buffer).setBigUint64(str.length - 1 - 8, 1n << 33n, true);
    await expect(readGgufHeader(bytesSource(str))).rejects.toThrow(`value of 'general.name' (string length) at offset ${str.length - 9} is 8589934592, above the cap of ${GGUF_CAPS.stringBytes}`);
    const counts = writeGgufHeader([]);
    new DataView(counts.buffer).setBigUint64(8, 1n << 50n, true);
    await expect(readGgufHeader(bytesSource(counts))).rejects.toThrow('tensor_count at offset 8 is 1125899906842624, above the cap');
  });

  it('refuses an unknown value type, a bad bool, a bad dimension count and a duplicate key', async () => {
    const t = writeGgufHeader([{ key: 'k', type: 'u8', value: 1 }]);
    new DataView(t.buffer).setUint32(t.length - 5, 99, true);
    await expect(readGgufHeader(bytesSource(t))).rejects.toThrow("type of 'k' at offset 33: unknown value type 99");
    const b = writeGgufHeader([{ key: 'k', type: 'bool', value: true }]);
    b[b.length - 1] = 7;
    await expect(readGgufHeader(bytesSource(b))).rejects.toThrow("value of 'k' at offset 37: a bool holds 7");
    const d = writeGgufHeader([], [{ name: 'w', ne: [1, 1, 1, 1], type: 0, offset: 0n }]);
    new DataView(d.buffer).setUint32(24 + 9, 5, true);
    await expect(readGgufHeader(bytesSource(d))).rejects.toThrow("tensor 'w' n_dimensions at offset 33 is 5, not 1..4");
    const dup = writeGgufHeader([{ key: 'k', type: 'u8', value: 1 }, { key: 'k', type: 'u8', value: 2 }]);
    await expect(readGgufHeader(bytesSource(dup))).rejects.toThrow("metadata key 'k' appears twice");
  });

  it('a counting source shows small files are read in one request', async () => {
    const src = counting(writeGgufHeader(LLAMA_KV as never, TENSORS));
    await readGgufHeader(src);
    expect(src.reads.length).toBe(1);
  });
});
