// Formats runs as the page takes them: checked field by field (a share link or an import is never
// trusted), shared by link and back, and their PR markdown with the link.
import { describe, expect, it } from 'vitest';
import { sampleAdapter, sampleLevel1 } from '../../../test/fixtures/sample-results';
import { adapterName } from '../adapter';
import { sampleFormats } from '../../../test/fixtures/sample-formats';
import { CODE_HASH, LAB_VERSION, RESULT_SCHEMA_VERSION } from './json';
import { labResultMarkdown, resultAdapter, validateFormatsResult, validateLabResult, type FormatsRun } from './lab-result';
import { decodeShare, encodeShare, ShareLinkError } from './share';

const SWIFT = sampleAdapter();

const copy = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

describe('formats results on the page', () => {
  it('a formats run and every other kind pass validateLabResult; the adapter is its descriptor', () => {
    expect(validateLabResult(copy(sampleFormats()))).toEqual(sampleFormats());
    expect(validateLabResult(copy(sampleLevel1())).kind).toBe('level1');
    expect(resultAdapter(sampleFormats())).toEqual(SWIFT);
    expect(resultAdapter(sampleLevel1())).toEqual(sampleLevel1().adapter);
  });

  it('refuses a formats run whose fields the page could not show, naming the field', () => {
    const bad = (edit: (r: Record<string, unknown> & { rows: Record<string, unknown>[] }) => void) => {
      const r = copy(sampleFormats()) as unknown as Record<string, unknown> & { rows: Record<string, unknown>[] };
      edit(r);
      return () => validateFormatsResult(r);
    };
    expect(bad((r) => (r.op = 'conv2d'))).toThrow(/formats result: op must be one of gemv, gemm, dequant, get_rows/);
    expect(bad((r) => (r.rows[0].bitsPerWeight = '4.5'))).toThrow(/rows\[0\]\.bitsPerWeight must be a finite number ≥ 0/);
    expect(bad((r) => (r.rows[0].nmse = 'tiny'))).toThrow(/rows\[0\]\.nmse must be a finite number or null/);
    expect(bad((r) => (r.rows[1].reason = 7))).toThrow(/rows\[1\]\.reason must be a string of at most 2000 characters, or null/);
    expect(bad((r) => (r.rows[1].reason = null))).toThrow(/rows\[1\] has neither a time nor a reason/);
    expect(bad((r) => (r.startedAt = 'yesterday'))).toThrow(/startedAt/);
    expect(bad((r) => (r.adapterDescriptor = 'x'))).toThrow(/adapterDescriptor/);
    expect(bad((r) => (r.schemaVersion = RESULT_SCHEMA_VERSION + 1))).toThrow(/newer than this lab reads/);
  });

  it('shares by link and back; a link altered on its way is refused by name', async () => {
    const run = sampleFormats();
    const payload = await encodeShare(run);
    expect(await decodeShare(payload, undefined, undefined, validateLabResult)).toEqual(run);
    const i = payload.length - 10;
    const altered = payload.slice(0, i) + (payload[i] === 'A' ? 'B' : 'A') + payload.slice(i + 1);
    await expect(decodeShare(altered, undefined, undefined, validateLabResult)).rejects.toThrow(ShareLinkError);
    // A well-formed link whose formats run is not one: the field is named.
    const hostile = await encodeShare({ ...run, rows: [{ ...run.rows[0], medianNs: 'fast' }] } as unknown as FormatsRun);
    await expect(decodeShare(hostile, undefined, undefined, validateLabResult)).rejects.toThrow(/the link holds no valid result: formats run: rows\[0\]\.medianNs must be a finite number or null/);
  });

  it('PR markdown: the table, the stamps and the link last', () => {
    const md = labResultMarkdown(sampleFormats(), 'http://127.0.0.1:4304/#r=2.x');
    const lines = md.split('\n');
    expect(lines[0]).toBe(`### Formats: gemm (MUL_MAT 32x16x64) on ${adapterName(SWIFT)}`);
    expect(md).toContain(`Fastest first · kernel-lab ${LAB_VERSION} (code ${CODE_HASH}).`);
    expect(md).toContain('| q4_0 | 4.5 | 7.06 ms [7.06 ms–7.06 ms] |');
    expect(md).toContain('| q4_k | 4.5 | — |');
    expect(lines.filter(Boolean).pop()).toBe('[Open this result in kernel-lab](http://127.0.0.1:4304/#r=2.x)');
  });
});
