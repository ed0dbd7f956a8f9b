// ADD — ggml_add(a, b): dst = a + b with b repeated over a (ggml_can_repeat(b, a)); dst has
// a's shape; ggml_add_inplace makes dst a view of a. Like ggml's CPU kernel, dst and src0 rows
// must be contiguous; src1 may have any strides.
import nativeWgsl from '../../../kernels/ADD/add.wgsl?raw';
import nativeInplaceWgsl from '../../../kernels/ADD/add_inplace.wgsl?raw';
import { bindAll, indent, u, vecType } from '../codegen/wgsl';
import { deviceOffsetElements, gather } from '../hostdata';
import { grid2d, type KernelSpec, nativeKernel, packParams } from '../kernel';
import { scheduleKey, type ElementwiseSchedule, type Schedule } from '../schedule/schedule';
import { canRepeat, contiguous, elementStrides, isContiguous, nelements, permute, rowsContiguous, stridedRows, type TensorDesc } from '../tensor';
import { commonRejection } from './contract';
import { caseLabel, OpCaseError, parseParams, rowFeatures, type OpCase, type OpDef } from './types';

const LAYOUTS = [
  { name: 'contiguous', doc: 'src0, src1 and dst packed, same shape' },
  { name: 'inplace', doc: 'ggml_add_inplace: dst is src0 itself' },
  { name: 'broadcast-row', doc: 'src1 is one row [ne0] added to every row (a bias)' },
  { name: 'broadcast-col', doc: 'src1 is [1, ne1, ne2, ne3]: one value per row' },
  { name: 'src0-rows-strided', doc: 'src0 is a view whose rows sit in a wider packed tensor' },
  { name: 'src1-permuted', doc: 'src1 is permute(0,2,1,3) of a packed tensor (rows contiguous, planes swapped)' },
  { name: 'src1-transposed', doc: 'src1 is the transpose of a packed tensor (rows not contiguous)' },
] as const;

function makeCase(dims: readonly number[], layout: string = 'contiguous', params: Readonly<Record<string, number>> = {}): OpCase {
  if (dims.length < 1 || dims.length > 4) throw new OpCaseError(`ADD takes 1 to 4 dims (ne0xne1[xne2xne3] of dst), got ${dims.length}`);
  parseParams('ADD', [], params);
  const ne = [1, 1, 1, 1].map((one, i) => dims[i] ?? one);
  const [ne0, ne1, ne2, ne3] = ne;
  let src0 = contiguous('f32', ne);
  let src1 = contiguous('f32', ne);
  let inplace = false;
  switch (layout) {
    case 'contiguous':
      break;
    case 'inplace':
      inplace = true;
      break;
    case 'broadcast-row':
      src1 = contiguous('f32', [ne0]);
      break;
    case 'broadcast-col':
      src1 = contiguous('f32', [1, ne1, ne2, ne3]);
      break;
    case 'src0-rows-strided':
      src0 = stridedRows('f32', ne, ne0 + 3, 1);
      break;
    case 'src1-permuted':
      src1 = permute(contiguous('f32', [ne0, ne2, ne1, ne3]), [0, 2, 1, 3]);
      break;
    case 'src1-transposed':
      src1 = permute(contiguous('f32', [ne1, ne0, ne2, ne3]), [1, 0, 2, 3]);
      break;
    default:
      throw new OpCaseError(`ADD has no layout '${layout}' (layouts: ${LAYOUTS.map((l) => l.name).join(', ')})`);
  }
  if (!canRepeat(src1, src0)) throw new OpCaseError(`ADD: src1 ${src1.ne.join('x')} does not repeat over src0 ${src0.ne.join('x')}`);
  const dst = inplace ? { ...src0, layout: 'inplace' } : contiguous('f32', ne);
  return Object.freeze({ op: 'ADD', dims: Object.freeze([...dims]), layout, label: caseLabel(dims, layout, 'contiguous'), srcs: Object.freeze([src0, src1]), dst, inplace, params: Object.freeze({}) });
}

