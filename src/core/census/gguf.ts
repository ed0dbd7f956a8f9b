// GGUF header reading: the metadata key/values and the tensor infos, by ranged reads of a
// ByteSource (a Blob's slice in the page, a file handle in Node), so a 7 GB model opens without
// its tensor data being read. Written here rather than taking @huggingface/gguf (0.4.6): that
// package reads through fetch() of a URL and pulls in @huggingface/tasks, where the lab needs a
// Blob or a file handle, caps on every length, and errors that name the field and the offset.
// Format: ggml's docs/gguf.md (little-endian, versions 2 and 3).
import { LabError } from '../errors';
import { GGUF_TENSOR_CAPS } from '../input/caps';

/** A GGUF file that cannot be read: names the field and the byte offset. */
export class GgufError extends LabError {
  override name = 'GgufError';
}

/** Random access to the file's bytes; read may return fewer bytes only at the end. */
export interface ByteSource {
  readonly sizeBytes: number;
  read(offset: number, length: number): Promise<Uint8Array>;
}

/** A Blob (a File from a picker or a drop) as a ByteSource: each read is one slice. */
export function blobSource(blob: Blob): ByteSource {
  return {
    sizeBytes: blob.size,
    read: async (offset, length) => new Uint8Array(await blob.slice(offset, Math.min(blob.size, offset + length)).arrayBuffer()),
  };
}

/** An in-memory file (tests, small files). */
export function bytesSource(bytes: Uint8Array): ByteSource {
  return { sizeBytes: bytes.length, read: async (offset, length) => bytes.subarray(offset, Math.min(bytes.length, offset + length)) };
}

export const GGUF_CAPS = {
  /** Bytes of one string (a key, a value, a tensor name). */
  stringBytes: 1 << 20,
  /** Elements of one metadata array (a 256k-token vocabulary fits). */
  arrayElements: 1 << 22,
  kvCount: 1 << 16,
  tensorCount: 1 << 20,
  /** Bytes of the whole header read before giving up. */
  headerBytes: 512 * 1024 * 1024,
  /**
   * Elements of all metadata arrays together: a tokenizer's tokens, scores, types and merges
   * (4 × 256k) fit many times over; 100 arrays of 2^22 (under the header cap) would be 400M
   * values held as JS numbers, gigabytes.
   */
  arrayElementsTotal: 1 << 23,
  /** A tensor's dimensions (each ne) and elements (their product). */
  tensorDim: GGUF_TENSOR_CAPS.dim,
  tensorElements: GGUF_TENSOR_CAPS.elements,
} as const;

/** Bytes of each fixed-size value type (string and array have none). */
const SCALAR_BYTES: Partial<Record<GgufValueType, number>> = { u8: 1, i8: 1, u16: 2, i16: 2, u32: 4, i32: 4, f32: 4, bool: 1, u64: 8, i64: 8, f64: 8 };

/** One fixed-size value at `at` of a DataView (a bool's byte is checked by the caller). */
function decodeScalar(dv: DataView, type: GgufValueType, at: number): GgufScalar {
  switch (type) {
    case 'u8': return dv.getUint8(at);
    case 'i8': return dv.getInt8(at);
    case 'u16': return dv.getUint16(at, true);
    case 'i16': return dv.getInt16(at, true);
    case 'u32': return dv.getUint32(at, true);
    case 'i32': return dv.getInt32(at, true);
    case 'f32': return dv.getFloat32(at, true);
    case 'bool': return dv.getUint8(at) === 1;
    case 'u64': return dv.getBigUint64(at, true);
    case 'i64': return dv.getBigInt64(at, true);
    case 'f64': return dv.getFloat64(at, true);
    default: throw new GgufError(`${type} is not a fixed-size value`);
  }
}

export const GGUF_MAGIC = 0x46554747; // "GGUF" read as a little-endian u32
export const GGUF_VERSIONS = [2, 3] as const;
export const GGUF_DEFAULT_ALIGNMENT = 32;

/** Metadata value types, by their number in the file. */
export const GGUF_VALUE_TYPES = ['u8', 'i8', 'u16', 'i16', 'u32', 'i32', 'f32', 'bool', 'string', 'array', 'u64', 'i64', 'f64'] as const;
export type GgufValueType = (typeof GGUF_VALUE_TYPES)[number];
export type GgufScalar = number | bigint | boolean | string;
export type GgufValue = GgufScalar | GgufScalar[];

