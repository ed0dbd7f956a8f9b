// Share links: a result JSON, raw-deflated, with a CRC-32, in base64url, behind a format
// version: `#r=2.<data>`. A result whose link would pass 8 KB travels with its non-integer
// numbers rounded to the most significant digits that fit (at least 6), and the link says so:
// `#r=2~7.<data>`. Since format 2 the checksum covers that header too (format and rounding
// marker), so a marker cannot be added, dropped or changed; a marker is range-checked and held
// against the data (no number may carry more digits than it claims) in every format. Decoding
// caps both the link's size and the inflated size (counted while streaming, so a decompression
// bomb stops at the cap), checks the checksum, then the result's structure and caps. Pure
// given a compression implementation: the page, the CLI (Node 20) and vitest all pass the
// platform's CompressionStream.
import { LabError } from '../errors';
import { crc32, fromBase64Url, toBase64Url } from './bytes';
import type { ResultJson } from './json';
import { isFutureSchema, validateResult } from './validate';

/**
 * The link format this lab writes; a newer one is refused by name. 2: the checksum covers the
 * header (`2~7.`) as well as the JSON. Format 1 links (checksum over the JSON only) still open.
 */
export const SHARE_FORMAT_VERSION = 2;
/** Formats this lab reads: its own and the ones it wrote before. */
export const SHARE_FORMATS_READ: readonly number[] = [1, 2];
/** Cap on the link's data (base64url characters): refused before anything is decoded. */
export const MAX_SHARE_CHARS = 128 * 1024;
/** Cap on the inflated JSON: a small link that inflates past this is a bomb. */
export const MAX_SHARE_JSON_BYTES = 2 * 1024 * 1024;
/**
 * A link longer than this (its data, leaving room for the page's address) is shortened by
 * rounding: URLs stay under 8 KB, which chat and code-review tools carry whole.
 */
export const SHARE_TARGET_CHARS = 8 * 1024 - 256;
/**
 * Significant digits tried, in order, when the exact link is over the target: each finer than
 * the timers' resolution and the run-to-run spread. Verdicts travel as computed, never
 * recomputed from rounded numbers.
 */
export const SHARE_ROUNDING_DIGITS: readonly number[] = [9, 8, 7, 6];
/** The fragment key: `#r=…`. */
export const SHARE_HASH_PREFIX = '#r=';

export type ShareErrorReason = 'malformed' | 'future-version' | 'too-large' | 'damaged' | 'invalid-result';

export class ShareLinkError extends LabError {
  override name = 'ShareLinkError';
  constructor(
    readonly reason: ShareErrorReason,
    message: string,
  ) {
    super(message);
  }
}

/** Makes the deflate-raw transform streams; the platform's CompressionStream by default. */
export interface ShareCodec {
  compress(): TransformStream<Uint8Array, Uint8Array>;
  decompress(): TransformStream<Uint8Array, Uint8Array>;
}

export const platformCodec: ShareCodec = {
  compress: () => new CompressionStream('deflate-raw') as unknown as TransformStream<Uint8Array, Uint8Array>,
  decompress: () => new DecompressionStream('deflate-raw') as unknown as TransformStream<Uint8Array, Uint8Array>,
};

export interface ShareCaps {
  readonly maxChars: number;
  readonly maxJsonBytes: number;
}

const DEFAULT_CAPS: ShareCaps = { maxChars: MAX_SHARE_CHARS, maxJsonBytes: MAX_SHARE_JSON_BYTES };

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.byteLength;
  }
  return out;
}

/**
 * Feeds bytes through a transform and reads its output, stopping (and cancelling the
 * transform) as soon as more than maxOut bytes came out: nothing past the cap is produced.
 */
async function transform(bytes: Uint8Array, stream: TransformStream<Uint8Array, Uint8Array>, maxOut: number, onOver: () => Error): Promise<Uint8Array> {
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  // Errors of the writing side surface on the reading side; this only keeps them from going unhandled.
  writer
    .write(bytes)
    .then(() => writer.close())
    .catch(() => undefined);
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxOut) {
      await reader.cancel().catch(() => undefined);
      throw onOver();
    }
    chunks.push(value);
  }
  return concat(chunks, total);
}

/** The same JSON with every non-integer rounded to `digits` significant digits. */
export function roundNumbers<T>(value: T, digits: number): T {
  return JSON.parse(JSON.stringify(value), (_k, v) => (typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(digits)) : v));
}

async function encodeJson(value: unknown, digits: number | null, codec: ShareCodec, caps: ShareCaps): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify(value));
  if (json.byteLength > caps.maxJsonBytes) throw new ShareLinkError('too-large', `this result is ${json.byteLength} bytes of JSON, over the ${caps.maxJsonBytes}-byte cap of a share link: export it as a file instead`);
  const deflated = await transform(json, codec.compress(), Number.MAX_SAFE_INTEGER, () => new Error('unreachable'));
  const header = `${SHARE_FORMAT_VERSION}${digits === null ? '' : `~${digits}`}.`;
  const body = new Uint8Array(deflated.byteLength + 4);
  body.set(deflated);
  new DataView(body.buffer).setUint32(deflated.byteLength, checksum(SHARE_FORMAT_VERSION, header, json));
  return `${header}${toBase64Url(body)}`;
}

/**
 * The link's data for a result: exact (`2.<data>`) when it fits the target, else rounded to
 * the most digits that fit (`2~7.<data>`); refused when even the roundest is over the cap.
 */