function oracle(c: OpCase, srcs: readonly ArrayBuffer[]) {
  const [s0, s1] = c.srcs;
  const a = gather(s0, srcs[0]);
  const b = gather(s1, srcs[1]);
  const [ne0, ne1, ne2, ne3] = c.dst.ne;
  const [ne10, ne11, ne12, ne13] = s1.ne;
  const ref = new Float64Array(a.length);
  const epsFloor = new Float64Array(a.length);
  let i = 0;
  for (let i3 = 0; i3 < ne3; i3++)
    for (let i2 = 0; i2 < ne2; i2++)
      for (let i1 = 0; i1 < ne1; i1++)
        for (let i0 = 0; i0 < ne0; i0++, i++) {
          const bv = b[(i0 % ne10) + ne10 * ((i1 % ne11) + ne11 * ((i2 % ne12) + ne12 * (i3 % ne13)))];
          ref[i] = a[i] + bv;
          epsFloor[i] = Math.abs(a[i]) + Math.abs(bv);
        }
  return { ref, epsFloor, terms: 1 };
}

function nativeParams(c: OpCase): Uint32Array {
  const [src0, src1] = c.srcs;
  const dst = c.dst;
  return packParams([
    ...dst.ne,
    ...elementStrides(src0),
    ...src1.ne,
    ...elementStrides(src1),
    ...elementStrides(dst),
    deviceOffsetElements(src0),
    deviceOffsetElements(src1),
    deviceOffsetElements(dst),
    nelements(dst),
  ]);
}

function native(c: OpCase): KernelSpec {
  const dispatch = grid2d(Math.ceil(nelements(c.dst) / 256));
  if (c.inplace) {
    return nativeKernel('ADD/add_inplace.wgsl', nativeInplaceWgsl, ['dst', 'src1', 'params'], dispatch, nativeParams(c));
  }
  return nativeKernel('ADD/add.wgsl', nativeWgsl, ['src0', 'src1', 'dst', 'params'], dispatch, nativeParams(c));
}

/** All three tensors packed with one shape: the kernel can walk one flat index. */
function isFlat(c: OpCase): boolean {
  const [src0, src1] = c.srcs;
  return isContiguous(src0) && isContiguous(src1) && isContiguous(c.dst) && src1.ne.every((n, i) => n === c.dst.ne[i]);
}

function fits(s: Schedule, c: OpCase): string[] {
  if (s.family !== 'elementwise') return [`ADD takes an elementwise schedule, not ${s.family}`];
  const vw = s.vectorWidth;
  if (vw === 1) return [];
  const reasons: string[] = [];
  const [src0, src1] = c.srcs;
  if (isFlat(c)) {
    if (nelements(c.dst) % vw) reasons.push(`vectorWidth ${vw} needs the element count ${nelements(c.dst)} to be a multiple of ${vw}`);
  } else {
    if (c.dst.ne[0] % vw) reasons.push(`vectorWidth ${vw} needs ne0 % ${vw} == 0, got ne0 = ${c.dst.ne[0]}`);
    const aligned = (t: TensorDesc) => elementStrides(t).slice(1).every((st, d) => st % vw === 0 || t.ne[d + 1] === 1) && deviceOffsetElements(t) % vw === 0;
    if (!aligned(src0)) reasons.push(`vectorWidth ${vw} needs src0's rows to start on ${vw}-element boundaries`);
    if (src1.ne[0] !== 1 && !aligned(src1)) reasons.push(`vectorWidth ${vw} needs src1's rows to start on ${vw}-element boundaries`);
    if (src1.ne[0] !== 1 && src1.ne[0] % vw) reasons.push(`vectorWidth ${vw} needs src1's ne0 (${src1.ne[0]}) to be 1 or a multiple of ${vw}`);
  }
  return reasons;
}

