import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from './adapter';
import { ScheduleRefusal } from './errors';
import { opByName } from './ops/registry';
import { planOf } from './plan/plan';
import { buildCase, caseOf, resolveKernel } from './resolve-kernel';

const adapter = { limits: DEFAULT_LIMITS, features: [] as string[] };

describe('the case a request names', () => {
  it("defaults to the op's first layout", () => {
    const add = opByName('ADD');
    expect(caseOf(add, { dims: [256, 4] }).layout).toBe('contiguous');
    expect(caseOf(add, { dims: [256, 4], layout: 'inplace' }).inplace).toBe(true);
    const { op, c } = buildCase({ op: 'add', dims: [64, 8], layout: 'broadcast-row' });
    expect([op.name, c.layout, c.dims]).toEqual(['ADD', 'broadcast-row', [64, 8]]);
  });
});

describe('resolveKernel', () => {
  const add = opByName('ADD');

  it("auto: the registry's first rule that takes the case", () => {
    const r = resolveKernel(planOf(add, { dims: [256, 4] }), { kind: 'auto' }, adapter);
    expect(r).toMatchObject({ variant: 'generated', scheduleKey: 'elementwise{"elementsPerThread":4,"vectorWidth":4,"workgroupSize":256}', fallback: null });
    expect(resolveKernel(planOf(add, { dims: [255, 4] }), { kind: 'auto' }, adapter).scheduleKey).toBe('elementwise{"elementsPerThread":4,"vectorWidth":1,"workgroupSize":256}');
  });

  it('an op that declares no generated path: a schedule is refused with its reason; auto runs native; the lane skips it', async () => {
    const loss = opByName('CROSS_ENTROPY_LOSS');
    const c = caseOf(loss, { dims: [100, 2] });
    const norm = { family: 'norm', workgroupSize: 64, vectorWidth: 1, reduction: 'shared', unroll: 1 };
    expect(() => resolveKernel(planOf(loss, c), { kind: 'schedule', schedule: norm }, adapter)).toThrow(ScheduleRefusal);
    expect(() => resolveKernel(planOf(loss, c), { kind: 'schedule', schedule: norm }, adapter)).toThrow(/^CROSS_ENTROPY_LOSS has no generated kernel: one scalar over every row/);
    expect(resolveKernel(planOf(loss, c), { kind: 'auto' }, adapter, { state: 'prefer' })).toMatchObject({ variant: 'native', fallback: { code: 'no-schedule' } });
    const { lanePairs } = await import('./lane/judgement');
    const { skipped } = lanePairs({ ops: ['CROSS_ENTROPY_LOSS'], prefer: ['CROSS_ENTROPY_LOSS'] }, { vendor: 'google', architecture: 'swiftshader' } as never);
    expect(skipped).toEqual([{ op: 'CROSS_ENTROPY_LOSS', reason: expect.stringMatching(/^no generated kernel: one scalar over every row/) }]);
  });

  it('auto runs native for a native-only op, and generated when the caller raises its state', () => {
    const back = opByName('RMS_NORM_BACK');
    const c = caseOf(back, { dims: [512, 4] });
    const swiftshader = { ...adapter, vendor: 'google', architecture: 'swiftshader' };
    const r = resolveKernel(planOf(back, c), { kind: 'auto' }, swiftshader);
    expect(r).toMatchObject({ variant: 'native', schedule: null, fallback: { code: 'native-only', reason: 'the registry keeps the native kernel for this op on this adapter class' } });
    // Without an adapter identity (a preview before any device) the default state applies.
    expect(resolveKernel(planOf(back, c), { kind: 'auto' }, adapter).variant).toBe('native');
    expect(resolveKernel(planOf(back, c), { kind: 'auto' }, swiftshader, { state: 'prefer' })).toMatchObject({ variant: 'generated', scheduleKey: 'norm{"reduction":"shared","unroll":4,"vectorWidth":4,"workgroupSize":256}' });
    // An explicit schedule is the user's choice whatever the state.
    expect(resolveKernel(planOf(back, c), { kind: 'schedule', schedule: { family: 'norm', workgroupSize: 64, vectorWidth: 1, reduction: 'shared', unroll: 1 } }, swiftshader).variant).toBe('generated');
  });

  it("auto falls back to native with the contract's reason", () => {
    const r = resolveKernel(planOf(add, { dims: [64, 64], layout: 'src1-transposed' }), { kind: 'auto' }, adapter);
    expect(r.variant).toBe('native');
    expect(r.fallback?.code).toBe('src1-rows-not-contiguous');
  });

  it('rules tried first (a proposal) win over the registry', () => {
    const schedule = Object.freeze({ family: 'elementwise', workgroupSize: 64, elementsPerThread: 2, vectorWidth: 2 } as const);
    const r = resolveKernel(planOf(add, { dims: [256, 4] }), { kind: 'auto' }, adapter, { rulesBefore: [{ when: [], schedule }] });
    expect(r.scheduleKey).toBe('elementwise{"elementsPerThread":2,"vectorWidth":2,"workgroupSize":64}');
  });

  it('native, and native with edited WGSL under a label that says so', () => {
    const c = caseOf(add, { dims: [64, 8] });
    const native = resolveKernel(planOf(add, c), { kind: 'native' }, adapter);
    expect(native).toMatchObject({ variant: 'native', schedule: null, fallback: null });
    const edited = resolveKernel(planOf(add, c), { kind: 'native', wgsl: '// mine' }, adapter);
    expect(edited.kernel.wgsl).toBe('// mine');
    expect(edited.kernel.label).toBe(`${native.kernel.label} (edited)`);
    expect(edited.kernel.dispatch).toEqual(native.kernel.dispatch);
  });

  it('a given schedule outside the contract or the limits is refused, by name', () => {
    const schedule = { family: 'elementwise', workgroupSize: 256, elementsPerThread: 4, vectorWidth: 4 };
    expect(() => resolveKernel(planOf(add, { dims: [64, 64], layout: 'src1-transposed' }), { kind: 'schedule', schedule }, adapter)).toThrow(
      /^ADD 64x64 src1-transposed is outside the generated contract: src1-rows-not-contiguous: /,
    );
    const tooWide = { ...schedule, workgroupSize: 1024 };
    expect(() => resolveKernel(planOf(add, { dims: [256, 4] }), { kind: 'schedule', schedule: tooWide }, adapter)).toThrow(ScheduleRefusal);
  });
});
