// Share links with the platform's real CompressionStream (Node 20 has it, as browsers do).
import { describe, expect, it } from 'vitest';
import { fromBase64Url, toBase64Url, crc32 } from './bytes';
import { RESULT_SCHEMA_VERSION } from './json';
import { sampleLane, sampleLevel1 } from '../../../test/fixtures/sample-results';
import { decodeShare, encodeShare, MAX_SHARE_CHARS, MAX_SHARE_JSON_BYTES, platformCodec, roundNumbers, SHARE_FORMAT_VERSION, SHARE_ROUNDING_DIGITS, SHARE_TARGET_CHARS, ShareLinkError, sharePayloadFromHash, shareRounding, shareUrl, type ShareErrorReason } from './share';

async function deflateRaw(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await new Response(new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(platformCodec.compress())).arrayBuffer());
}

/** Format 2's checksum input: the header's bytes, then the JSON's (format 1: the JSON only). */
function checked(header: string, json: Uint8Array, format: number): Uint8Array {
  if (format < 2) return json;
  const head = new TextEncoder().encode(header);
  const all = new Uint8Array(head.length + json.length);
  all.set(head);
  all.set(json, head.length);
  return all;
}

/** A link made by hand: raw deflate of `json`, then its CRC-32 (as encodeShare lays it out); `marker` e.g. '~7'. */
async function handMade(json: Uint8Array, crc?: number, format = SHARE_FORMAT_VERSION, marker = ''): Promise<string> {
  const header = `${format}${marker}.`;
  const deflated = await deflateRaw(json);
  const body = new Uint8Array(deflated.length + 4);
  body.set(deflated);
  new DataView(body.buffer).setUint32(deflated.length, crc ?? crc32(checked(header, json, format)));
  return `${header}${toBase64Url(body)}`;
}

async function refusal(payload: string): Promise<ShareLinkError> {
  try {
    await decodeShare(payload);
  } catch (e) {
    expect(e).toBeInstanceOf(ShareLinkError);
    return e as ShareLinkError;
  }
  throw new Error('the link was accepted');
}

async function expectRefused(payload: string, reason: ShareErrorReason, message: RegExp): Promise<void> {
  const e = await refusal(payload);
  expect([e.reason, e.message]).toEqual([reason, expect.stringMatching(message)]);
}

/** The lab's first four ops: issue 6's link budget (a full lane over them under 8 KB) is pinned on them. */
const FOUR_OPS = ['ADD', 'RMS_NORM', 'RMS_NORM_BACK', 'MUL_MAT'];

describe('base64url and CRC-32', () => {
  it('round-trips every length and refuses what is not canonical', () => {
    for (let n = 0; n < 40; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) & 255);
      const text = toBase64Url(bytes);
      expect(text).toMatch(/^[A-Za-z0-9_-]*$/);
      expect(fromBase64Url(text)).toEqual(bytes);
    }
    expect(fromBase64Url('ab+c')).toBeNull();
    expect(fromBase64Url('abcde')).toBeNull(); // a length no byte count gives
    expect(fromBase64Url('AA')).toEqual(Uint8Array.of(0));
    expect(fromBase64Url('AB')).toBeNull(); // non-zero leftover bits: not the canonical text of any bytes
  });

  it('computes the standard CRC-32', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  });
});