export interface GgufTensorInfo {
  readonly name: string;
  /** ne0..ne(n-1), fastest first, as numbers (a dimension past 2^53 is refused). */
  readonly ne: readonly number[];
  /** ggml_type number (0 = F32, 1 = F16, …). */
  readonly type: number;
  /** Offset of the data from the start of the data section. */
  readonly offset: bigint;
}

export interface GgufHeader {
  readonly version: number;
  readonly metadata: ReadonlyMap<string, GgufValue>;
  readonly types: ReadonlyMap<string, GgufValueType>;
  readonly tensors: readonly GgufTensorInfo[];
  readonly alignment: number;
  /** Bytes of the header (where the data section's padding starts). */
  readonly headerBytes: number;
}

const CHUNK_BYTES = 1 << 20;
const UTF8 = new TextDecoder('utf-8', { fatal: false });

/** A forward cursor over a ByteSource with a read-ahead buffer. */
class Cursor {
  private buf: Uint8Array = new Uint8Array(0);
  private bufStart = 0;
  pos = 0;
  constructor(private readonly src: ByteSource) {}

  private async ensure(n: number, field: string): Promise<DataView> {
    if (this.pos + n > this.src.sizeBytes) throw new GgufError(`truncated file: ${field} at offset ${this.pos} needs ${n} bytes, the file has ${this.src.sizeBytes}`);
    if (this.pos + n > GGUF_CAPS.headerBytes) throw new GgufError(`${field} at offset ${this.pos}: the header runs past ${GGUF_CAPS.headerBytes} bytes, the cap`);
    if (this.pos < this.bufStart || this.pos + n > this.bufStart + this.buf.length) {
      const want = Math.max(n, CHUNK_BYTES);
      const got = await this.src.read(this.pos, want);
      if (got.length < Math.min(want, this.src.sizeBytes - this.pos)) throw new GgufError(`truncated read: ${field} at offset ${this.pos}: got ${got.length} bytes`);
      this.buf = got;
      this.bufStart = this.pos;
    }
    const at = this.pos - this.bufStart;
    this.pos += n;
    return new DataView(this.buf.buffer, this.buf.byteOffset + at, n);
  }

  async u32(field: string): Promise<number> {
    return (await this.ensure(4, field)).getUint32(0, true);
  }
  async u64(field: string): Promise<bigint> {
    return (await this.ensure(8, field)).getBigUint64(0, true);
  }
  /** A u64 count or size, refused above `cap`. */
  async count(field: string, cap: number): Promise<number> {
    const at = this.pos;
    const n = await this.u64(field);
    if (n > BigInt(cap)) throw new GgufError(`${field} at offset ${at} is ${n}, above the cap of ${cap}`);
    return Number(n);
  }
  /**
   * A string read from the buffer without awaiting, or null (nothing consumed) when its bytes
   * are not all there or it is over the cap: the caller then takes the checked, awaited path.
   * A vocabulary of 256k tokens is read this way, not with 256k awaits.
   */
  stringSync(): string | null {
    const at = this.pos - this.bufStart;
    if (this.pos < this.bufStart || at + 8 > this.buf.length) return null;
    const n = new DataView(this.buf.buffer, this.buf.byteOffset + at, 8).getBigUint64(0, true);
    if (n > BigInt(GGUF_CAPS.stringBytes) || at + 8 + Number(n) > this.buf.length || this.pos + 8 + Number(n) > GGUF_CAPS.headerBytes) return null;
    this.pos += 8 + Number(n);
    return UTF8.decode(this.buf.subarray(at + 8, at + 8 + Number(n)));
  }
  /** `n` fixed-size values in one read (an array of 2^22 u8 is one slice, not 2^22 awaits). */
  async scalars(type: GgufValueType, n: number, field: string): Promise<GgufScalar[]> {
    const size = SCALAR_BYTES[type]!;
    const at = this.pos;
    const dv = await this.ensure(n * size, field);
    const out: GgufScalar[] = new Array(n);
    for (let j = 0; j < n; j++) {
      if (type === 'bool' && dv.getUint8(j) > 1) throw new GgufError(`${field}[${j}] at offset ${at + j}: a bool holds ${dv.getUint8(j)}`);
      out[j] = decodeScalar(dv, type, j * size);
    }
    return out;
  }
  async string(field: string): Promise<string> {
    const n = await this.count(`${field} (string length)`, GGUF_CAPS.stringBytes);
    const v = await this.ensure(n, field);
    return UTF8.decode(new Uint8Array(v.buffer, v.byteOffset, n));
  }
  async scalar(type: GgufValueType, field: string): Promise<GgufScalar> {
    switch (type) {
      case 'u8': return (await this.ensure(1, field)).getUint8(0);
      case 'i8': return (await this.ensure(1, field)).getInt8(0);
      case 'u16': return (await this.ensure(2, field)).getUint16(0, true);
      case 'i16': return (await this.ensure(2, field)).getInt16(0, true);
      case 'u32': return (await this.ensure(4, field)).getUint32(0, true);
      case 'i32': return (await this.ensure(4, field)).getInt32(0, true);
      case 'f32': return (await this.ensure(4, field)).getFloat32(0, true);
      case 'bool': {
        const at = this.pos;
        const b = (await this.ensure(1, field)).getUint8(0);
        if (b > 1) throw new GgufError(`${field} at offset ${at}: a bool holds ${b}`);
        return b === 1;
      }
      case 'string': return this.string(field);
      case 'u64': return (await this.ensure(8, field)).getBigUint64(0, true);
      case 'i64': return (await this.ensure(8, field)).getBigInt64(0, true);
      case 'f64': return (await this.ensure(8, field)).getFloat64(0, true);
      case 'array': throw new GgufError(`${field} at offset ${this.pos}: an array inside an array`);
    }
  }
  async valueType(field: string): Promise<GgufValueType> {
    const at = this.pos;
    const t = await this.u32(field);
    const type = GGUF_VALUE_TYPES[t];
    if (type === undefined) throw new GgufError(`${field} at offset ${at}: unknown value type ${t}`);
    return type;
  }
}

