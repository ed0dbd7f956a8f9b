import { describe, expect, it } from 'vitest';
import { stateFor, variantForState } from './promotion';
import { registryStateFor } from './registry';

const entry = {
  op: 'X',
  states: {
    'nvidia/hopper': { state: 'prefer' as const, evidence: 'h200 lane' },
    'nvidia/*': { state: 'observe' as const, evidence: 'some nvidia' },
    'apple/*': { state: 'native-only' as const, evidence: 'apple slower' },
    default: { state: 'observe' as const, evidence: 'default' },
  },
};

describe('promotion per adapter class', () => {
  it('picks the most specific matching class, case-insensitively, else default', () => {
    expect(stateFor(entry, { vendor: 'NVIDIA', architecture: 'Hopper' })).toEqual({ adapterClass: 'nvidia/hopper', state: 'prefer', evidence: 'h200 lane' });
    expect(stateFor(entry, { vendor: 'nvidia', architecture: 'ampere' }).adapterClass).toBe('nvidia/*');
    expect(stateFor(entry, { vendor: 'apple', architecture: 'metal-3' }).state).toBe('native-only');
    expect(stateFor(entry, { vendor: 'google', architecture: 'swiftshader' })).toEqual({ adapterClass: 'default', state: 'observe', evidence: 'default' });
  });

  it('an entry without a default is an error, not a silent state', () => {
    expect(() => stateFor({ op: 'Y', states: { 'apple/*': entry.states['apple/*'] } }, { vendor: 'x', architecture: 'y' })).toThrow(/Y has no 'default'/);
  });

  it('auto runs native for native-only; retired (native deleted, DESIGN.md) and the rest run generated', () => {
    expect(variantForState('native-only')).toEqual({ variant: 'native', reason: 'the registry keeps the native kernel for this op on this adapter class' });
    expect(variantForState('retired').variant).toBe('generated');
    expect(variantForState('observe')).toEqual({ variant: 'generated', reason: null });
    expect(variantForState('prefer').variant).toBe('generated');
  });

  it('the registry: RMS_NORM_BACK is native-only everywhere; ADD prefer on the H200 and SwiftShader', () => {
    expect(registryStateFor('RMS_NORM_BACK', { vendor: 'nvidia', architecture: 'hopper' }).state).toBe('native-only');
    expect(registryStateFor('ADD', { vendor: 'nvidia', architecture: 'hopper' })).toMatchObject({ adapterClass: 'nvidia/hopper', state: 'prefer' });
    expect(registryStateFor('ADD', { vendor: 'google', architecture: 'swiftshader' }).adapterClass).toBe('google/swiftshader');
    expect(registryStateFor('MUL_MAT', { vendor: 'amd', architecture: 'rdna-3' }).adapterClass).toBe('default');
  });
});

describe('the retire checklist', () => {
  const support = { nodes: 11, generated: 11, declared: {}, other: {} };
  it('every item holds only with a graph run that dispatched the op generated on every node', async () => {
    const { retireChecklist, retireProposal } = await import('./promotion');
    const green = [{ pass: true }, { pass: true }, { pass: true }, { pass: true }, { pass: true }];
    const noRun = retireChecklist(support, null, true);
    expect(noRun.map((i) => [i.id, i.pass])).toEqual([['supports-on-contract', true], ['graph-no-fallback', null], ['cpu-oracle-stays', true]]);
    expect(retireProposal('prefer', green, noRun)).toEqual({ propose: false, why: 'not every item holds: graph-no-fallback (not measured)' });
    const ran = retireChecklist(support, { nodes: 11, generated: 11, fallbacks: [], checked: true }, true);
    expect(ran.every((i) => i.pass === true)).toBe(true);
    expect(retireProposal('prefer', green, ran).propose).toBe(true);
    // observe is not retired from; a failed promotion item blocks it too
    expect(retireProposal('observe', green, ran)).toMatchObject({ propose: false, why: 'the pair is observe: retiring follows prefer' });
    expect(retireProposal('prefer', [...green.slice(1), { pass: false }], ran).propose).toBe(false);
  });
  it('a fallback in the graph run, or support not by the contract, fails its item with the evidence', async () => {
    const { retireChecklist } = await import('./promotion');
    const r = retireChecklist({ nodes: 5, generated: 3, declared: { 'f16-mask': 1 }, other: { 'no-schedule': 1 } }, { nodes: 5, generated: 4, fallbacks: [{ code: 'f16-mask', count: 1 }], checked: false }, true);
    expect(r[0]).toMatchObject({ pass: false, evidence: '3/5 graph nodes generated, declared rejections f16-mask×1, not by the contract: no-schedule×1' });
    expect(r[1]).toMatchObject({ pass: false, evidence: 'graph run: 4/5 nodes generated, fallbacks f16-mask×1' });
    expect(r[2].pass).toBe(false);
  });
});