describe('share links', () => {
  it('round-trips a Level 1 result exactly', async () => {
    const result = sampleLevel1();
    const payload = await encodeShare(result);
    expect(payload).toMatch(/^2\.[A-Za-z0-9_-]+$/);
    expect(shareRounding(payload)).toBeNull();
    expect(JSON.stringify(await decodeShare(payload))).toBe(JSON.stringify(result));
  });

  it('rounds a result whose exact link is over 8 KB, to the most digits that fit, and says so', async () => {
    const lane = sampleLane({ ops: FOUR_OPS });
    const payload = await encodeShare(lane);
    const digits = shareRounding(payload);
    expect(digits).not.toBeNull();
    expect(SHARE_ROUNDING_DIGITS).toContain(digits);
    expect(payload.startsWith(`2~${digits}.`)).toBe(true);
    expect(payload.length).toBeLessThanOrEqual(SHARE_TARGET_CHARS);
    expect(JSON.stringify(await decodeShare(payload))).toBe(JSON.stringify(roundNumbers(lane, digits!)));
    // One more digit would not have fitted (the marker '~N' is two characters).
    const finer = SHARE_ROUNDING_DIGITS[SHARE_ROUNDING_DIGITS.indexOf(digits!) - 1] ?? 17;
    expect((await encodeShare(roundNumbers(lane, finer), platformCodec, undefined, Infinity)).length + 2).toBeGreaterThan(SHARE_TARGET_CHARS);
    expect(roundNumbers({ medianNs: 12_345.678_9, runs: 1200, speedups: [1.023_456_789] }, 6)).toEqual({ medianNs: 12_345.7, runs: 1200, speedups: [1.023_46] });
  });

  it('carries verdicts as computed, whatever the rounding', async () => {
    const lane = sampleLane();
    const decoded = await decodeShare(await encodeShare(lane));
    if (decoded.kind !== 'lane') throw new Error('kind');
    expect(decoded.pairs.map((p) => p.shapes.map((s) => s.verdict))).toEqual(lane.pairs.map((p) => p.shapes.map((s) => s.verdict)));
  });

  it('reads the payload from a location hash and builds the link on any base', async () => {
    const payload = await encodeShare(sampleLevel1());
    const url = shareUrl('http://127.0.0.1:4173/#/kernel', payload);
    expect(url).toBe(`http://127.0.0.1:4173/#r=${payload}`);
    expect(sharePayloadFromHash(new URL(url).hash)).toBe(payload);
    expect(sharePayloadFromHash('#/history')).toBeNull();
  });

  it('keeps a full lane over the four ops under 8 KB of URL', async () => {
    const lane = sampleLane({ ops: FOUR_OPS });
    expect(lane.pairs.map((p) => p.op)).toEqual(['ADD', 'RMS_NORM', 'RMS_NORM_BACK', 'MUL_MAT']);
    const url = shareUrl('http://127.0.0.1:4173/', await encodeShare(lane));
    expect(url.length).toBeLessThan(8 * 1024);
  });

  it('refuses a truncated link', async () => {
    const payload = await encodeShare(sampleLane());
    for (const keep of [0.2, 0.5, 0.9]) await expectRefused(payload.slice(0, Math.floor(payload.length * keep)), 'damaged', /damaged|cut/);
    await expectRefused('1.', 'damaged', /too short/);
  });

  it('refuses a tampered link: any one character changed', async () => {
    const payload = await encodeShare(sampleLevel1());
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    // Every position in the data, flipped to another valid character: never a silent wrong result.
    // A flip the inflater cannot see — the unused bits after deflate's end-of-block code, or the code
    // length of a symbol the data never uses — decodes to the same result, exactly: allowed, and rare.
    const same = JSON.stringify(await decodeShare(payload));
    const unchanged: number[] = [];
    for (let i = 2; i < payload.length; i++) {
      const c = payload[i];
      const altered = payload.slice(0, i) + alphabet[(alphabet.indexOf(c) + 17) % 64] + payload.slice(i + 1);
      const accepted = await decodeShare(altered).then((r) => r, () => null);
      if (accepted === null) expect(['damaged', 'invalid-result']).toContain((await refusal(altered)).reason);
      else {
        expect(JSON.stringify(accepted), `position ${i}`).toBe(same);
        unchanged.push(i);
      }
    }
    expect(unchanged.length, `flips that decoded unchanged (positions ${unchanged.join(', ')})`).toBeLessThanOrEqual(Math.ceil(payload.length / 100));
    await expectRefused(payload.slice(0, 5) + '!' + payload.slice(6), 'damaged', /not valid base64url/);
  });

  it('refuses a link whose data is not a result, naming the field', async () => {
    const json = new TextEncoder().encode(JSON.stringify({ ...sampleLevel1(), timing: { ...sampleLevel1().timing, medianNs: 'fast' } }));
    await expectRefused(await handMade(json), 'invalid-result', /timing\.medianNs: expected a number ≥ 0|timing\.medianNs: expected a finite number/);
    await expectRefused(await handMade(new TextEncoder().encode('{"kind":"pwn"}')), 'invalid-result', /kind: expected one of level1, lane, sweep, calibration/);
    await expectRefused(await handMade(new TextEncoder().encode('not json')), 'damaged', /not JSON/);
  });

  it('refuses an oversized link before decoding it', async () => {
    await expectRefused(`1.${'A'.repeat(MAX_SHARE_CHARS)}`, 'too-large', new RegExp(`over the ${MAX_SHARE_CHARS}-character cap`));
  });

  it('refuses a decompression bomb: a small link that inflates past the cap, stopped while streaming', async () => {
    // 64 MiB of spaces inside a valid-looking result deflates to ~64 KiB of link.
    const head = new TextEncoder().encode('{"kind":"level1","schemaVersion":1,"note":"');
    const bomb = new Uint8Array(head.length + 64 * 1024 * 1024);
    bomb.set(head);
    bomb.fill(0x20, head.length);
    const payload = await handMade(bomb);
    expect(payload.length).toBeLessThan(MAX_SHARE_CHARS);
    let produced = 0;
    const counting = {
      compress: platformCodec.compress,
      decompress: () => {
        const inner = platformCodec.decompress();
        const count = new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, ctl) {
            produced += chunk.byteLength;
            ctl.enqueue(chunk);
          },
        });
        return { writable: inner.writable, readable: inner.readable.pipeThrough(count) } as TransformStream<Uint8Array, Uint8Array>;
      },
    };
    const e = await decodeShare(payload, counting).catch((x) => x as ShareLinkError);
    expect(e).toBeInstanceOf(ShareLinkError);
    expect([(e as ShareLinkError).reason, (e as ShareLinkError).message]).toEqual(['too-large', expect.stringMatching(`inflates past ${MAX_SHARE_JSON_BYTES} bytes`)]);
    // Inflation stopped near the cap, far short of the 64 MiB the link holds.
    expect(produced).toBeLessThan(MAX_SHARE_JSON_BYTES + 1024 * 1024);
  });

  it('refuses a link from a newer lab: a future link format or a future result schema', async () => {
    const json = new TextEncoder().encode(JSON.stringify(sampleLevel1()));
    await expectRefused(await handMade(json, undefined, SHARE_FORMAT_VERSION + 1), 'future-version', /newer kernel-lab \(link format 3; this page reads format 2\)/);
    const future = new TextEncoder().encode(JSON.stringify({ ...sampleLevel1(), schemaVersion: RESULT_SCHEMA_VERSION + 1 }));
    await expectRefused(await handMade(future), 'future-version', /schema version 2, newer than this page reads/);
    await expectRefused('x.abc', 'malformed', /not a kernel-lab share link/);
    await expectRefused('0.abc', 'malformed', /link format 0 is not one this lab ever wrote \(it reads formats 1 and 2\)/);
  });

  it('refuses to make a link over the cap', async () => {
    const huge = sampleLevel1({ correctness: { ...sampleLevel1().correctness, failures: Array.from({ length: 5000 }, (_, i) => `element ${i * 7919}: ${Math.sin(i)} vs ${Math.cos(i)}`) } });
    await expect(encodeShare(huge, platformCodec, { maxChars: 4096, maxJsonBytes: MAX_SHARE_JSON_BYTES })).rejects.toThrow(/-character link, over the 4096-character cap: export it as a file instead/);
  });

  it('holds the rounding marker to its range, its checksum and its data', async () => {
    const exact = new TextEncoder().encode(JSON.stringify(sampleLevel1()));
    // A marker outside the digits this lab rounds to is refused by name ('~1' on exact data was believed).
    await expectRefused(await handMade(exact, undefined, 2, '~1'), 'malformed', /rounding marker '~1' is not one this lab writes \(it rounds to 9, 8, 7, 6 significant digits\)/);
    await expectRefused(await handMade(exact, undefined, 1, '~0'), 'malformed', /rounding marker '~0'/);
    // Format 2's checksum covers the header: adding, dropping or changing a marker breaks it.
    const lane = await encodeShare(sampleLane());
    const digits = shareRounding(lane)!;
    const other = SHARE_ROUNDING_DIGITS.find((d) => d !== digits)!;
    await expectRefused(lane.replace(`~${digits}.`, '.'), 'damaged', /checksum does not match/);
    await expectRefused(lane.replace(`~${digits}.`, `~${other}.`), 'damaged', /checksum does not match|rounded to \d significant digits, but it holds/);
    const plain = await encodeShare(sampleLevel1());
    await expectRefused(plain.replace('2.', '2~9.'), 'damaged', /checksum does not match/);
    // In any format, a marker the data belies is refused: 7 digits claimed, 12.345678901 held.
    const fine = new TextEncoder().encode(JSON.stringify({ ...roundNumbers(sampleLevel1(), 7), maxErr: 12.345678901 }));
    await expectRefused(await handMade(fine, undefined, 1, '~7'), 'damaged', /rounded to 7 significant digits, but it holds 12\.345678901/);
    await expectRefused(await handMade(fine, undefined, 2, '~7'), 'damaged', /rounded to 7 significant digits, but it holds 12\.345678901/);
  });

  it('still opens a format 1 link (checksum over the JSON only), exact or rounded', async () => {
    const json = new TextEncoder().encode(JSON.stringify(sampleLevel1()));
    expect(JSON.stringify(await decodeShare(await handMade(json, undefined, 1)))).toBe(JSON.stringify(sampleLevel1()));
    const rounded = roundNumbers(sampleLane(), 7);
    const old = await handMade(new TextEncoder().encode(JSON.stringify(rounded)), undefined, 1, '~7');
    expect(shareRounding(old)).toBe(7);
    expect(JSON.stringify(await decodeShare(old))).toBe(JSON.stringify(rounded));
  });
});