export async function encodeShare(result: ResultJson | { readonly kind: string }, codec: ShareCodec = platformCodec, caps: ShareCaps = DEFAULT_CAPS, targetChars = SHARE_TARGET_CHARS): Promise<string> {
  let payload = await encodeJson(result, null, codec, caps);
  for (const digits of SHARE_ROUNDING_DIGITS) {
    if (payload.length <= targetChars) break;
    payload = await encodeJson(roundNumbers(result, digits), digits, codec, caps);
  }
  if (payload.length > caps.maxChars) throw new ShareLinkError('too-large', `this result needs a ${payload.length}-character link, over the ${caps.maxChars}-character cap: export it as a file instead`);
  return payload;
}

/** Format 2's checksum covers the header's bytes, then the JSON's; format 1's the JSON's only. */
function checksum(format: number, header: string, json: Uint8Array): number {
  if (format < 2) return crc32(json);
  const head = new TextEncoder().encode(header);
  const all = new Uint8Array(head.byteLength + json.byteLength);
  all.set(head);
  all.set(json, head.byteLength);
  return crc32(all);
}

/** The significant digits a link's numbers were rounded to, or null when they are exact (or the marker is out of range). */
export function shareRounding(payload: string): number | null {
  const m = /^\d{1,6}~(\d{1,2})\./.exec(payload);
  return m && SHARE_ROUNDING_DIGITS.includes(Number(m[1])) ? Number(m[1]) : null;
}

/** The first number in the JSON with more significant digits than `digits` (a marker the data belies), or null. */
function finerThan(value: unknown, digits: number): number | null {
  const stack = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'number') {
      if (!Number.isInteger(v) && Number(v.toPrecision(digits)) !== v) return v;
    } else if (v && typeof v === 'object') {
      for (const x of Array.isArray(v) ? v : Object.values(v)) stack.push(x);
    }
  }
  return null;
}

/** The full link: the page's address without its fragment, then `#r=<data>`. */
export function shareUrl(base: string, payload: string): string {
  return `${base.split('#')[0]}${SHARE_HASH_PREFIX}${payload}`;
}

/** The link data in a location hash, or null when the hash is not a share link. */
export function sharePayloadFromHash(hash: string): string | null {
  return hash.startsWith(SHARE_HASH_PREFIX) ? hash.slice(SHARE_HASH_PREFIX.length) : null;
}

/** The result a link carries, or a ShareLinkError that says what is wrong with the link. */
/** `validate` checks what the link carries (a result by default; the Report view passes its own). */
export async function decodeShare<T = ResultJson>(payload: string, codec: ShareCodec = platformCodec, caps: ShareCaps = DEFAULT_CAPS, validate: (v: unknown) => T = validateResult as (v: unknown) => T): Promise<T> {
  if (payload.length > caps.maxChars) throw new ShareLinkError('too-large', `the link carries ${payload.length} characters of data, over the ${caps.maxChars}-character cap: refused without reading it`);
  const match = /^((\d{1,6})(?:~(\d{1,2}))?\.)(.*)$/s.exec(payload);
  if (!match) throw new ShareLinkError('malformed', `not a kernel-lab share link: expected '${SHARE_HASH_PREFIX}<format>.<data>' with base64url data`);
  const [, header, formatText, digitsText, data] = match;
  const format = Number(formatText);
  if (format > SHARE_FORMAT_VERSION) throw new ShareLinkError('future-version', `this link was made by a newer kernel-lab (link format ${format}; this page reads format ${SHARE_FORMAT_VERSION}): open it with the lab that made it`);
  if (!SHARE_FORMATS_READ.includes(format)) throw new ShareLinkError('malformed', `link format ${format} is not one this lab ever wrote (it reads formats ${SHARE_FORMATS_READ.join(' and ')})`);
  const digits = digitsText === undefined ? null : Number(digitsText);
  if (digits !== null && !SHARE_ROUNDING_DIGITS.includes(digits)) throw new ShareLinkError('malformed', `the link's rounding marker '~${digitsText}' is not one this lab writes (it rounds to ${SHARE_ROUNDING_DIGITS.join(', ')} significant digits): the link was altered`);
  const body = fromBase64Url(data);
  if (!body) throw new ShareLinkError('damaged', 'the link is damaged: its data is not valid base64url (a character was changed or the link was cut)');
  if (body.byteLength < 5) throw new ShareLinkError('damaged', 'the link is damaged: its data is too short to hold a result (the link was cut)');
  const expectedCrc = new DataView(body.buffer, body.byteOffset, body.byteLength).getUint32(body.byteLength - 4);
  let json: Uint8Array;
  try {
    json = await transform(body.subarray(0, body.byteLength - 4), codec.decompress(), caps.maxJsonBytes, () => new ShareLinkError('too-large', `the link inflates past ${caps.maxJsonBytes} bytes, the cap on a shared result: refused (a damaged or hostile link)`));
  } catch (e) {
    if (e instanceof ShareLinkError) throw e;
    throw new ShareLinkError('damaged', `the link is damaged (cut short or altered): its data does not decompress (${(e as Error).message || 'invalid deflate data'})`);
  }
  if (checksum(format, header, json) !== expectedCrc) throw new ShareLinkError('damaged', 'the link is damaged (cut short or altered): its checksum does not match its data');
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(json));
  } catch (e) {
    throw new ShareLinkError('damaged', `the link's data is not JSON: ${(e as Error).message}`);
  }
  const finer = digits === null ? null : finerThan(value, digits);
  if (finer !== null) throw new ShareLinkError('damaged', `the link says its numbers were rounded to ${digits} significant digits, but it holds ${finer}: the marker was altered`);
  if (isFutureSchema(value)) throw new ShareLinkError('future-version', `this result has schema version ${(value as { schemaVersion: number }).schemaVersion}, newer than this page reads: open it with the lab that made it`);
  try {
    return validate(value);
  } catch (e) {
    throw new ShareLinkError('invalid-result', `the link holds no valid result: ${(e as Error).message}`);
  }
}
