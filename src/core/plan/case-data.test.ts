// Host work once: the same (case, seed) gets the same bytes without a rebuild, within a byte budget.
import { describe, expect, it } from 'vitest';
import { caseData } from '../inputs';
import { CaseDataCache } from './case-data';
import { planCase } from './plan';

describe('CaseDataCache', () => {
  const a = planCase({ op: 'ADD', dims: [64, 4] });
  const b = planCase({ op: 'RMS_NORM', dims: [64, 4] });
  // ADD 64x4: two 1 KiB f32 sources, a 256-element f64 ref and epsFloor (2 KiB each): 6 KiB.
  const ADD_BYTES = 2 * 1024 + 2 * 2048;

  it('builds once per case and seed, and returns the very same inputs and oracle after', () => {
    const cache = new CaseDataCache();
    const first = cache.get(a, 1);
    expect(cache.get(a, 1)).toBe(first);
    expect(cache.builds).toBe(1);
    expect(cache.keptBytes).toBe(ADD_BYTES);
    // Same seed, same bytes as building them afresh; another seed is another entry.
    expect(new Uint8Array(first.inputs[0])).toEqual(new Uint8Array(caseData(a.op, a.c, 1).inputs[0]));
    expect(cache.get(a, 2)).not.toBe(first);
    expect(cache.builds).toBe(2);
  });

  it('keeps to its budget, least recently used out first; a case over the whole budget is not kept', () => {
    const cache = new CaseDataCache(2 * ADD_BYTES);
    cache.get(a, 1);
    cache.get(a, 2);
    cache.get(a, 1); // now the most recent
    cache.get(a, 3); // evicts seed 2
    expect(cache.builds).toBe(3);
    cache.get(a, 1);
    expect(cache.builds).toBe(3);
    cache.get(a, 2);
    expect(cache.builds).toBe(4);
    const tiny = new CaseDataCache(100);
    tiny.get(b, 1);
    tiny.get(b, 1);
    expect([tiny.builds, tiny.keptBytes]).toEqual([2, 0]);
  });

  it('counts its host time: builds apart from output checks', () => {
    let t = 0;
    const cache = new CaseDataCache(undefined, () => t);
    cache.time(() => (t += 5), 'build');
    cache.time(() => (t += 2));
    expect(cache.hostTimes()).toEqual({ buildMs: 5, checkMs: 2 });
  });
});
