// What codegen and the native kernels hand to the GPU layer: plain data, no GPU objects.
import { renderTemplate, type TemplateDefines } from './codegen/template';
import { packUniforms, uniformSchema, uniformStruct, type UniformSchema, type UniformValue } from './codegen/uniforms';

/**
 * Declared numerics of a kernel that rounds an operand before multiplying: 'f16' (f16 staging for
 * subgroup matrices), 'q8_1' (activations quantized to ggml's q8_1 blocks by the MMVQ schedule).
 * src/core/stats/correctness.ts turns each into its bound.
 */
export type InputRounding = 'f16' | 'q8_1';

/** Which buffer a binding reads: an op's sources, its destination, or the uniform params. */
export type BindingRole = 'src0' | 'src1' | 'src2' | 'src3' | 'src4' | 'src5' | 'dst' | 'params';

export interface BindingSpec {
  readonly binding: number;
  /** An op tensor's role, or 'scratch' with the name of one of the kernel's `scratch` buffers. */
  readonly role: BindingRole | 'scratch';
  readonly buffer?: string;
  readonly access: 'read' | 'read_write' | 'uniform';
}

export interface KernelSpec {
  /** 'native:ADD/add.wgsl' or 'generated:elementwise{…}' — shows in errors and pipeline labels. */
  readonly label: string;
  readonly wgsl: string;
  readonly entryPoint: string;
  /** Group 0 bindings, in binding order. */
  readonly bindings: readonly BindingSpec[];
  /** Workgroups per dimension; each ≤ maxComputeWorkgroupsPerDimension. */
  readonly dispatch: readonly [number, number, number];
  /** Raw bytes of the params uniform, when a binding has role 'params'. */
  readonly uniforms?: Uint32Array;
  /** Device features the WGSL needs (e.g. 'subgroups'). */
  readonly features?: readonly string[];
  /**
   * A templated native kernel's defines (PARAMS struct included): an edited copy of its source
   * file (`--wgsl FILE`, the page's editor) is rendered with them, so it gets the same variant.
   */
  readonly templateDefines?: TemplateDefines;
  /**
   * The kernel rounds f32 operands to this type before multiplying (f16 staging for subgroup
   * matrices): its output is checked with that type's eps, since the inputs themselves moved.
   */
  readonly inputRounding?: InputRounding;
  /** Dispatches per run (default 1): the lane's 3×-work slow control repeats the same work. */
  readonly repeat?: number;
  /**
   * Passes that run before this one in the same compute pass of every run (timed together: the
   * MMVQ schedule's activation quantize pass), sharing `scratch` buffers with it by name.
   */
  readonly prelude?: readonly PassSpec[];
  /** Scratch buffers the prelude and this pass bind (role 'scratch'), zero-filled before every run. */
  readonly scratch?: readonly { readonly name: string; readonly sizeBytes: number }[];
}

/** The largest workgroup count per dispatch dimension WebGPU guarantees. */
export const MAX_WORKGROUPS_PER_DIM = 65535;

/**
 * Spreads `workgroups` over x and y when it exceeds one dimension's limit; kernels then
 * linearize with `wid.y * nx + wid.x` and skip the overhang.
 */
export function grid2d(workgroups: number, maxPerDim = MAX_WORKGROUPS_PER_DIM): [number, number, number] {
  if (workgroups <= maxPerDim) return [Math.max(1, workgroups), 1, 1];
  const y = Math.ceil(workgroups / maxPerDim);
  const x = Math.ceil(workgroups / y);
  if (y > maxPerDim) throw new Error(`${workgroups} workgroups do not fit a ${maxPerDim}×${maxPerDim} grid`);
  return [x, y, 1];
}

/**
 * The entry every one-thread-per-element native kernel shares (the `{{ELEMENT_MAIN}}` define of
 * a templated kernel with a numeric WG): it linearizes grid2d's workgroups as above and calls the
 * kernel's own `fn element(i: u32)` with its thread's index. With `bound` (`{{DST_ELEMENT_MAIN}}`:
 * p.dst.n, the kernels with one thread per dst element) it skips the overhang itself; without,
 * the kernel does (it counts other elements: a pair's, a view's).
 */
export function elementMain(wg: number, bound?: string): string {
  const index = `(wid.y * nwg.x + wid.x) * ${wg}u + lid`;
  const call = bound ? `  let i = ${index};\n  if (i < ${bound}) {\n    element(i);\n  }` : `  element(${index});`;
  return `@compute @workgroup_size(${wg})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
${call}
}`;
}

/**
 * The `{{BINDINGS}}` define of a templated kernel: its bindings declared from the roles the host
 * binds, in that order (so the two cannot drift, as PARAMS and the packed bytes cannot): an f32
 * array named by its role (`elems` names another element type: i32 indices, u32 packed words),
 * dst read-write and the sources read-only, and the uniform as `p`. Kernels whose bindings are
 * named otherwise (grad, hp) declare their own.
 */
