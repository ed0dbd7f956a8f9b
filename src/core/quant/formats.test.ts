import { describe, expect, it } from 'vitest';
import { bitsPerWeight, QUANT_FORMATS, quantFormat } from './formats';

describe('Track-1 format table', () => {
  it('holds the 30 formats with their element, block and scale', () => {
    const rows = QUANT_FORMATS.map((f) => `${f.name}:${f.element}/${f.blockSize}/${f.scale}${f.raggedTail ? '/ragged' : ''}`);
    expect(rows).toEqual([
      'nvfp4:e2m1/16/e4m3_fp32_global',
      'mxfp4:e2m1/32/e8m0',
      'mxfp8_e4m3:e4m3/32/e8m0',
      'mxfp8_e5m2:e5m2/32/e8m0',
      'nvfp8:e4m3/16/fp32/ragged',
      'fp4:e2m1/32/fp32/ragged',
      'fp8_e4m3:e4m3/32/fp32/ragged',
      'fp8_e5m2:e5m2/32/fp32/ragged',
      'int2:int2/64/fp32/ragged',
      'int3:int3/64/fp32/ragged',
      'int4:int4/64/fp32/ragged',
      'int5:int5/64/fp32/ragged',
      'int6:int6/64/fp32/ragged',
      'int8:int8/64/fp32/ragged',
      'mxint2:int2/32/e8m0',
      'mxint3:int3/32/e8m0',
      'mxint4:int4/32/e8m0',
      'mxint5:int5/32/e8m0',
      'mxint6:int6/32/e8m0',
      'mxint8:int8/32/e8m0',
      'nvfp8_f16:e4m3/16/fp16/ragged',
      'fp4_f16:e2m1/32/fp16/ragged',
      'fp8_e4m3_f16:e4m3/32/fp16/ragged',
      'fp8_e5m2_f16:e5m2/32/fp16/ragged',
      'int2_f16:int2/64/fp16/ragged',
      'int3_f16:int3/64/fp16/ragged',
      'int4_f16:int4/64/fp16/ragged',
      'int5_f16:int5/64/fp16/ragged',
      'int6_f16:int6/64/fp16/ragged',
      'int8_f16:int8/64/fp16/ragged',
    ]);
  });

  it('bits per weight: element bits + scale bits / block', () => {
    const bpw = (n: string) => bitsPerWeight(quantFormat(n));
    expect(bpw('nvfp4')).toBe(4.5);
    expect(bpw('mxfp4')).toBe(4.25);
    expect(bpw('mxfp8_e5m2')).toBe(8.25);
    expect(bpw('nvfp8')).toBe(10);
    expect(bpw('fp4')).toBe(5);
    expect(bpw('int3')).toBe(3.5);
    expect(bpw('mxint2')).toBe(2.25);
    expect(bpw('int8_f16')).toBe(8.25);
    expect(bpw('fp4_f16')).toBe(4.5);
  });

  it('an unknown name is a QuantFormatError that names it and the known ones', () => {
    expect(() => quantFormat('nvfp3')).toThrow(/unknown quant format 'nvfp3' \(known: nvfp4, mxfp4/);
    try {
      quantFormat('q4');
    } catch (e) {
      expect((e as Error).name).toBe('QuantFormatError');
    }
  });
});
