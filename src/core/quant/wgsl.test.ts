import { describe, expect, it } from 'vitest';
import { QUANT_FORMATS } from './formats';
import { dequantKernelWgsl, formatDecodeWgsl, streamReadWgsl } from './wgsl';

describe('generated WGSL decode', () => {
  for (const name of ['nvfp4', 'mxfp4', 'mxfp8_e5m2', 'int3', 'mxint8', 'fp8_e4m3_f16']) {
    it(`${name}: decode module snapshot`, () => {
      expect(formatDecodeWgsl(name)).toMatchSnapshot();
    });
  }

  it('only straddling widths (3, 5, 6) read a second word', () => {
    for (const w of [2, 4, 8, 16, 32]) expect(streamReadWgsl('c', 'b', w)).not.toContain('w + 1u');
    for (const w of [3, 5, 6]) expect(streamReadWgsl('c', 'b', w)).toContain('if (s + ' + w + 'u > 32u)');
  });

  it('every format yields a kernel naming its element and scale decode', () => {
    for (const f of QUANT_FORMATS) {
      const k = dequantKernelWgsl(f.name);
      expect(k).toContain(`fn decode_${f.element}(c: u32) -> f32`);
      expect(k).toContain(`// ${f.name}: ${f.element} codes, block ${f.blockSize}, ${f.scale} scale`);
    }
  });

  it('an unknown format is refused by name', () => {
    expect(() => formatDecodeWgsl('fp5')).toThrow(/unknown quant format 'fp5'/);
  });
});