export function bindingDecls(roles: readonly BindingRole[], uniform: string, elems: BindingElems = {}): string {
  return roles
    .map((r, i) => `@group(0) @binding(${i}) ${r === 'params' ? `var<uniform> p: ${uniform}` : `var<storage, ${r === 'dst' ? 'read_write' : 'read'}> ${r}: array<${elems[r] ?? 'f32'}>`};`)
    .join('\n');
}

/**
 * A matmul operand read one element at a time (`{{LD0}}`/`{{LD1}}` of the MUL_MAT templates): the
 * binding, then `fn ldN(i) -> f32` — f16 as u32 words of two halves, widened exactly, or f32.
 */
export function scalarLoader(role: 'src0' | 'src1', binding: number, f16: boolean): string {
  const n = role === 'src0' ? 0 : 1;
  return f16
    ? `@group(0) @binding(${binding}) var<storage, read> ${role}: array<u32>;\nfn ld${n}(i: u32) -> f32 { return unpack2x16float(${role}[i >> 1u])[i & 1u]; }`
    : `@group(0) @binding(${binding}) var<storage, read> ${role}: array<f32>;\nfn ld${n}(i: u32) -> f32 { return ${role}[i]; }`;
}

/** Element types of a templated kernel's bindings other than f32. */
export type BindingElems = Readonly<Partial<Record<BindingRole, 'i32' | 'u32'>>>;

/** A list of u32 params (the calibration kernels' uniform), packed by the one uniform packer. */
export function packParams(values: readonly number[]): Uint32Array {
  const names = values.map((_, i) => `param ${i}`);
  return packUniforms(uniformSchema('Params', Object.fromEntries(names.map((n) => [n, 'u32' as const]))), Object.fromEntries(names.map((n, i) => [n, values[i]])));
}

/** Bit pattern of an f32, for passing float params (eps) through a u32 uniform. */
export function f32Bits(x: number): number {
  return new Uint32Array(new Float32Array([x]).buffer)[0];
}

/**
 * A hand-written kernel's spec from its bindings in order: sources are read-only, dst is
 * read-write (in place, dst alone carries src0 too), params is the uniform.
 */
export function nativeKernel(file: string, wgsl: string, roles: readonly BindingRole[], dispatch: readonly [number, number, number], uniforms?: Uint32Array): KernelSpec {
  const access = (role: BindingRole): BindingSpec['access'] => (role === 'dst' ? 'read_write' : role === 'params' ? 'uniform' : 'read');
  return {
    label: `native:${file}`,
    wgsl,
    entryPoint: 'main',
    bindings: roles.map((role, binding) => ({ binding, role, access: access(role) })),
    dispatch,
    ...(uniforms ? { uniforms } : {}),
  };
}

/**
 * A hand-written kernel from its templated source: the PARAMS placeholder becomes the schema's
 * struct, `params` its bytes, and `defines` pick the variant (INPLACE, WG…). The label names
 * the true-valued flags: 'native:ADD/add.wgsl [INPLACE]'.
 */
export function nativeTemplated(
  file: string,
  source: string,
  roles: readonly BindingRole[],
  dispatch: readonly [number, number, number],
  schema: UniformSchema,
  params: Readonly<Record<string, UniformValue>>,
  defines: TemplateDefines = {},
  elems: BindingElems = {},
): KernelSpec {
  const templateDefines = { ...defines, PARAMS: uniformStruct(schema), BINDINGS: bindingDecls(roles, schema.name, elems), ...(typeof defines.WG === 'number' ? { ELEMENT_MAIN: elementMain(defines.WG), DST_ELEMENT_MAIN: elementMain(defines.WG, 'p.dst.n') } : {}) };
  const wgsl = renderTemplate(source, templateDefines, file);
  const flags = Object.entries(defines).filter(([, v]) => v === true).map(([k]) => k);
  const spec = { ...nativeKernel(file, wgsl, roles, dispatch, packUniforms(schema, params)), templateDefines };
  return flags.length ? { ...spec, label: `${spec.label} [${flags.join(', ')}]` } : spec;
}

/**
 * The native kernel with its WGSL replaced by an edit: a copy of the templated source is
 * rendered with the kernel's own defines (plain WGSL passes through unchanged).
 */
export function editedNative(kernel: KernelSpec, text: string): KernelSpec {
  const wgsl = kernel.templateDefines ? renderTemplate(text, kernel.templateDefines, `${kernel.label} (edited)`) : text;
  return { ...kernel, wgsl, label: `${kernel.label} (edited)` };
}

// A pass (src/core/program.ts runs programs of passes) is what a kernel is, with scratch
// bindings and constants; declared here, beside KernelSpec, so the two files import one way.
export interface PassBinding extends Omit<BindingSpec, 'role'> {
  /** An op tensor's role, or 'scratch' with the program's buffer name. */
  readonly role: BindingRole | 'scratch';
  readonly buffer?: string;
}

/** One pass: what a kernel is (a kernel is a program of one pass), with scratch bindings and constants. */
export interface PassSpec extends Pick<KernelSpec, 'label' | 'wgsl' | 'entryPoint' | 'dispatch' | 'uniforms' | 'features' | 'repeat'> {
  readonly bindings: readonly PassBinding[];
  /** Pipeline-overridable constants. */
  readonly constants?: Readonly<Record<string, number>>;
}
