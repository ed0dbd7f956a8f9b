// Norm-family codegen (RMS_NORM, RMS_NORM_BACK): one workgroup per row. Pass 1: each thread
// sums products over its share of the row; the row's totals meet through a shared-memory tree
// or subgroupAdd. Pass 2 writes dst from the row's values: kept in registers when a thread's
// share fits one unrolled step, else re-read (still in cache, so DRAM sees the row once).
// Shape, strides, offsets and eps are baked in as literals. Pure string building.
import { deviceOffsetElements } from '../hostdata';
import { grid2d, type BindingRole, type KernelSpec } from '../kernel';
import { scheduleKey, type NormSchedule, type Schedule } from '../schedule/schedule';
import { nrows, typeSizeBytes, type Dims4, type TensorDesc } from '../tensor';
import { bindAll, indent, u, vecType } from './wgsl';

/** A tensor read element by element; `value` names the loaded value in WGSL expressions. */
export interface NormOperand {
  readonly value: string;
  /** The buffer it lives in: 'src0', 'src1', or 'dst' for an in-place op (bound once, read_write). */
  readonly role: BindingRole;
  readonly tensor: TensorDesc;
}

/** One row total: Σ a·b over the row, where a and b are operand value names. */
export interface NormSum {
  readonly name: string;
  readonly a: string;
  readonly b: string;
}

export interface NormKernelDesc {
  readonly op: string;
  readonly caseLabel: string;
  readonly dst: TensorDesc;
  /** Read in both passes, in binding order. */
  readonly operands: readonly NormOperand[];
  /** One or two totals (two reduce together as a vec2). */
  readonly sums: readonly NormSum[];
  /** WGSL statements run once the totals (f32 lets named by `sums`) are known. */
  readonly finish: readonly string[];
  /** dst's value from the operands' loaded values (`v(name)` gives each one's WGSL name). */
  readonly output: (v: (value: string) => string) => string;
}

function elementStrides(t: TensorDesc): number[] {
  return t.nb.map((b) => b / typeSizeBytes[t.type]);
}

/**
 * Why a schedule cannot take these tensors (empty when it can). Vector loads need whole
 * vectors per row and every row starting on a vector boundary of its buffer.
 */
export function normFits(op: string, s: Schedule, tensors: readonly { name: string; tensor: TensorDesc }[]): string[] {
  if (s.family !== 'norm') return [`${op} takes a norm schedule, not ${s.family}`];
  const vw = s.vectorWidth;
  if (vw === 1) return [];
  const reasons: string[] = [];
  const ne0 = tensors[0].tensor.ne[0];
  if (ne0 % vw) reasons.push(`vectorWidth ${vw} needs ne0 % ${vw} == 0, got ne0 = ${ne0}`);
  for (const { name, tensor } of tensors) {
    const st = elementStrides(tensor);
    const off = deviceOffsetElements(tensor);
    const bad = [1, 2, 3].filter((d) => tensor.ne[d] > 1 && st[d] % vw).map((d) => `nb${d} = ${st[d]} elements`);
    if (off % vw) bad.unshift(`offset ${off} elements`);
    if (bad.length) reasons.push(`vectorWidth ${vw} needs ${name}'s rows to start on ${vw}-element boundaries (${bad.join(', ')})`);
  }
  return reasons;
}

/** r → i1, i2, i3 (ggml order); indices of size-1 dims are left out (always 0). */
function rowIndexLines(ne: Dims4): string[] {
  const [, ne1, ne2, ne3] = ne;
  const lines: string[] = [];
  if (ne1 > 1) lines.push(ne2 * ne3 > 1 ? `let i1 = r % ${u(ne1)};` : 'let i1 = r;');
  if (ne2 > 1) {
    const q = ne1 > 1 ? `(r / ${u(ne1)})` : 'r';
    lines.push(ne3 > 1 ? `let i2 = ${q} % ${u(ne2)};` : `let i2 = ${q.replace(/^\((.*)\)$/, '$1')};`);
  }
  if (ne3 > 1) lines.push(`let i3 = ${ne1 * ne2 > 1 ? `r / ${u(ne1 * ne2)}` : 'r'};`);
  return lines;
}

/** Where row (i1, i2, i3) of `t` starts in its device buffer, in units of vw elements. */
function rowBase(t: TensorDesc, vw: number): string {
  const st = elementStrides(t);
  const parts = [u(deviceOffsetElements(t) / vw)];
  for (const d of [1, 2, 3]) if (t.ne[d] > 1) parts.push(`i${d} * ${u(st[d] / vw)}`);
  return parts.join(' + ');
}

