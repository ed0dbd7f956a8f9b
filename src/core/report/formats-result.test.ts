// Formats runs on the one result schema (src/core/schema/results.ts): a real run recorded by
// `lab formats --json` on SwiftShader round-trips — validated, projected, shared by link and back —
// a tampered one is refused naming the field, and the PR markdown carries the link.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hostileFormats, linkFor } from '../../../test/fixtures/fuzz-corpus';
import { sampleFormats } from '../../../test/fixtures/sample-formats';
import { sampleAdapter, sampleLevel1 } from '../../../test/fixtures/sample-results';
import { ImportError, parseImport } from '../../storage/runs';
import { adapterName } from '../adapter';
import { formats, RESULT_SCHEMAS } from '../schema/results';
import { CODE_HASH, LAB_VERSION, RESULT_SCHEMA_VERSION, resultAdapter, type FormatsJson } from './json';
import { resultMarkdown } from './markdown';
import { decodeShare, encodeShare, ShareLinkError } from './share';
import { ResultShapeError, validateResult } from './validate';

const SWIFT = sampleAdapter();

const copy = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** `lab formats --op gemv --shape 32x2x64 --format q8_0,q4_0,q4_k,f16,mxfp4 --mmvq --min-runs 3 --json`, SwiftShader, written before formats joined the schema. */
const RECORDED = readFileSync(new URL('../../../test/fixtures/formats-swiftshader.json', import.meta.url), 'utf8');

