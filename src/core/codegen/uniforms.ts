// Native kernels' uniforms as named records: one schema (field name + type) gives both the WGSL
// struct text and the bytes, so the two cannot drift apart. Scalars are 4-byte fields; a
// 'tensor' field is the one descriptor layout every kernel shares for a tensor's shape and
// addressing (`struct Tensor`: ne, element strides, element offset, element count), so no kernel
// spells its own s00/s01/off0 names. WGSL's uniform layout rules are applied here: a Tensor
// member starts on 16 bytes and takes 48; the struct is padded to 16.
import { deviceOffsetElements } from '../hostdata';
import { elementStrides, nelements, type TensorDesc } from '../tensor';

export type UniformType = 'u32' | 'i32' | 'f32' | 'tensor';

export interface UniformSchema {
  /** The WGSL struct's name ('Params'). */
  readonly name: string;
  readonly fields: readonly (readonly [name: string, type: UniformType])[];
}

export type UniformValue = number | TensorDesc;

export function uniformSchema(name: string, fields: Readonly<Record<string, UniformType>>): UniformSchema {
  return Object.freeze({ name, fields: Object.freeze(Object.entries(fields)) });
}

/**
 * The shared tensor descriptor, in elements of the tensor's own type: `ne` its extents, `st` its
 * strides (ggml's nb / type size), `off` where its first element sits in the bound buffer, `n`
 * its element count. With it come its two addressing functions: a linear element index as
 * coordinates (i0, i1, i2, i3) of a shape, and a tensor's element at coordinates.
 */
export const TENSOR_STRUCT = `struct Tensor {
  ne: vec4<u32>,
  st: vec4<u32>,
  off: u32,
  n: u32,
};

fn tensor_coords(ne: vec4<u32>, i: u32) -> vec4<u32> {
  return vec4<u32>(i % ne.x, (i / ne.x) % ne.y, (i / (ne.x * ne.y)) % ne.z, i / (ne.x * ne.y * ne.z));
}

fn tensor_at(t: Tensor, c: vec4<u32>) -> u32 {
  return t.off + c.x * t.st.x + c.y * t.st.y + c.z * t.st.z + c.w * t.st.w;
}`;
const TENSOR_WORDS = 12;

/** `struct Params {\n  ne0: u32,\n  src0: Tensor,\n  eps: f32,\n};`, after `struct Tensor` when a field is one. */
export function uniformStruct(schema: UniformSchema): string {
  const own = `struct ${schema.name} {\n${schema.fields.map(([n, t]) => `  ${n}: ${t === 'tensor' ? 'Tensor' : t},`).join('\n')}\n};`;
  return schema.fields.some(([, t]) => t === 'tensor') ? `${TENSOR_STRUCT}\n\n${own}` : own;
}

/** Word offset of each field (a Tensor aligned to 4 words) and the padded length in words. */
function layout(schema: UniformSchema): { at: number[]; words: number } {
  let w = 0;
  const at = schema.fields.map(([, type]) => {
    if (type === 'tensor') w = Math.ceil(w / 4) * 4;
    const here = w;
    w += type === 'tensor' ? TENSOR_WORDS : 1;
    return here;
  });
  return { at, words: Math.max(4, Math.ceil(w / 4) * 4) };
}

/**
 * The uniform's bytes from a record with exactly the schema's fields; a missing, extra or
 * out-of-range value throws naming the field.
 */
export function packUniforms(schema: UniformSchema, values: Readonly<Record<string, UniformValue>>): Uint32Array {
  const extra = Object.keys(values).filter((k) => !schema.fields.some(([n]) => n === k));
  if (extra.length) throw new Error(`${schema.name} has no field ${extra.join(', ')}`);
  const { at, words } = layout(schema);
  const out = new Uint32Array(words);
  const i32 = new Int32Array(out.buffer);
  const f32 = new Float32Array(out.buffer);
  const u32 = (name: string, v: number, i: number) => {
    if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) throw new Error(`${schema.name}.${name} = ${v} is not a u32`);
    out[i] = v;
  };
  schema.fields.forEach(([name, type], k) => {
    const v = values[name];
    const i = at[k];
    if (v === undefined) throw new Error(`${schema.name}.${name} is missing`);
    if (type === 'tensor') {
      if (typeof v !== 'object') throw new Error(`${schema.name}.${name} needs a tensor, got ${v}`);
      const st = elementStrides(v);
      v.ne.forEach((n, d) => u32(`${name}.ne[${d}]`, n, i + d));
      st.forEach((s, d) => u32(`${name}.st[${d}]`, s, i + 4 + d));
      u32(`${name}.off`, deviceOffsetElements(v), i + 8);
      u32(`${name}.n`, nelements(v), i + 9);
      return;
    }
    if (typeof v !== 'number') throw new Error(`${schema.name}.${name} is a ${type}, got a tensor`);
    if (type === 'f32') {
      if (!Number.isFinite(v)) throw new Error(`${schema.name}.${name} = ${v} is not a finite f32`);
      f32[i] = v;
    } else if (type === 'u32') {
      u32(name, v, i);
    } else {
      if (!Number.isInteger(v) || v < -(2 ** 31) || v >= 2 ** 31) throw new Error(`${schema.name}.${name} = ${v} is not an i32`);
      i32[i] = v;
    }
  });
  return out;
}
