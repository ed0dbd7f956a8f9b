// The elementwise family: one thread per `elementsPerThread` vectors of dst, a grid-stride
// apart (coalesced). An op gives named sources, one WGSL expression per output over them, and
// optional f32 constants; the family addresses every tensor from dst's coordinates.
//
// Addressing: when every tensor is packed with dst's shape the kernel walks one flat index;
// otherwise it derives (i0, i1, i2, i3) from dst and reads each source by its own strides with
// ggml's broadcast by modulo (a dim of size 1 is repeated, any other size ne is indexed i % ne).
// A source may instead give its own index expression (a gather), which needs vectorWidth 1.
// An i32 source (row indices) is bound as array<i32> and read as scalars; an f16 output is
// stored as f16, which needs the device's shader-f16 (the op's contract declines without it).
import { deviceOffsetElements } from '../hostdata';
import { grid2d, type BindingRole, type KernelSpec } from '../kernel';
import { elementStrides, isContiguous, nelements, type TensorDesc } from '../tensor';
import { bindAll, f, indent, renameIdents, u, vecType } from '../codegen/wgsl';
import { scheduleKey, type CaseName, type FamilyDef } from './types';

export interface ElementwiseSchedule {
  readonly family: 'elementwise';
  readonly workgroupSize: number;
  /** Consecutive vectors each thread handles, a grid-stride apart (so loads stay coalesced). */
  readonly elementsPerThread: number;
  /** 1, 2 or 4: elements per load/store. */
  readonly vectorWidth: number;
}

export interface ElementwiseSource {
  /** The value's name in the output expressions ('src0', 'x', 'grad'…). */
  readonly name: string;
  readonly tensor: TensorDesc;
  /** The buffer it is read from: its own role, or an output's when the op works in place. */
  readonly binding: BindingRole;
  /**
   * A custom element index into the buffer: a WGSL u32 expression over i0, i1, i2, i3 (dst's
   * coordinates, in elements) and earlier sources' values, e.g. a gather's
   * `u32(rows) * 4096u + i0`. Without it the source is read by its strides, broadcast by modulo.
   */
  readonly index?: string;
  /**
   * With `index`: the index names no coordinate, so every element reads the same value (a
   * hyperparameter kept in a tensor, as OPT_STEP_ADAMW's). It is loaded as a scalar and splatted
   * over vectors, so it neither blocks vectorWidth > 1 nor the flat path.
   */
  readonly uniform?: boolean;
}

export interface ElementwiseOutput {
  readonly tensor: TensorDesc;
  /** The buffer written ('dst'; or a source's role for an op that updates several tensors in place). */
  readonly binding: BindingRole;
  /** The value per element, over the sources' names and the constants (f32, or vecN<f32> when vectorized). */
  readonly expr: string;
}

export interface ElementwiseSnippet {
  readonly sources: readonly ElementwiseSource[];
  /** outputs[0] sets the iteration shape; every output has that shape. */
  readonly outputs: readonly ElementwiseOutput[];
  /** f32 constants baked as module-scope `const name: f32` (eps, scale, an op param). */
  readonly constants?: Readonly<Record<string, number>>;
  /** Module-scope WGSL functions the expressions call (ROPE's rotation), emitted after the constants. */
  readonly functions?: string;
}

const SPACE = {
  workgroupSize: { values: [64, 128, 256, 512], doc: 'threads per workgroup' },
  elementsPerThread: { values: [1, 2, 4, 8], doc: 'vectors per thread, a grid-stride apart' },
  vectorWidth: { values: [1, 2, 4], doc: 'elements per load and store' },
} as const;

/** Every tensor packed with dst's shape and no custom index: one flat index serves them all. */
function isFlat(k: ElementwiseSnippet): boolean {
  const ne = k.outputs[0].tensor.ne;
  const all = [...k.sources.filter((s) => !s.uniform).map((s) => (s.index ? null : s.tensor)), ...k.outputs.map((o) => o.tensor)];
  return all.every((t) => t !== null && isContiguous(t) && t.ne.every((n, i) => n === ne[i]));
}

/** A source read as one f32 splatted over the vector (its ne0 is 1 while dst's rows are vectors). */
function isSplat(src: ElementwiseSource, vw: number): boolean {
  return vw > 1 && !src.index && src.tensor.ne[0] === 1;
}

