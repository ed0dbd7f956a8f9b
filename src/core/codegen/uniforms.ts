// Native kernels' uniforms as named records: one schema (field name + scalar type) gives both
// the WGSL struct text and the bytes, so the two cannot drift apart. Every field is a 4-byte
// scalar, so WGSL's uniform layout is the fields in order, padded to 16 bytes.

export type UniformType = 'u32' | 'i32' | 'f32';

export interface UniformSchema {
  /** The WGSL struct's name ('Params'). */
  readonly name: string;
  readonly fields: readonly (readonly [name: string, type: UniformType])[];
}

export function uniformSchema(name: string, fields: Readonly<Record<string, UniformType>>): UniformSchema {
  return Object.freeze({ name, fields: Object.freeze(Object.entries(fields)) });
}

/** `struct Params {\n  ne0: u32,\n  eps: f32,\n};` */
export function uniformStruct(schema: UniformSchema): string {
  return `struct ${schema.name} {\n${schema.fields.map(([n, t]) => `  ${n}: ${t},`).join('\n')}\n};`;
}

/**
 * The uniform's bytes from a record with exactly the schema's fields; a missing, extra or
 * out-of-range value throws naming the field.
 */
export function packUniforms(schema: UniformSchema, values: Readonly<Record<string, number>>): Uint32Array {
  const extra = Object.keys(values).filter((k) => !schema.fields.some(([n]) => n === k));
  if (extra.length) throw new Error(`${schema.name} has no field ${extra.join(', ')}`);
  const out = new Uint32Array(Math.max(4, Math.ceil(schema.fields.length / 4) * 4));
  const i32 = new Int32Array(out.buffer);
  const f32 = new Float32Array(out.buffer);
  schema.fields.forEach(([name, type], i) => {
    const v = values[name];
    if (v === undefined) throw new Error(`${schema.name}.${name} is missing`);
    if (type === 'f32') {
      if (!Number.isFinite(v)) throw new Error(`${schema.name}.${name} = ${v} is not a finite f32`);
      f32[i] = v;
    } else if (type === 'u32') {
      if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) throw new Error(`${schema.name}.${name} = ${v} is not a u32`);
      out[i] = v;
    } else {
      if (!Number.isInteger(v) || v < -(2 ** 31) || v >= 2 ** 31) throw new Error(`${schema.name}.${name} = ${v} is not an i32`);
      i32[i] = v;
    }
  });
  return out;
}
