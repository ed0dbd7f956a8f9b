import { describe, expect, it } from 'vitest';
import { errorInfo, errorOf, okOf } from './errors';

describe('form values and errors', () => {
  it("errorOf gives a checked value's words or null; okOf its ok variant with what it carries", () => {
    const ok: { ok: number; plan: string } | { error: string; name: string } = { ok: 3, plan: 'p' };
    const bad: { ok: number; plan: string } | { error: string; name: string } = { error: 'K = 48 is not a multiple of 32', name: 'OpCaseError' };
    expect(errorOf(ok)).toBeNull();
    expect(errorOf(bad)).toBe('K = 48 is not a multiple of 32');
    expect(okOf(ok)).toEqual({ ok: 3, plan: 'p' });
    expect(okOf(bad)).toBeNull();
    expect(errorInfo(new RangeError('x'))).toEqual({ name: 'RangeError', message: 'x' });
  });
});
