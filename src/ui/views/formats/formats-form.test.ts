import { createRoot } from 'solid-js';
import { describe, expect, it } from 'vitest';
import { WEIGHT_FORMATS } from '../../../core/quant/weights';
import { createFormatsForm, formatChoices, PAGE_DEFAULT_SHAPES, representativeFormats } from './formats-form';

const inRoot = <T>(fn: () => T): T => createRoot((dispose) => {
  try {
    return fn();
  } finally {
    dispose();
  }
});

describe('formats form', () => {
  it('offers f32/f16 where the op takes plain weights, then every format; a representative set first', () => {
    expect(formatChoices('gemv')).toHaveLength(2 + WEIGHT_FORMATS.length);
    expect(formatChoices('gemv').slice(0, 3)).toEqual(['f16', 'f32', 'q4_0']);
    expect(formatChoices('get_rows').slice(0, 2)).toEqual(['f32', 'q4_0']);
    expect(formatChoices('dequant')[0]).toBe('q4_0');
    expect(representativeFormats('gemv')).toEqual(['f16', 'f32', 'q4_0', 'q8_0', 'mxfp4', 'q4_k', 'nvfp4', 'int4']);
    expect(representativeFormats('dequant')).toEqual(['q4_0', 'q8_0', 'mxfp4', 'q4_k', 'nvfp4', 'int4']);
  });

  it("asks for the CLI's request, checked by the same plan: an op's refusal blocks the run with its words", () =>
    inRoot(() => {
      const f = createFormatsForm();
      const first = f.request();
      expect('ok' in first && first.ok).toEqual({ op: 'gemv', shape: PAGE_DEFAULT_SHAPES.gemv, formats: representativeFormats('gemv'), native: false });
      f.setShapeText('64x12x64');
      expect(f.request()).toEqual({ error: '--shape 64x12x64: gemv covers N = 1…8 (N = 12); use --op gemm' });
      f.selectNone();
      expect(f.request()).toEqual({ error: 'choose at least one format' });
    }));

  it('switching op keeps the chosen formats it offers, in the choice order; toggling keeps that order', () =>
    inRoot(() => {
      const f = createFormatsForm();
      f.selectNone();
      f.toggle('q8_0', true);
      f.toggle('f16', true);
      f.toggle('q4_0', true);
      expect(f.selected()).toEqual(['f16', 'q4_0', 'q8_0']);
      f.selectOp('dequant');
      expect(f.shapeText()).toBe(PAGE_DEFAULT_SHAPES.dequant);
      expect(f.selected()).toEqual(['q4_0', 'q8_0']);
      f.toggle('q4_0', false);
      expect(f.selected()).toEqual(['q8_0']);
      const r = f.request();
      expect('ok' in r && r.plan.cases.map((c) => [c.name, c.problem])).toEqual([['q8_0', null]]);
    }));
});
