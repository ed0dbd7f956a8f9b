import { describe, expect, it } from 'vitest';
import binaryWgsl from '../../../kernels/binary/binary.wgsl?raw';
import rowWgsl from '../../../kernels/row/row.wgsl?raw';
import { renderTemplate } from './template';
import { packUniforms, TENSOR_STRUCT, uniformSchema, uniformStruct } from './uniforms';
import { bindingDecls, elementMain, f32Bits } from '../kernel';
import { stridedRows } from '../tensor';
import { RMS_NORM } from '../ops/rms-norm';

describe('the template step', () => {
  const src = ['a', '#if INPLACE', 'in {{WG}}', '#if !DEEP', 'shallow', '#endif', '#else', 'out', '#endif', 'z {{WG}}u'].join('\n');

  it('keeps the branch a boolean picks and substitutes {{NAME}}, nested', () => {
    expect(renderTemplate(src, { INPLACE: true, DEEP: false, WG: 64 })).toBe('a\nin 64\nshallow\nz 64u');
    expect(renderTemplate(src, { INPLACE: false, DEEP: true, WG: 128 })).toBe('a\nout\nz 128u');
  });

  it('an undefined or mistyped name is an error naming file and line', () => {
    expect(() => renderTemplate(src, { WG: 64, DEEP: false }, 'x.wgsl')).toThrow('x.wgsl:2: #if INPLACE needs a boolean define, got none');
    expect(() => renderTemplate(src, { INPLACE: true, DEEP: false })).toThrow('template:3: {{WG}} has no string or number define');
    expect(() => renderTemplate('#if A\nx', { A: true })).toThrow('template:1: #if is never closed');
    expect(() => renderTemplate('#endif', {})).toThrow('#endif without an open #if');
    expect(() => renderTemplate('#if A\n#else\n#else\n#endif', { A: true })).toThrow('template:3: #else without an open #if');
    expect(() => renderTemplate('#if A && B\n#endif', {})).toThrow("'#if A && B' is not #if NAME or #if !NAME");
  });

  const schema = uniformSchema('Params', { ne0: 'u32', off: 'i32', eps: 'f32' });
  const defines = { PARAMS: uniformStruct(schema), WG: 256, ELEMENT_MAIN: elementMain(256), DST_ELEMENT_MAIN: elementMain(256, 'p.dst.n') };

  it('snapshot: the binary template as ADD, both variants from one source', () => {
    const add = { ...defines, OP: 'a + b', A: 'a', B: 'b', CONSTS: '', SAME_SHAPE: false };
    expect(renderTemplate(binaryWgsl, { ...add, INPLACE: false, BINDINGS: bindingDecls(['src0', 'src1', 'dst', 'params'], 'Params') })).toMatchSnapshot('ADD');
    expect(renderTemplate(binaryWgsl, { ...add, INPLACE: true, BINDINGS: bindingDecls(['dst', 'src1', 'params'], 'Params') })).toMatchSnapshot('ADD inplace');
  });

  it("snapshot: the row template as RMS_NORM in place (the row kit's defines)", () => {
    const k = RMS_NORM.native(RMS_NORM.makeCase([64, 8], 'inplace'));
    expect(renderTemplate(rowWgsl, k.templateDefines!)).toBe(k.wgsl);
    expect(k.wgsl).toMatchSnapshot();
  });
});

describe('uniforms as named records', () => {
  const schema = uniformSchema('Params', { ne0: 'u32', off: 'i32', eps: 'f32' });

  it('one schema gives the WGSL struct and the bytes, padded to 16', () => {
    expect(uniformStruct(schema)).toBe('struct Params {\n  ne0: u32,\n  off: i32,\n  eps: f32,\n};');
    expect([...packUniforms(schema, { eps: 1e-5, ne0: 7, off: -1 })]).toEqual([7, 0xffffffff, f32Bits(1e-5), 0]);
  });

  it('a missing, extra or out-of-range field throws naming it', () => {
    expect(() => packUniforms(schema, { ne0: 1, off: 0 })).toThrow('Params.eps is missing');
    expect(() => packUniforms(schema, { ne0: 1, off: 0, eps: 0, colour: 2 })).toThrow('Params has no field colour');
    expect(() => packUniforms(schema, { ne0: -1, off: 0, eps: 0 })).toThrow('Params.ne0 = -1 is not a u32');
    expect(() => packUniforms(schema, { ne0: 1, off: 0.5, eps: 0 })).toThrow('Params.off = 0.5 is not an i32');
    expect(() => packUniforms(schema, { ne0: 1, off: 0, eps: NaN })).toThrow('Params.eps = NaN is not a finite f32');
  });

  it('a tensor field is the shared descriptor: 16-byte aligned, ne, element strides, offset, count', () => {
    const t = stridedRows('f32', [5, 3, 1, 1], 8, 1);
    const s2 = uniformSchema('Params', { k: 'u32', src0: 'tensor', eps: 'f32' });
    expect(TENSOR_STRUCT).toMatch(/^struct Tensor {\n  ne: vec4<u32>,\n  st: vec4<u32>,\n  off: u32,\n  n: u32,\n};/);
    expect(uniformStruct(s2)).toBe(TENSOR_STRUCT + '\n\nstruct Params {\n  k: u32,\n  src0: Tensor,\n  eps: f32,\n};');
    // k, 3 words of padding, the Tensor at word 4 (off counts the 256 B guard: 64 + 1 elements), eps at word 16.
    expect([...packUniforms(s2, { k: 9, src0: t, eps: 0.5 })]).toEqual([9, 0, 0, 0, 5, 3, 1, 1, 1, 8, 24, 24, 65, 15, 0, 0, f32Bits(0.5), 0, 0, 0]);
    expect(() => packUniforms(s2, { k: 9, src0: 3, eps: 0.5 })).toThrow('Params.src0 needs a tensor, got 3');
  });
});
