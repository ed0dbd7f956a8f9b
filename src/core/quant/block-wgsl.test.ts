import { describe, expect, it } from 'vitest';
import { blockDecodeWgsl, hasBlockDecode, hasIntegerBlockDecode } from './block-wgsl';
import { WEIGHT_FORMATS } from './weights';

describe('block-at-a-time decode WGSL', () => {
  it("covers ggml's 32-weight types; the integer form all but mxfp4", () => {
    expect(WEIGHT_FORMATS.filter((f) => hasBlockDecode(f.id)).map((f) => f.name)).toEqual(['q4_0', 'q4_1', 'q5_0', 'q5_1', 'q8_0', 'mxfp4']);
    expect(WEIGHT_FORMATS.filter((f) => hasIntegerBlockDecode(f.id)).map((f) => f.name)).toEqual(['q4_0', 'q4_1', 'q5_0', 'q5_1', 'q8_0']);
    expect(() => blockDecodeWgsl('q4_k', 0)).toThrow(/q4_k: no block decode/);
  });

  it('reads a block as whole words: the span of its quants once, joined by a funnel shift where blocks are 2-byte aligned', () => {
    const q4 = blockDecodeWgsl('q4_0', 64);
    // 18-byte blocks: 16 quant bytes at any even offset span 5 words, funnelled into 4.
    expect(q4.wgsl.match(/let W\d+ = wq_w\(w0/g)).toHaveLength(5);
    expect(q4.wgsl).toContain('r.qs[3] = wq_funnel(W3, W4, s);');
    expect(q4.wgsl).toContain('bitcast<u32>(src0[64u + w])');
    expect(q4).toMatchObject({ hasMin: false, integer: true });
    // 20-byte blocks are word-aligned: no funnel; the min makes kernels add m·Σx.
    const q41 = blockDecodeWgsl('q4_1', 0);
    expect(q41.wgsl).toContain('r.qs[0] = W0;');
    expect(q41.hasMin).toBe(true);
    // q8_0: 32 quant bytes over 9 words; the i8 form is the words themselves.
    const q8 = blockDecodeWgsl('q8_0', 0);
    expect(q8.wgsl.match(/let W\d+ = wq_w\(w0/g)).toHaveLength(9);
    expect(q8.wgsl).toContain('b.q[7] = r.qs[7];');
    // q5_0: bit 4 of each quant from qh, the −16 taken per byte without borrows.
    expect(blockDecodeWgsl('q5_0', 0).wgsl).toContain('| 0x80808080u) - 269488144u) ^ 0x80808080u');
    expect(blockDecodeWgsl('mxfp4', 0)).toMatchObject({ integer: false });
    expect(blockDecodeWgsl('mxfp4', 0).wgsl).not.toContain('wq_block_i8');
  });
});