/** Reads the header of a GGUF file: metadata and tensor infos; the tensor data is never read. */
export async function readGgufHeader(src: ByteSource): Promise<GgufHeader> {
  const c = new Cursor(src);
  const magic = await c.u32('magic');
  if (magic !== GGUF_MAGIC) throw new GgufError(`not a GGUF file: magic at offset 0 is 0x${magic.toString(16).padStart(8, '0')}, not 'GGUF'`);
  const version = await c.u32('version');
  if (version > 0xffff && (version & 0xffff) === 0) throw new GgufError(`version at offset 4 is ${version}: a big-endian GGUF file, which the lab does not read`);
  if (version > GGUF_VERSIONS[GGUF_VERSIONS.length - 1]) throw new GgufError(`version at offset 4 is ${version}, newer than the GGUF versions this reader knows (${GGUF_VERSIONS.join(', ')})`);
  if (!(GGUF_VERSIONS as readonly number[]).includes(version)) throw new GgufError(`version at offset 4 is ${version}: GGUF version 1 (32-bit counts) is not read`);
  const tensorCount = await c.count('tensor_count', GGUF_CAPS.tensorCount);
  const kvCount = await c.count('metadata_kv_count', GGUF_CAPS.kvCount);
  const metadata = new Map<string, GgufValue>();
  const types = new Map<string, GgufValueType>();
  let arrayElements = 0;
  for (let i = 0; i < kvCount; i++) {
    const key = await c.string(`metadata key ${i}`);
    if (metadata.has(key)) throw new GgufError(`metadata key '${key}' appears twice (before offset ${c.pos})`);
    const type = await c.valueType(`type of '${key}'`);
    types.set(key, type);
    if (type !== 'array') {
      metadata.set(key, await c.scalar(type, `value of '${key}'`));
      continue;
    }
    const elemType = await c.valueType(`element type of '${key}'`);
    const lengthAt = c.pos;
    const n = await c.count(`length of '${key}'`, GGUF_CAPS.arrayElements);
    arrayElements += n;
    if (arrayElements > GGUF_CAPS.arrayElementsTotal) throw new GgufError(`length of '${key}' at offset ${lengthAt} is ${n}: the metadata arrays would hold ${arrayElements} elements in all, above the cap of ${GGUF_CAPS.arrayElementsTotal}`);
    if (elemType === 'array') throw new GgufError(`element type of '${key}': an array inside an array`);
    let values: GgufScalar[];
    if (elemType === 'string') {
      values = new Array(n);
      for (let j = 0; j < n; j++) values[j] = c.stringSync() ?? (await c.string(`'${key}'[${j}]`));
    } else values = await c.scalars(elemType, n, `'${key}'`);
    metadata.set(key, values);
  }
  const tensors: GgufTensorInfo[] = [];
  for (let i = 0; i < tensorCount; i++) {
    const name = await c.string(`tensor ${i} name`);
    const at = c.pos;
    const nDims = await c.u32(`tensor '${name}' n_dimensions`);
    if (nDims < 1 || nDims > 4) throw new GgufError(`tensor '${name}' n_dimensions at offset ${at} is ${nDims}, not 1..4`);
    const ne: number[] = [];
    let elements = 1n;
    for (let d = 0; d < nDims; d++) {
      const dAt = c.pos;
      const v = await c.u64(`tensor '${name}' ne${d}`);
      if (v === 0n) throw new GgufError(`tensor '${name}' ne${d} at offset ${dAt} is 0`);
      if (v > BigInt(GGUF_CAPS.tensorDim)) throw new GgufError(`tensor '${name}' ne${d} at offset ${dAt} is ${v}, above the cap of 2^32 per dimension`);
      elements *= v;
      if (elements > BigInt(GGUF_CAPS.tensorElements)) throw new GgufError(`tensor '${name}' at offset ${at}: ${[...ne, Number(v)].join(' × ')} is ${elements} elements, above the cap of 2^40 per tensor`);
      ne.push(Number(v));
    }
    const type = await c.u32(`tensor '${name}' type`);
    const offset = await c.u64(`tensor '${name}' offset`);
    tensors.push(Object.freeze({ name, ne: Object.freeze(ne), type, offset }));
  }
  const alignValue = metadata.get('general.alignment');
  const alignment = alignValue === undefined ? GGUF_DEFAULT_ALIGNMENT : Number(alignValue);
  if (!Number.isInteger(alignment) || alignment < 1 || (alignment & (alignment - 1)) !== 0) throw new GgufError(`general.alignment is ${String(alignValue)}, not a power of two`);
  return Object.freeze({ version, metadata, types, tensors: Object.freeze(tensors), alignment, headerBytes: c.pos });
}

