// The formats table's pure parts: a refused row keeps its reason within a stored result's cap,
// each row's cells as the CLI, the markdown and the page print them, and its History key.
import { describe, expect, it } from 'vitest';
import { MAX_TEXT_CHARS } from '../input/caps';
import { formatCells, formatRowKey, planFormats, refusedFormatRow } from './formats';

describe('formats rows', () => {
  it('a refused format is a row with the reason and no time; a long reason is cut to the cap', () => {
    const plan = planFormats('gemv', '32x1x64', 'q4_k,q8_0');
    const [q4k, q8] = plan.cases;
    expect(q4k.problem).toBe('MUL_MAT 32x1x64: q4_k: K = 64 is not a multiple of its block size 256, and q4_k forbids a ragged tail block');
    const row = refusedFormatRow(q4k, null, q4k.problem!);
    expect(row).toMatchObject({ format: 'q4_k', bitsPerWeight: 4.5, weightBytes: 32 * 144 * (64 / 256), medianNs: null, correct: null, nmse: null, reason: q4k.problem });
    expect(formatCells(row)).toEqual(['q4_k', '4.5', '—', '—', '—', '—', '—', '—', '—', '—', q4k.problem]);
    const long = refusedFormatRow(q8, { nmse: 1e-4, maxRelError: 0.25, rowsMeasured: 32 }, `WgslCompileError: ${'x'.repeat(3 * MAX_TEXT_CHARS)}`);
    expect(long.reason).toHaveLength(MAX_TEXT_CHARS);
    expect(long.reason!.endsWith('…')).toBe(true);
    expect(formatCells(long).slice(8, 10)).toEqual(['1.00e-4', '2.50e-1']);
  });

  it("keys a format's row as a Level 1 run of the same case is labelled", () => {
    expect(formatRowKey({ op: 'gemv', ggmlOp: 'MUL_MAT', shape: '32x1x64' }, 'q4_0')).toBe('MUL_MAT 32x1x64 type0=q4_0');
    expect(formatRowKey({ op: 'dequant', ggmlOp: 'DEQUANT', shape: '64x8' }, 'q8_0')).toBe('DEQUANT 64x8 format=q8_0');
  });
});
