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