/** The kernel around either path's per-vector blocks: thread index over a 2D grid, overhang skipped. */
function elementwiseKernel(path: string, s: ElementwiseSchedule, c: OpCase, decls: string, bindings: KernelSpec['bindings'], dispatch: [number, number, number], threads: number, body: string[]): KernelSpec {
  const wgsl = `// generated: ADD ${path} ${c.label}, ${scheduleKey(s)}
${decls}

@compute @workgroup_size(${s.workgroupSize})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let t = (wid.y * ${u(dispatch[0])} + wid.x) * ${u(s.workgroupSize)} + lid;
  if (t >= ${u(threads)}) {
    return;
  }
${indent(body.join('\n'), 2)}
}
`;
  return { label: `generated:ADD ${scheduleKey(s)}`, wgsl, entryPoint: 'main', bindings, dispatch };
}

/** Flat path: one index over packed tensors, vectors a grid-stride apart. */
function generateFlat(s: ElementwiseSchedule, c: OpCase): KernelSpec {
  const vw = s.vectorWidth;
  const T = vecType(vw);
  const nVec = nelements(c.dst) / vw;
  const threads = Math.ceil(nVec / s.elementsPerThread);
  const workgroups = Math.ceil(threads / s.workgroupSize);
  const dispatch = grid2d(workgroups);
  const [src0, src1] = c.srcs;
  const off0 = deviceOffsetElements(src0) / vw;
  const off1 = deviceOffsetElements(src1) / vw;
  const offd = deviceOffsetElements(c.dst) / vw;
  const { decls, bindings } = c.inplace
    ? bindAll([
        { role: 'dst', name: 'dst', access: 'read_write', elem: T },
        { role: 'src1', name: 'src1', access: 'read', elem: T },
      ])
    : bindAll([
        { role: 'src0', name: 'src0', access: 'read', elem: T },
        { role: 'src1', name: 'src1', access: 'read', elem: T },
        { role: 'dst', name: 'dst', access: 'read_write', elem: T },
      ]);
  const a = c.inplace ? `dst[${u(offd)} + v]` : `src0[${u(off0)} + v]`;
  const body: string[] = [];
  for (let j = 0; j < s.elementsPerThread; j++) {
    body.push(`{\n  let v = t + ${u(j * threads)};\n  if (v < ${u(nVec)}) {\n    dst[${u(offd)} + v] = ${a} + src1[${u(off1)} + v];\n  }\n}`);
  }
  return elementwiseKernel('flat', s, c, decls, bindings, dispatch, threads, body);
}