describe('a formats run on the result schema', () => {
  it('a recorded run validates as it is, and its projection is itself, key for key', () => {
    const run = validateResult(JSON.parse(RECORDED)) as FormatsJson;
    expect(run).toMatchObject({ kind: 'formats', op: 'gemv', ggmlOp: 'MUL_MAT', shape: '32x2x64', schemaVersion: 1 });
    expect(run.rows.map((r) => `${r.format} ${r.scheduleKey?.split('{')[0] ?? r.reason?.slice(0, 29)}`)).toEqual(['f16 gemv', 'q8_0 mmvq', 'q4_0 mmvq', 'mxfp4 gemv', 'q8_0 gemv', 'q4_0 gemv', 'q4_k MUL_MAT 32x2x64: q4_k: K = 64']);
    expect(run.rows[1]).toMatchObject({ bitsPerWeight: 8.5, weightBytes: 2176, nmse: 5.724609396346458e-5, maxRelError: 0.2561690040054611, correct: true, medianNs: 3158200 });
    expect(resultAdapter(run)).toMatchObject({ vendor: 'google', architecture: 'swiftshader', runtime: 'node' });
    // The projection keeps every field in the runner's order: a file written before the schema is
    // the schema's JSON, but for the live adapter's WGSL language features, which no stored result
    // keeps (only the device at hand is asked for them).
    const recorded = JSON.parse(RECORDED);
    delete recorded.adapterDescriptor.wgslFeatures;
    expect(JSON.stringify(formats.project(run))).toBe(JSON.stringify(recorded));
    expect(RESULT_SCHEMAS.formats).toBe(formats);
  });

  it('the projection drops what the schema does not declare', () => {
    const withExtra = { ...sampleFormats(), wgsl: 'fn main() {}', rows: sampleFormats().rows.map((r) => ({ ...r, words: [1, 2, 3] })) };
    expect(formats.project(withExtra)).toEqual(sampleFormats());
  });

  it('every kind goes through validateResult; the adapter of a formats run is its descriptor', () => {
    expect(validateResult(copy(sampleFormats()))).toEqual(sampleFormats());
    expect(validateResult(copy(sampleLevel1())).kind).toBe('level1');
    expect(resultAdapter(sampleFormats())).toEqual(SWIFT);
    expect(resultAdapter(sampleLevel1())).toEqual(sampleLevel1().adapter);
  });

  it('refuses a tampered run, naming the field and the rule', () => {
    const bad = (edit: (r: Record<string, unknown> & { rows: Record<string, unknown>[] }) => void) => {
      const r = copy(JSON.parse(RECORDED)) as Record<string, unknown> & { rows: Record<string, unknown>[] };
      edit(r);
      return () => validateResult(r);
    };
    expect(bad((r) => (r.op = 'conv2d'))).toThrow(ResultShapeError);
    expect(bad((r) => (r.op = 'conv2d'))).toThrow("formats result: op: expected one of gemv, gemm, dequant, get_rows, got 'conv2d'");
    expect(bad((r) => (r.rows[0].bitsPerWeight = '16'))).toThrow("formats result: rows[0].bitsPerWeight: expected a finite number, got '16'");
    expect(bad((r) => (r.rows[2].nmse = 'tiny'))).toThrow("formats result: rows[2].nmse: expected a finite number, got 'tiny'");
    expect(bad((r) => (r.rows[3].medianNs = Infinity))).toThrow('formats result.rows[3].medianNs: a non-finite number');
    expect(bad((r) => (r.rows[3].bottleneck = 'gpu-bound'))).toThrow("formats result: rows[3].bottleneck: expected one of compute-bound, memory-bound, launch-bound, latency-bound, got 'gpu-bound'");
    expect(bad((r) => (r.rows[6].reason = 7))).toThrow('formats result: rows[6].reason: expected a string, got number 7');
    expect(bad((r) => (r.rows[6].reason = 'x'.repeat(2001)))).toThrow('formats result: rows[6].reason: 2001 characters, over the 2000-character cap');
    expect(bad((r) => (r.rows[6].reason = null))).toThrow('formats result: rows[6].reason: null on a row with no time (a format without a time says why)');
    expect(bad((r) => (r.startedAt = 'yesterday'))).toThrow("formats result: startedAt: expected an ISO date, got 'yesterday'");
    expect(bad((r) => (r.adapterDescriptor = 'x'))).toThrow("formats result: adapterDescriptor: expected an object, got 'x'");
    expect(bad((r) => delete r.codeHash)).toThrow('formats result: codeHash: missing (a formats run made before formats runs were stamped: rerun lab formats --json)');
    expect(bad((r) => (r.schemaVersion = RESULT_SCHEMA_VERSION + 1))).toThrow(/newer than this lab reads/);
    // A wrong format with no time needs no reason beyond its verdict.
    expect(bad((r) => Object.assign(r.rows[0], { correct: false, medianNs: null, reason: null }))).not.toThrow();
  });

  it('shares by link and back; a link altered on its way is refused by name', async () => {
    const run = validateResult(JSON.parse(RECORDED));
    const payload = await encodeShare(run);
    expect(await decodeShare(payload)).toEqual(run);
    const i = payload.length - 10;
    const altered = payload.slice(0, i) + (payload[i] === 'A' ? 'B' : 'A') + payload.slice(i + 1);
    await expect(decodeShare(altered)).rejects.toThrow(ShareLinkError);
  });

  it('hostile formats runs: a link and an import each refuse them, naming the field', async () => {
    for (const [what, run, field] of hostileFormats()) {
      // Written raw (as a forger would): the lab's own encoder refuses what is over a link's cap.
      const link = await linkFor(JSON.stringify(run));
      await expect(decodeShare(link), what).rejects.toThrow(ShareLinkError);
      await expect(decodeShare(link), what).rejects.toThrow(field);
      expect(() => parseImport(JSON.parse(JSON.stringify(run))), what).toThrow(ImportError);
      expect(() => parseImport(JSON.parse(JSON.stringify(run))), what).toThrow(field);
    }
    // NaN stays NaN in memory (a stored record in IndexedDB keeps it): named as what it is.
    expect(() => validateResult({ ...sampleFormats(), rows: [{ ...sampleFormats().rows[0], weightBytes: NaN }] })).toThrow('formats result.rows[0].weightBytes: a non-finite number');
  });

  it('PR markdown: the table, the stamps and the link last; text from the run stays on its line', () => {
    const md = resultMarkdown(sampleFormats(), 'http://127.0.0.1:4304/#r=2.x');
    const lines = md.split('\n');
    expect(lines[0]).toBe(`### Formats: gemm (MUL_MAT 32x16x64) on ${adapterName(SWIFT)}`);
    expect(md).toContain(`Fastest first · kernel-lab ${LAB_VERSION} (code ${CODE_HASH}).`);
    expect(md).toContain('| q4_0 | 4.5 | 7.06 ms [7.06 ms–7.06 ms] |');
    expect(md).toContain('| q4_k | 4.5 | — |');
    expect(lines.filter(Boolean).pop()).toBe('[Open this result in kernel-lab](http://127.0.0.1:4304/#r=2.x)');
    const forged = { ...sampleFormats(), rows: [{ ...sampleFormats().rows[1], format: 'q4_k\n# owned', reason: '<img src=x> | cell' }] };
    const evil = resultMarkdown(forged);
    expect(evil).toContain('| q4_k # owned |');
    expect(evil).toContain('&lt;img src=x&gt; \\| cell |');
    expect(evil.split('\n').filter((l) => l.startsWith('#'))).toHaveLength(1);
  });
});