/**
 * Thread lid visits vectors lid, lid+W, lid+2W… of the row (consecutive threads, consecutive
 * vectors: coalesced): `unroll` of them per iteration so their loads are in flight together,
 * then the rest one at a time. body(slots) emits one iteration with `slots` vectors.
 */
export function rowLoop(v: string, nv: number, W: number, unroll: number, body: (slots: number) => string[]): string[] {
  const mainLimit = nv - (unroll - 1) * W;
  if (unroll === 1 || mainLimit <= 0) {
    return [`for (var ${v} = lid; ${v} < ${u(nv)}; ${v} += ${u(W)}) {`, ...body(1).map((l) => '  ' + l), '}'];
  }
  return [
    `var ${v} = lid;`,
    `for (; ${v} < ${u(mainLimit)}; ${v} += ${u(unroll * W)}) {`,
    ...body(unroll).map((l) => '  ' + l),
    '}',
    `for (; ${v} < ${u(nv)}; ${v} += ${u(W)}) {`,
    ...body(1).map((l) => '  ' + l),
    '}',
  ];
}

/** The shared-memory tree: sequential addressing (conflict-free), one barrier per level. */
function sharedReduction(W: number, accT: string): { decl: string; lines: string[] } {
  if (W === 1) return { decl: '', lines: ['let total = partial;'] };
  return {
    decl: `var<workgroup> red: array<${accT}, ${W}>;`,
    lines: [
      'red[lid] = partial;',
      'workgroupBarrier();',
      `for (var s = ${u(W / 2)}; s > 1u; s >>= 1u) {`,
      '  if (lid < s) {',
      '    red[lid] += red[lid + s];',
      '  }',
      '  workgroupBarrier();',
      '}',
      // The last level is done by every thread for itself: one barrier fewer, no broadcast step.
      'let total = red[0] + red[1];',
    ],
  };
}

/**
 * subgroupAdd, one partial per subgroup into workgroup memory (sized for the smallest subgroup,
 * 4), one barrier, then every invocation runs the second subgroupAdd (subgroup ops must stay in
 * uniform control flow) so each subgroup ends holding the total: no second barrier. Assumes
 * subgroups are consecutive runs of local_invocation_index, as every 1D-workgroup driver lays them.
 */
function subgroupReduction(W: number, accT: string, zero: string): { decl: string; lines: string[] } {
  return {
    decl: `var<workgroup> red: array<${accT}, ${Math.max(1, W / 4)}>;`,
    lines: [
      'let sg_total = subgroupAdd(partial);',
      'if (sid == 0u) {',
      '  red[lid / sg_size] = sg_total;',
      '}',
      'workgroupBarrier();',
      `let n_sg = (${u(W)} + sg_size - 1u) / sg_size;`,
      `var p = ${zero};`,
      'for (var m = sid; m < n_sg; m += sg_size) {',
      '  p += red[m];',
      '}',
      'let total = subgroupAdd(p);',
    ],
  };
}

