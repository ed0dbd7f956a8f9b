import { describe, expect, it } from 'vitest';
import { f32Bits, grid2d, packParams } from './kernel';

describe('kernel plumbing', () => {
  it('keeps dispatches within 65535 per dimension', () => {
    expect(grid2d(100)).toEqual([100, 1, 1]);
    expect(grid2d(0)).toEqual([1, 1, 1]);
    expect(grid2d(65536)).toEqual([32768, 2, 1]);
    expect(grid2d(200_000)).toEqual([50_000, 4, 1]);
    const [x, y] = grid2d(1_000_000);
    expect(x).toBeLessThanOrEqual(65535);
    expect(x * y).toBeGreaterThanOrEqual(1_000_000);
  });

  it('packs u32 params to a 16-byte multiple and refuses non-u32', () => {
    expect([...packParams([1, 2, 3, 4, 5])]).toEqual([1, 2, 3, 4, 5, 0, 0, 0]);
    expect(() => packParams([-1])).toThrow(/not a u32/);
    expect(f32Bits(1)).toBe(0x3f800000);
  });
});

describe('an edit of a templated native kernel', () => {
  it('is rendered with the kernel’s own defines; plain WGSL passes through', async () => {
    const { ADD } = await import('./ops/add');
    const { editedNative } = await import('./kernel');
    const k = ADD.native(ADD.makeCase([8, 2], 'inplace'));
    const source = '{{PARAMS}}\n#if INPLACE\nin place {{WG}}\n#else\nout\n#endif';
    const edited = editedNative(k, source);
    expect(edited.wgsl).toBe(`${k.templateDefines!.PARAMS}\nin place 256`);
    expect(edited.label).toBe('native:ADD (binary/binary.wgsl) [INPLACE] (edited)');
    expect(editedNative(k, 'fn main() {}').wgsl).toBe('fn main() {}');
  });
});