function fits(s: ElementwiseSchedule, k: ElementwiseSnippet): string[] {
  const vw = s.vectorWidth;
  if (vw === 1) return [];
  const reasons: string[] = [];
  const ints = k.sources.filter((src) => src.tensor.type === 'i32' && !src.index).map((src) => src.name);
  if (ints.length) reasons.push(`vectorWidth ${vw} cannot load ${ints.join(', ')}: i32 sources are read one element at a time (use vectorWidth 1)`);
  const gathers = k.sources.filter((src) => src.index && !src.uniform).map((src) => src.name);
  if (gathers.length) return [...reasons, `vectorWidth ${vw} needs strided addressing, but ${gathers.join(', ')} ${gathers.length > 1 ? 'have' : 'has'} a custom index (use vectorWidth 1)`];
  const dst = k.outputs[0].tensor;
  if (isFlat(k)) {
    if (nelements(dst) % vw) reasons.push(`vectorWidth ${vw} needs the element count ${nelements(dst)} to be a multiple of ${vw}`);
    return reasons;
  }
  if (dst.ne[0] % vw) reasons.push(`vectorWidth ${vw} needs ne0 % ${vw} == 0, got ne0 = ${dst.ne[0]}`);
  const aligned = (t: TensorDesc) => elementStrides(t).slice(1).every((st, d) => st % vw === 0 || t.ne[d + 1] === 1) && deviceOffsetElements(t) % vw === 0;
  const named = [...k.sources.filter((x) => !x.uniform).map((x) => ({ name: x.name, tensor: x.tensor, splat: isSplat(x, vw) })), ...k.outputs.map((o) => ({ name: o.binding, tensor: o.tensor, splat: false }))];
  for (const { name, tensor, splat } of named) {
    if (splat) continue;
    if (elementStrides(tensor)[0] !== 1) reasons.push(`vectorWidth ${vw} needs ${name}'s rows contiguous (nb0 = ${tensor.nb[0]} B)`);
    else if (!aligned(tensor)) reasons.push(`vectorWidth ${vw} needs ${name}'s rows to start on ${vw}-element boundaries`);
    if (tensor.ne[0] % vw) reasons.push(`vectorWidth ${vw} needs ${name}'s ne0 (${tensor.ne[0]}) to be 1 or a multiple of ${vw}`);
  }
  return reasons;
}

/**
 * Buffers in order of first use (sources, then outputs): written ones read_write, splat-only ones
 * f32, i32 ones (positions, indices: every reader an i32 tensor) array<i32>.
 */
function bufferDecls(k: ElementwiseSnippet, vw: number) {
  const roles: BindingRole[] = [];
  for (const b of [...k.sources.map((x) => x.binding), ...k.outputs.map((o) => o.binding)]) if (!roles.includes(b)) roles.push(b);
  return bindAll(
    roles.map((role) => {
      const written = k.outputs.some((o) => o.binding === role);
      const readers = k.sources.filter((x) => x.binding === role);
      const scalar = vw === 1 || (!written && readers.length > 0 && readers.every((x) => isSplat(x, vw) || !!x.index));
      // i32 sources (row indices, positions) are read as i32 scalars: a gather's index, a value.
      const ints = !written && readers.length > 0 && readers.every((x) => x.tensor.type === 'i32');
      // An f16 output (a cast, CPY to f16) is stored as f16 (the kernel enables shader-f16).
      const half = written && k.outputs.some((o) => o.binding === role && o.tensor.type === 'f16');
      const elem = half ? (vw === 1 ? 'f16' : `vec${vw}<f16>`) : ints ? 'i32' : scalar ? 'f32' : vecType(vw);
      return { role, name: role, access: written ? 'read_write' : 'read', elem };
    }),
  );
}

/** Strided index of `t` from dst's (i0..i3), in units of the buffer's element (vw, or 1 for a splat). */
function stridedIndex(t: TensorDesc, dstNe: readonly number[], vw: number, splat: boolean): string {
  const st = elementStrides(t);
  const unit = splat ? 1 : vw;
  const terms = [u(deviceOffsetElements(t) / unit)];
  const coord = (d: number, n: number) => (n === dstNe[d] ? `i${d}` : `(i${d} % ${u(n)})`);
  if (!splat && t.ne[0] > 1) {
    const i0 = t.ne[0] === dstNe[0] ? 'i0' : `(i0 % ${u(t.ne[0] / vw)})`;
    terms.push(st[0] === 1 ? i0 : `${i0} * ${u(st[0])}`);
  }
  for (const d of [1, 2, 3]) if (t.ne[d] > 1) terms.push(`${coord(d, t.ne[d])} * ${u(st[d] / unit)}`);
  return terms.join(' + ');
}

/**
 * Values live in `<name>_v` locals (a source may share its name with a buffer, as ADD's src0
 * does): expressions are rewritten identifier by identifier (a swizzle `.x` is left alone).
 */
function valueNames(expr: string, names: readonly string[]): string {
  return renameIdents(expr, names, (m) => `${m}_v`);
}