export function generateNorm(s: NormSchedule, k: NormKernelDesc): KernelSpec {
  const W = s.workgroupSize;
  const vw = s.vectorWidth;
  const T = vecType(vw);
  const nv = k.dst.ne[0] / vw;
  const rows = nrows(k.dst);
  const dispatch = grid2d(rows);
  if (k.sums.length < 1 || k.sums.length > 2) throw new Error(`a norm kernel reduces 1 or 2 sums, got ${k.sums.length}`);
  const accT = k.sums.length === 1 ? 'f32' : 'vec2<f32>';
  const zero = k.sums.length === 1 ? '0.0' : `${accT}(0.0)`;

  const roles = [...new Set<BindingRole>([...k.operands.map((o) => o.role), 'dst'])];
  const { decls, bindings } = bindAll(roles.map((role) => ({ role, name: role, access: role === 'dst' ? 'read_write' : 'read', elem: T })));

  const slotName = (value: string, j: number) => `${value}${j}`;
  const slotIndex = (v: string, j: number) => (j === 0 ? v : `${v} + ${u(j * W)}`);
  const loads = (v: string, slots: number) =>
    Array.from({ length: slots }, (_, j) => k.operands.map((o) => `let ${slotName(o.value, j)} = ${o.role}[${o.value}_row + ${slotIndex(v, j)}];`)).flat();
  const product = (sum: NormSum, j: number) => {
    const [a, b] = [slotName(sum.a, j), slotName(sum.b, j)];
    return vw === 1 ? `${a} * ${b}` : `dot(${a}, ${b})`;
  };
  const term = (j: number) => (k.sums.length === 1 ? product(k.sums[0], j) : `${accT}(${k.sums.map((sm) => product(sm, j)).join(', ')})`);

  const store = (v: string, j: number) => `dst[dst_row + ${slotIndex(v, j)}] = ${k.output((value) => slotName(value, j))};`;
  let pass1: string[];
  let pass2: string[];
  const perThread = Math.ceil(nv / W);
  if (perThread <= s.unroll) {
    // The whole row is one unrolled step: each thread keeps its ≤ unroll vectors in registers
    // across the reduction, so pass 2 reads nothing again. Slot j exists for lid < nv − j·W;
    // a missing slot holds zeros, which add nothing to the sums.
    const guard = (j: number) => ((j + 1) * W <= nv ? null : `lid < ${u(nv - j * W)}`);
    pass1 = [];
    for (let j = 0; j < perThread; j++) {
      const g = guard(j);
      if (!g) pass1.push(...k.operands.map((o) => `let ${slotName(o.value, j)} = ${o.role}[${o.value}_row + ${slotIndex('lid', j)}];`));
      else {
        pass1.push(...k.operands.map((o) => `var ${slotName(o.value, j)} = ${T}();`), `if (${g}) {`);
        pass1.push(...k.operands.map((o) => `  ${slotName(o.value, j)} = ${o.role}[${o.value}_row + ${slotIndex('lid', j)}];`), '}');
      }
    }
    pass1.push(`let partial = ${Array.from({ length: perThread }, (_, j) => term(j)).join(' + ')};`);
    pass2 = Array.from({ length: perThread }, (_, j) => {
      const g = guard(j);
      return g ? [`if (${g}) {`, `  ${store('lid', j)}`, '}'] : [store('lid', j)];
    }).flat();
  } else {
    // Independent accumulators per unroll slot, so the adds do not form one dependency chain.
    const accs = Array.from({ length: s.unroll }, (_, j) => `acc${j}`);
    pass1 = [
      ...accs.map((a) => `var ${a} = ${zero};`),
      ...rowLoop('i', nv, W, s.unroll, (slots) => [...loads('i', slots), ...Array.from({ length: slots }, (_, j) => `acc${j} += ${term(j)};`)]),
      `let partial = ${accs.join(' + ')};`,
    ];
    // The row is re-read: it was read moments ago by this workgroup, so it comes from cache.
    pass2 = rowLoop('j', nv, W, s.unroll, (slots) => [...loads('j', slots), ...Array.from({ length: slots }, (_, j) => store('j', j))]);
  }
  const red = s.reduction === 'subgroup' ? subgroupReduction(W, accT, zero) : sharedReduction(W, accT);
  const totals = k.sums.length === 1 ? [`let ${k.sums[0].name} = total;`] : k.sums.map((sm, i) => `let ${sm.name} = total.${'xy'[i]};`);

  const rowLines =
    dispatch[1] > 1
      ? [`let r = wid.y * ${u(dispatch[0])} + wid.x;`, `if (r >= ${u(rows)}) {`, '  return; // the 2D grid overhang (uniform: depends on wid only)', '}']
      : ['let r = wid.x;'];
  const bases = [...new Map([...k.operands.map((o) => [`${o.value}_row`, o.tensor] as const), ['dst_row', k.dst] as const]).entries()].map(
    ([name, t]) => `let ${name} = ${rowBase(t, vw)};`,
  );
  const body = [
    ...rowLines,
    ...rowIndexLines(k.dst.ne),
    ...bases,
    ...pass1,
    ...red.lines,
    ...totals,
    ...k.finish,
    ...pass2,
  ];
  const subgroups = s.reduction === 'subgroup';
  const builtins = [
    '@builtin(workgroup_id) wid: vec3<u32>',
    '@builtin(local_invocation_index) lid: u32',
    ...(subgroups ? ['@builtin(subgroup_invocation_id) sid: u32', '@builtin(subgroup_size) sg_size: u32'] : []),
  ];
  const wgsl = `// generated: ${k.op} ${k.caseLabel}, ${scheduleKey(s)}
${subgroups ? 'enable subgroups;\n\n' : ''}${decls}
${red.decl ? `\n${red.decl}\n` : ''}
@compute @workgroup_size(${W})
fn main(${builtins.join(', ')}) {
${indent(body.join('\n'), 2)}
}
`;
  return {
    label: `generated:${k.op} ${scheduleKey(s)}`,
    wgsl,
    entryPoint: 'main',
    bindings,
    dispatch,
    ...(subgroups ? { features: ['subgroups'] } : {}),
  };
}