/** General path: vectors along rows, baked strides, src1 broadcast by modulo (or a splat). */
function generateStrided(s: ElementwiseSchedule, c: OpCase): KernelSpec {
  const vw = s.vectorWidth;
  const T = vecType(vw);
  const [src0, src1] = c.srcs;
  const dst = c.dst;
  const [ne0, ne1, ne2] = dst.ne;
  const rowVecs = ne0 / vw;
  const nVec = nelements(dst) / vw;
  const threads = Math.ceil(nVec / s.elementsPerThread);
  const dispatch = grid2d(Math.ceil(threads / s.workgroupSize));
  const st0 = elementStrides(src0);
  const st1 = elementStrides(src1);
  const std = elementStrides(dst);
  const splat = src1.ne[0] === 1 && vw > 1;
  const { decls, bindings } = c.inplace
    ? bindAll([
        { role: 'dst', name: 'dst', access: 'read_write', elem: T },
        { role: 'src1', name: 'src1', access: 'read', elem: splat ? 'f32' : T },
      ])
    : bindAll([
        { role: 'src0', name: 'src0', access: 'read', elem: T },
        { role: 'src1', name: 'src1', access: 'read', elem: splat ? 'f32' : T },
        { role: 'dst', name: 'dst', access: 'read_write', elem: T },
      ]);
  // Offsets and row strides in units of the element type each array is declared with.
  const idx = (t: TensorDesc, st: number[], unit: number, i0: string) =>
    `${u(deviceOffsetElements(t) / unit)} + ${i0} + i1 * ${u(st[1] / unit)} + i2 * ${u(st[2] / unit)} + i3 * ${u(st[3] / unit)}`;
  const bIdx = (() => {
    const unit = splat ? 1 : vw;
    const ne10 = src1.ne[0];
    const b0 = ne10 === 1 ? '0u' : ne10 === ne0 ? `i0 * ${u(st1[0])}` : `(i0 % ${u(ne10 / vw)}) * ${u(st1[0])}`;
    const mod = (i: string, n: number) => (n === 1 ? '0u' : n === dst.ne[Number(i.slice(1))] ? i : `(${i} % ${u(n)})`);
    const bi1 = mod('i1', src1.ne[1]);
    const bi2 = mod('i2', src1.ne[2]);
    const bi3 = mod('i3', src1.ne[3]);
    return `${u(deviceOffsetElements(src1) / unit)} + ${b0} + ${bi1} * ${u(st1[1] / unit)} + ${bi2} * ${u(st1[2] / unit)} + ${bi3} * ${u(st1[3] / unit)}`;
  })();
  // With vw > 1, src1 vectors need unit stride along i0 (checked by require/fits).
  const bLoad = splat ? `${T}(src1[${bIdx}])` : `src1[${bIdx}]`;
  const aExpr = c.inplace ? 'dst[d]' : `src0[${idx(src0, st0, vw, 'i0')}]`;
  const body: string[] = [];
  for (let j = 0; j < s.elementsPerThread; j++) {
    body.push(`{
  let v = t + ${u(j * threads)};
  if (v < ${u(nVec)}) {
    let i0 = v % ${u(rowVecs)};
    let r = v / ${u(rowVecs)};
    let i1 = ${ne1 === 1 ? '0u' : `r % ${u(ne1)}`};
    let i2 = ${ne2 === 1 ? '0u' : `(r / ${u(ne1)}) % ${u(ne2)}`};
    let i3 = ${dst.ne[3] === 1 ? '0u' : `r / ${u(ne1 * ne2)}`};
    let d = ${idx(dst, std, vw, 'i0')};
    dst[d] = ${aExpr} + ${bLoad};
  }
}`);
  }
  return elementwiseKernel('strided', s, c, decls, bindings, dispatch, threads, body);
}

function generate(s: Schedule, c: OpCase): KernelSpec {
  const why = fits(s, c);
  if (why.length) throw new OpCaseError(`schedule ${scheduleKey(s)} cannot take ADD ${c.label}: ${why.join('; ')}`);
  const es = s as ElementwiseSchedule;
  return isFlat(c) ? generateFlat(es, c) : generateStrided(es, c);
}

export const ADD: OpDef = {
  name: 'ADD',
  summary: 'dst = src0 + src1, src1 broadcast over src0 (ggml_add, ggml_add_inplace)',
  shapeSyntax: 'ne0xne1[xne2xne3] of dst',
  layouts: LAYOUTS,
  params: [],
  matrix: [
    { dims: [4096, 128], layout: 'contiguous' },
    { dims: [4093, 37], layout: 'contiguous' },
    { dims: [2048, 128], layout: 'inplace' },
    { dims: [4096, 64], layout: 'broadcast-row' },
    { dims: [1000, 33, 3], layout: 'broadcast-col' },
    { dims: [4096, 64], layout: 'src0-rows-strided' },
    { dims: [512, 64, 8], layout: 'src1-permuted' },
    { dims: [256, 256], layout: 'src1-transposed' },
  ],
  makeCase,
  oracle,
  flops: () => null,
  bytes: (c) => ({ readBytes: (nelements(c.srcs[0]) + nelements(c.srcs[1])) * 4, writeBytes: nelements(c.dst) * 4 }),
  features: rowFeatures,
  native,
  family: 'elementwise',
  require: (c, adapter) =>
    commonRejection(c, adapter) ??
    (rowsContiguous(c.srcs[1]) ? null : { code: 'src1-rows-not-contiguous', reason: `src1 rows are not contiguous (nb0 = ${c.srcs[1].nb[0]} B): the generated kernel loads rows as vectors` }),
  fits,
  generate,
};
