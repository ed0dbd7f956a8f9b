// The index and binding contract is checked on the case alone, before any input is built.
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../adapter';
import { opByName } from '../ops/registry';
import { assertCaseFits, assertIndicesFit, ShapeContractError } from './case-contract';

const adapter = { limits: DEFAULT_LIMITS };

describe('case contract', () => {
  it('refuses a shape past u32 indices, naming the tensor and the count', () => {
    const c = opByName('ADD').makeCase([65536, 65536]);
    expect(() => assertIndicesFit(c)).toThrow(ShapeContractError);
    expect(() => assertIndicesFit(c)).toThrow(/ADD 65536x65536: src0 spans 4294967296 elements, past the 4294967295 a kernel's u32 indices reach/);
    expect(() => assertIndicesFit(opByName('ADD').makeCase([65536, 65535]))).not.toThrow();
  });

  it('refuses a buffer just past the binding size, and takes one that fits', () => {
    // 128 MiB binding: 2^25 f32 is exactly 128 MiB of data, which with its guards is over.
    const over = opByName('ADD').makeCase([4096, 8192]);
    expect(() => assertCaseFits(over, adapter)).toThrow(/ADD 4096x8192: src0 needs a 134218240 B buffer \(guards included\), over this adapter's maxStorageBufferBindingSize of 134217728 B/);
    expect(() => assertCaseFits(opByName('ADD').makeCase([4096, 8191]), adapter)).not.toThrow();
    const mm = opByName('MUL_MAT').makeCase([1 << 20, 64, 8]);
    expect(() => assertCaseFits(mm, adapter)).toThrow(/MUL_MAT 1048576x64x8: dst needs a \d+ B buffer .*maxStorageBufferBindingSize/);
    expect(new ShapeContractError('x').name).toBe('ShapeContractError');
  });
});
