// The index and binding contract is checked on the case alone, before any input is built.
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../adapter';
import { opByName } from '../ops/registry';
import { planCase } from '../plan/plan';
import { assertIndicesFit, limitFindings, ShapeContractError } from './case-contract';

const adapter = { limits: DEFAULT_LIMITS };

describe('case contract', () => {
  it('refuses a shape past u32 indices, naming the tensor and the count', () => {
    const c = opByName('ADD').makeCase([65536, 65536]);
    expect(() => assertIndicesFit(c)).toThrow(ShapeContractError);
    expect(() => assertIndicesFit(c)).toThrow(/ADD 65536x65536: src0 spans 4294967296 elements, past the 4294967295 a kernel's u32 indices reach/);
    expect(() => assertIndicesFit(opByName('ADD').makeCase([65536, 65535]))).not.toThrow();
  });

  // One rule, one message (Level 1's own wording 'needs a … B buffer (guards included)' became the
  // lane's and the page's): the plan refuses, naming the code, the size, the limit and the tensor.
  it('refuses a buffer just past the binding size, and takes one that fits', () => {
    // 128 MiB binding: 2^25 f32 is exactly 128 MiB of data, which with its guards is over.
    expect(() => planCase({ op: 'ADD', dims: [4096, 8192] }, adapter)).toThrow(/ADD 4096x8192 is refused before any GPU work: exceeds-binding-size — a 134218240 B buffer exceeds maxStorageBufferBindingSize 134217728 \(src0\)/);
    expect(() => planCase({ op: 'ADD', dims: [4096, 8191] }, adapter)).not.toThrow();
    expect(() => planCase({ op: 'MUL_MAT', dims: [1 << 20, 64, 8] }, adapter)).toThrow(ShapeContractError);
    expect(() => planCase({ op: 'MUL_MAT', dims: [1 << 20, 64, 8] }, adapter)).toThrow(/MUL_MAT 1048576x64x8 is refused before any GPU work: exceeds-binding-size — a \d+ B buffer exceeds maxStorageBufferBindingSize \d+ \(dst\)/);
    expect(new ShapeContractError('x').name).toBe('ShapeContractError');
  });

  it('reports every limit in one order: bindings, then u32 indices, then maxBufferSize', () => {
    const c = opByName('ADD').makeCase([65536, 65536]);
    const found = limitFindings(c, { maxStorageBufferBindingSize: 1 << 30, maxBufferSize: 1 << 31 });
    expect(found.map((f) => `${f.code} ${f.tensor}`)).toEqual([
      'exceeds-binding-size src0', 'exceeds-binding-size src1', 'exceeds-binding-size dst',
      'index-overflow-u32 src0', 'index-overflow-u32 src1', 'index-overflow-u32 dst',
      'exceeds-buffer-size src0', 'exceeds-buffer-size src1', 'exceeds-buffer-size dst',
    ]);
    expect(found[0]).toMatchObject({ amount: 2 ** 34 + 512, limit: 1 << 30 });
    expect(limitFindings(c)).toHaveLength(3); // without an adapter, the u32 rule alone
  });
});