/** Writes a GGUF header (tests, and the lab's own model files): values typed by `types`. */
export function writeGgufHeader(entries: readonly { key: string; type: GgufValueType; value: GgufValue; elemType?: GgufValueType }[], tensors: readonly GgufTensorInfo[] = [], version = 3): Uint8Array {
  const parts: number[] = [];
  const dv = new DataView(new ArrayBuffer(8));
  const put = (n: number) => {
    for (let i = 0; i < n; i++) parts.push(dv.getUint8(i));
  };
  const u32 = (v: number) => (dv.setUint32(0, v, true), put(4));
  const u64 = (v: bigint | number) => (dv.setBigUint64(0, BigInt(v), true), put(8));
  const str = (s: string) => {
    const b = new TextEncoder().encode(s);
    u64(b.length);
    parts.push(...b);
  };
  const scalar = (t: GgufValueType, v: GgufScalar) => {
    switch (t) {
      case 'u8': return (dv.setUint8(0, Number(v)), put(1));
      case 'i8': return (dv.setInt8(0, Number(v)), put(1));
      case 'u16': return (dv.setUint16(0, Number(v), true), put(2));
      case 'i16': return (dv.setInt16(0, Number(v), true), put(2));
      case 'u32': return u32(Number(v));
      case 'i32': return (dv.setInt32(0, Number(v), true), put(4));
      case 'f32': return (dv.setFloat32(0, Number(v), true), put(4));
      case 'bool': return parts.push(v ? 1 : 0);
      case 'string': return str(String(v));
      case 'u64': return u64(BigInt(v as number));
      case 'i64': return (dv.setBigInt64(0, BigInt(v as number), true), put(8));
      case 'f64': return (dv.setFloat64(0, Number(v), true), put(8));
      case 'array': throw new Error('nested array');
    }
  };
  u32(GGUF_MAGIC);
  u32(version);
  u64(tensors.length);
  u64(entries.length);
  for (const e of entries) {
    str(e.key);
    u32(GGUF_VALUE_TYPES.indexOf(e.type));
    if (e.type === 'array') {
      const arr = e.value as GgufScalar[];
      u32(GGUF_VALUE_TYPES.indexOf(e.elemType!));
      u64(arr.length);
      for (const v of arr) scalar(e.elemType!, v);
    } else scalar(e.type, e.value as GgufScalar);
  }
  for (const t of tensors) {
    str(t.name);
    u32(t.ne.length);
    for (const d of t.ne) u64(d);
    u32(t.type);
    u64(t.offset);
  }
  return new Uint8Array(parts);
}
