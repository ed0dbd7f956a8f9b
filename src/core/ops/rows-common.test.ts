import { describe, expect, it } from 'vitest';
import { checkParams, dims4, wgslVariant } from './rows-common';
import { OpCaseError } from './types';

const SPECS = [
  { name: 'scale', type: 'f32', default: 1, min: -4, max: 4, doc: '' },
  { name: 'max_bias', type: 'f32', default: 0, min: 0, max: 0, doc: '' },
] as const;

describe('checkParams', () => {
  it('fills defaults and keeps given values', () => {
    expect(checkParams('OP', SPECS, {})).toEqual({ scale: 1, max_bias: 0 });
    expect(checkParams('OP', SPECS, { scale: -2.5 })).toEqual({ scale: -2.5, max_bias: 0 });
  });
  it('names an unknown param, a value out of range, a single-valued param', () => {
    expect(() => checkParams('OP', SPECS, { eps: 1 })).toThrow(OpCaseError);
    expect(() => checkParams('OP', SPECS, { eps: 1 })).toThrow(/OP has no param eps \(params: scale, max_bias\)/);
    expect(() => checkParams('OP', SPECS, { scale: 5 })).toThrow(/OP: param scale must be a finite number in \[-4, 4\], got 5/);
    expect(() => checkParams('OP', SPECS, { scale: NaN })).toThrow(/param scale .* got NaN/);
    expect(() => checkParams('OP', SPECS, { max_bias: 8 })).toThrow(/param max_bias must be a finite number in only 0, got 8/);
    expect(() => checkParams('OP', [], { x: 1 })).toThrow(/OP has no param x \(params: none\)/);
  });
});

describe('dims4', () => {
  it('pads to four and refuses 0 or 5 dims', () => {
    expect(dims4('OP', [7, 3], 's')).toEqual([7, 3, 1, 1]);
    expect(() => dims4('OP', [], 'ne0xne1')).toThrow(/OP takes 1 to 4 dims \(ne0xne1\), got 0/);
    expect(() => dims4('OP', [1, 1, 1, 1, 1], 's')).toThrow(/got 5/);
  });
});

describe('wgslVariant', () => {
  const src = ['a;', 'b; // @if(X)', 'c; // @if(!X)', 'd; // @if(Y)', 'e;'].join('\n');
  it('keeps a line when its flag holds, drops it otherwise, strips the marker', () => {
    expect(wgslVariant(src, { X: true, Y: false })).toBe('a;\nb;\ne;');
    expect(wgslVariant(src, { X: false, Y: true })).toBe('a;\nc;\nd;\ne;');
  });
  it('a flag the source names but the caller does not give is an error', () => {
    expect(() => wgslVariant(src, { X: true })).toThrow(/flag Y is not given \(given: X\)/);
  });
});
