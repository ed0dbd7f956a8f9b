import { describe, expect, it } from 'vitest';
import { dims4 } from './rows-common';

describe('dims4', () => {
  it('pads to four and refuses 0 or 5 dims', () => {
    expect(dims4('OP', [7, 3], 's')).toEqual([7, 3, 1, 1]);
    expect(() => dims4('OP', [], 'ne0xne1')).toThrow(/OP takes 1 to 4 dims \(ne0xne1\), got 0/);
    expect(() => dims4('OP', [1, 1, 1, 1, 1], 's')).toThrow(/got 5/);
  });
});
