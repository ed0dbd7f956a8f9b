// The planner: a case is built and judged once, its id is stable and re-runs as a lane --shape.
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_LIMITS } from '../adapter';
import { limitRuleRuns } from '../input/case-contract';
import { opByName } from '../ops/registry';
import { parseCaseSpec } from '../ops/shape-specs';
import { caseId, planCase, planOf } from './plan';

const adapter = { limits: DEFAULT_LIMITS, features: [] as string[] };

describe('caseId', () => {
  it('names op, dims, layout always, and every param in order', () => {
    expect(caseId('ADD', [4096, 512], 'contiguous')).toBe('ADD:4096x512:contiguous');
    expect(caseId('RMS_NORM', [4096, 8], 'rows', { eps: 1e-5 })).toBe('RMS_NORM:4096x8:rows:eps=1e-5');
    expect(caseId('ROPE', [64, 4, 2], 'contiguous', { mode: 2, freq_base: 10000 })).toBe('ROPE:64x4x2:contiguous:mode=2,freq_base=10000');
  });

  it("is the plan's id, with the op's defaults filled in, and parses back to the same case", () => {
    const plan = planCase({ op: 'rms_norm', dims: [256, 4] });
    expect(plan.id).toMatch(/^RMS_NORM:256x4:contiguous:eps=1e-\d+$/);
    const back = parseCaseSpec(plan.id);
    expect(planCase(back).id).toBe(plan.id);
    expect(planCase(back).c.label).toBe(plan.c.label);
  });
});

describe('planCase', () => {
  it('builds a case once per request: the same request gets the same frozen plan', () => {
    const add = opByName('ADD');
    const make = vi.spyOn(add, 'makeCase');
    try {
      const a = planCase({ op: 'ADD', dims: [96, 7], layout: 'inplace' });
      const b = planCase({ op: 'add', dims: [96, 7], layout: 'inplace' });
      const c = planOf(add, { dims: [96, 7], layout: 'inplace' });
      expect(b).toBe(a);
      expect(c).toBe(a);
      expect(Object.isFrozen(a)).toBe(true);
      expect(make).toHaveBeenCalledTimes(1);
    } finally {
      make.mockRestore();
    }
  });

  it("runs the limit rule, the contract and the native kernel's codegen once however often they are asked", () => {
    const plan = planCase({ op: 'ADD', dims: [88, 9] });
    const before = limitRuleRuns.count;
    const native = vi.spyOn(plan.op, 'native');
    const require = vi.spyOn(plan.op, 'require');
    try {
      for (let i = 0; i < 3; i++) {
        planCase({ op: 'ADD', dims: [88, 9] }, adapter);
        expect(plan.contract(adapter)).toBeNull();
        expect(plan.native().label).toBe(plan.native().label);
      }
      expect(limitRuleRuns.count - before).toBe(1);
      expect(require).toHaveBeenCalledTimes(1);
      expect(native).toHaveBeenCalledTimes(1);
    } finally {
      native.mockRestore();
      require.mockRestore();
    }
  });

  it('refuses a case past the limits before anything is built for it, naming rule, size and tensor', () => {
    expect(() => planCase({ op: 'ADD', dims: [65536, 65536] }, adapter)).toThrow(/ADD 65536x65536 is refused before any GPU work: exceeds-binding-size — a 17179869696 B buffer exceeds maxStorageBufferBindingSize 134217728 \(src0\)/);
    // Without an adapter only the case's own rules apply (what the page's form checks first).
    expect(planCase({ op: 'ADD', dims: [65536, 65536] }).limitRefusal(adapter)).toMatchObject({ code: 'exceeds-binding-size', tensor: 'src0' });
  });

  it("keeps the op's usage errors", () => {
    expect(() => planCase({ op: 'NOPE', dims: [4] })).toThrow(/unknown op 'NOPE'/);
    expect(() => planCase({ op: 'ADD', dims: [4], layout: 'sideways' })).toThrow(/sideways/);
  });
});