function generate(s: ElementwiseSchedule, k: ElementwiseSnippet, c: CaseName): KernelSpec {
  const vw = s.vectorWidth;
  const T = vecType(vw);
  const dst = k.outputs[0].tensor;
  const nVec = nelements(dst) / vw;
  const threads = Math.ceil(nVec / s.elementsPerThread);
  const dispatch = grid2d(Math.ceil(threads / s.workgroupSize));
  const { decls, bindings } = bufferDecls(k, vw);
  const flat = isFlat(k);
  const names = k.sources.map((x) => x.name);
  const loads = k.sources.map((x, i) => {
    if (x.index && x.uniform) {
      const at = `${x.binding}[${valueNames(x.index, names.slice(0, i))}]`;
      return `let ${x.name}_v = ${vw > 1 ? `${T}(${at})` : at};`;
    }
    if (flat) return `let ${x.name}_v = ${x.binding}[${u(deviceOffsetElements(x.tensor) / vw)} + v];`;
    if (x.index) return `let ${x.name}_v = ${x.binding}[${valueNames(x.index, names.slice(0, i))}];`;
    const splat = isSplat(x, vw);
    const at = `${x.binding}[${stridedIndex(x.tensor, dst.ne, vw, splat)}]`;
    return `let ${x.name}_v = ${splat ? `${T}(${at})` : at};`;
  });
  const stored = (o: ElementwiseOutput) => (o.tensor.type === 'f16' ? `${vw === 1 ? 'f16' : `vec${vw}<f16>`}(${valueNames(o.expr, names)})` : valueNames(o.expr, names));
  const stores = k.outputs.map((o) => `${o.binding}[${flat ? `${u(deviceOffsetElements(o.tensor) / vw)} + v` : stridedIndex(o.tensor, dst.ne, vw, false)}] = ${stored(o)};`);
  const halves = k.outputs.some((o) => o.tensor.type === 'f16');
  const [ne0, ne1, ne2, ne3] = dst.ne;
  const coords = flat
    ? []
    : [
        `let i0 = v % ${u(ne0 / vw)};`,
        `let r = v / ${u(ne0 / vw)};`,
        `let i1 = ${ne1 === 1 ? '0u' : `r % ${u(ne1)}`};`,
        `let i2 = ${ne2 === 1 ? '0u' : `(r / ${u(ne1)}) % ${u(ne2)}`};`,
        `let i3 = ${ne3 === 1 ? '0u' : `r / ${u(ne1 * ne2)}`};`,
      ];
  const body = Array.from({ length: s.elementsPerThread }, (_, j) =>
    [`{`, `  let v = t + ${u(j * threads)};`, `  if (v < ${u(nVec)}) {`, indent([...coords, ...loads, ...stores].join('\n'), 4), '  }', '}'].join('\n'),
  );
  // A snippet written for both kernels names its value type T (f32 in the native template).
  const usesT = [...k.outputs.map((o) => o.expr), k.functions ?? ''].some((e) => /\bT\b/.test(e));
  const consts = [...(usesT ? [`alias T = ${T};`] : []), ...Object.entries(k.constants ?? {}).map(([name, value]) => `const ${name}: f32 = ${f(value)};`)];
  const wgsl = `// generated: ${c.op} ${flat ? 'flat' : 'strided'} ${c.label}, ${scheduleKey(s)}
${halves ? 'enable f16;\n\n' : ''}${decls}
${consts.length ? `\n${consts.join('\n')}\n` : ''}${k.functions ? `\n${k.functions.trimEnd()}\n` : ''}
@compute @workgroup_size(${s.workgroupSize})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let t = (wid.y * ${u(dispatch[0])} + wid.x) * ${u(s.workgroupSize)} + lid;
  if (t >= ${u(threads)}) {
    return;
  }
${indent(body.join('\n'), 2)}
}
`;
  return { label: `generated:${c.op} ${scheduleKey(s)}`, wgsl, entryPoint: 'main', bindings, dispatch, ...(halves ? { features: ['shader-f16'] } : {}) };
}

export const ELEMENTWISE: FamilyDef<ElementwiseSchedule, ElementwiseSnippet> = {
  name: 'elementwise',
  doc: 'one thread per few vectors of dst; sources addressed from dst coordinates (broadcast by modulo, or a custom index)',
  space: SPACE,
  threads: (s) => s.workgroupSize,
  workgroupBytes: () => 0,
  threadsText: (s) => `workgroupSize ${s.workgroupSize}`,
  validate(s, { limits }) {
    const reasons: string[] = [];
    if (s.workgroupSize > limits.maxComputeWorkgroupSizeX) reasons.push(`workgroupSize ${s.workgroupSize} exceeds maxComputeWorkgroupSizeX ${limits.maxComputeWorkgroupSizeX}`);
    if (s.elementsPerThread > 64) reasons.push(`elementsPerThread ${s.elementsPerThread} exceeds 64`);
    return reasons;
  },
  fits,
  generate,
};
