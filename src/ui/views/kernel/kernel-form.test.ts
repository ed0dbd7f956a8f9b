import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../../core/adapter';
import { opByName } from '../../../core/ops/registry';
import { autoPick, buildCaseOrError, entryLabel, entryParamTexts, paramsFromTexts } from './kernel-form';

const swiftshader = { limits: DEFAULT_LIMITS, features: [] as string[], vendor: 'google', architecture: 'swiftshader' };

describe('kernel form: params and auto', () => {
  const norm = opByName('RMS_NORM');

  it('param fields come from the declaration; empty is the default, a bad value is the reason Run is disabled', () => {
    expect(entryParamTexts(norm, { dims: [8], layout: 'contiguous' })).toEqual({ eps: '' });
    expect(entryParamTexts(norm, { dims: [8], layout: 'contiguous', params: { eps: 1e-5 } })).toEqual({ eps: '1e-5' });
    expect(paramsFromTexts(norm, { eps: ' ' })).toEqual({});
    expect(buildCaseOrError(norm, '8x2', 'inplace', { eps: '1e-5' })).toMatchObject({ ok: { label: '8x2 inplace eps=1e-5' } });
    expect(buildCaseOrError(norm, '8x2', 'contiguous', { eps: 'abc' })).toEqual({ error: "RMS_NORM: param eps: 'abc' is not a number" });
    expect(buildCaseOrError(norm, '8x2', 'contiguous', { eps: '-1' })).toEqual({ error: 'RMS_NORM: eps = -1 is out of range (eps is a finite number, 0 ≤ eps)' });
    expect(entryLabel(norm, { dims: [4096, 8], layout: 'contiguous', params: { eps: 1e-5 } })).toBe('4096x8 eps=1e-5');
  });

  it("auto follows the adapter's promotion state: native-only runs native, with the state as the reason", () => {
    const back = opByName('RMS_NORM_BACK');
    const pick = autoPick(back, back.makeCase([64, 8]), swiftshader);
    expect(pick).toMatchObject({ fallback: { code: 'native-only' } });
    expect(autoPick(norm, norm.makeCase([64, 8]), swiftshader)).toMatchObject({ key: expect.stringContaining('norm{') });
  });
});
