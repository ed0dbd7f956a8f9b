// The row family ('norm' in schedules): one workgroup per row of ne0 elements. An op gives the
// operands read along the row, an ordered list of reductions over it (each a per-element map
// and a combine, sum or max; a later map may use an earlier reduction's result, as SOFT_MAX's
// Σexp(x − max) uses max), statements run once the row's results are known, and either a
// per-element epilogue writing a dst row or one scalar per row (SUM_ROWS). Single values (a
// 1-element tensor such as a loss's gradient) may be read once per workgroup beside them.
//
// Each reduction stage (consecutive reductions with one combine that do not use each other
// reduce together, as a vector) runs over the row, then meets through a shared-memory tree or
// subgroup ops. When a thread's share of the row fits one unrolled step it is loaded once and
// kept in registers; else each pass re-reads it (from cache: DRAM sees the row once).
import { deviceOffsetElements } from '../hostdata';
import { grid2d, type BindingRole, type KernelSpec } from '../kernel';
import { nrows, typeSizeBytes, type Dims4, type TensorDesc } from '../tensor';
import { bindAll, f, indent, renameIdents, u, usesIdent, vecType } from '../codegen/wgsl';
import { scheduleKey, type CaseName, type FamilyDef } from './types';

export interface NormSchedule {
  readonly family: 'norm';
  /** Threads per row (one workgroup per row); a power of two. */
  readonly workgroupSize: number;
  readonly vectorWidth: number;
  /** How the row's partials meet: a shared-memory tree, or subgroup ops then a shared step. */
  readonly reduction: 'shared' | 'subgroup';
  /** Independent loads in flight per loop iteration. */
  readonly unroll: number;
}

/** A tensor read along the row; `name` is its value in expressions. */
export interface RowOperand {
  readonly name: string;
  /** Its buffer: 'src0', 'src1', or 'dst' for an in-place op (bound once, read_write). */
  readonly binding: BindingRole;
  readonly tensor: TensorDesc;
}

export interface RowReduction {
  /** The row's result, an f32 `let` of this name once reduced. */
  readonly name: string;
  /**
   * Per element, over operand names, earlier reductions and constants ('x * x', 'exp(x - mx)');
   * `INDEX` is the element's position along the row as f32 (exact below 2^24), as ARGMAX needs.
   */
  readonly map: string;
  readonly combine: 'sum' | 'max';
}

export type RowOutput =
  /** dst row: one value per element, over operands, reductions, `finish` lets and constants. */
  | { readonly kind: 'row'; readonly tensor: TensorDesc; readonly expr: string }
  /** One value per row (dst ne0 = 1), written by thread 0; `type` 'i32' binds dst as i32 (expr an i32). */
  | {
      readonly kind: 'scalar';
      readonly tensor: TensorDesc;
      readonly expr: string;
      readonly type?: 'f32' | 'i32';
      /** Further values of the row, written at the elements after expr's (COUNT_EQUAL's I64 high word). */
      readonly extra?: readonly string[];
    };

/** One f32 read once per workgroup (a ggml 1-element tensor, as a loss's incoming gradient). */
export interface RowScalar {
  /** Its value's name in `finish` and the output expression. */
  readonly name: string;
  readonly binding: BindingRole;
  readonly tensor: TensorDesc;
}

export interface NormSnippet {
  /** Read along the row; operands[0]'s shape gives the rows. In binding order. */
  readonly operands: readonly RowOperand[];
  /** Single values bound and read before the row's work (bound ahead of the operands). */
  readonly scalars?: readonly RowScalar[];
  readonly reductions: readonly RowReduction[];
  /** WGSL statements run once every reduction is known (f32 lets named by the reductions). */
  readonly finish?: readonly string[];
  readonly output: RowOutput;
  /** f32 constants baked as module-scope `const name: f32`. */
  readonly constants?: Readonly<Record<string, number>>;
}

/** Partials per thread the schedule's workgroup memory budgets for (all stages together). */
const PARTIALS_PER_THREAD = 2;
// Just inside f32's range: WGSL refuses a literal that rounds past the largest finite f32.
const LOWEST_F32 = '-3.40282346e+38';

function elementStrides(t: TensorDesc): number[] {
  return t.nb.map((b) => b / typeSizeBytes[t.type]);
}

/** operand name → its slot-j value name, whole identifiers only (a swizzle `.x` is left alone). */
function slotted(expr: string, names: readonly string[], j: number): string {
  return renameIdents(expr, names, (m) => `${m}${j}`);
}

/** Reductions grouped into stages: a run with one combine whose maps do not use each other. */
export function reductionStages(reds: readonly RowReduction[]): RowReduction[][] {
  const stages: RowReduction[][] = [];
  for (const r of reds) {
    const last = stages[stages.length - 1];
    const uses = (x: RowReduction) => usesIdent(r.map, x.name);
    if (last && last.length < 4 && last[0].combine === r.combine && !last.some(uses)) last.push(r);
    else stages.push([r]);
  }
  return stages;
}

/** Maps and expressions may name the element's position along the row. */
const INDEX = /(?<![.\w])INDEX(?!\w)/;

/** f32 holds every integer below 2^24 exactly: INDEX is exact on rows up to that length. */
const MAX_INDEXED_ROW = 2 ** 24;

function fits(s: NormSchedule, k: NormSnippet): string[] {
  const reasons: string[] = [];
  const ne0Row = k.operands[0].tensor.ne[0];
  if (ne0Row > MAX_INDEXED_ROW && [...k.reductions.map((r) => r.map), k.output.expr].some((e) => INDEX.test(e))) {
    reasons.push(`INDEX is an f32, exact only on rows of up to 2^24 elements, got ne0 = ${ne0Row}`);
  }
  const stages = reductionStages(k.reductions);
  const partials = stages.reduce((n, st) => n + st.length, 0);
  if (s.reduction === 'shared' && partials > PARTIALS_PER_THREAD) reasons.push(`reductions need ${partials} f32 partials per thread in workgroup memory, over the family's budget of ${PARTIALS_PER_THREAD}`);
  const vw = s.vectorWidth;
  if (vw === 1) return reasons;
  const ne0 = k.operands[0].tensor.ne[0];
  if (ne0 % vw) reasons.push(`vectorWidth ${vw} needs ne0 % ${vw} == 0, got ne0 = ${ne0}`);
  // Named by buffer, with the value's name when several operands share a row ("src1 (x)").
  const tensors = [...k.operands.map((o) => ({ name: o.binding === 'dst' || k.operands.length === 1 ? o.binding : `${o.binding} (${o.name})`, tensor: o.tensor })), ...(k.output.kind === 'row' ? [{ name: 'dst', tensor: k.output.tensor }] : [])];
  const seen = new Set<string>();
  for (const { name, tensor } of tensors) {
    if (seen.has(name)) continue;
    seen.add(name);
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

interface Combine {
  readonly identity: string;
  readonly join: (a: string, b: string) => string;
  readonly accumulate: (acc: string, t: string) => string;
  readonly subgroup: string;
}

const COMBINES: Readonly<Record<RowReduction['combine'], Combine>> = {
  sum: { identity: '0.0', join: (a, b) => `${a} + ${b}`, accumulate: (acc, t) => `${acc} += ${t};`, subgroup: 'subgroupAdd' },
  max: { identity: LOWEST_F32, join: (a, b) => `max(${a}, ${b})`, accumulate: (acc, t) => `${acc} = max(${acc}, ${t});`, subgroup: 'subgroupMax' },
};

/** The shared-memory tree: sequential addressing (conflict-free), one barrier per level. */
function sharedReduction(W: number, accT: string, cb: Combine, n: (x: string) => string): { decl: string; lines: string[] } {
  if (W === 1) return { decl: '', lines: [`let ${n('total')} = ${n('partial')};`] };
  const red = n('red');
  return {
    decl: `var<workgroup> ${red}: array<${accT}, ${W}>;`,
    lines: [
      `${red}[lid] = ${n('partial')};`,
      'workgroupBarrier();',
      `for (var s = ${u(W / 2)}; s > 1u; s >>= 1u) {`,
      '  if (lid < s) {',
      cb.subgroup === 'subgroupAdd' ? `    ${red}[lid] += ${red}[lid + s];` : `    ${red}[lid] = max(${red}[lid], ${red}[lid + s]);`,
      '  }',
      '  workgroupBarrier();',
      '}',
      // The last level is done by every thread for itself: one barrier fewer, no broadcast step.
      `let ${n('total')} = ${cb.join(`${red}[0]`, `${red}[1]`)};`,
    ],
  };
}

/**
 * One subgroup op, one partial per subgroup into workgroup memory (sized for the smallest
 * subgroup, 4), one barrier, then every invocation runs the second subgroup op (subgroup ops
 * must stay in uniform control flow) so each subgroup ends holding the total: no second
 * barrier. Assumes subgroups are consecutive runs of local_invocation_index.
 */
function subgroupReduction(W: number, accT: string, zero: string, cb: Combine, n: (x: string) => string): { decl: string; lines: string[] } {
  const red = n('red');
  return {
    decl: `var<workgroup> ${red}: array<${accT}, ${Math.max(1, W / 4)}>;`,
    lines: [
      `let ${n('sg_total')} = ${cb.subgroup}(${n('partial')});`,
      'if (sid == 0u) {',
      `  ${red}[lid / sg_size] = ${n('sg_total')};`,
      '}',
      'workgroupBarrier();',
      `let ${n('n_sg')} = (${u(W)} + sg_size - 1u) / sg_size;`,
      `var ${n('p')} = ${zero};`,
      `for (var m = sid; m < ${n('n_sg')}; m += sg_size) {`,
      `  ${cb.accumulate(n('p'), `${red}[m]`)}`,
      '}',
      `let ${n('total')} = ${cb.subgroup}(${n('p')});`,
    ],
  };
}

function generate(s: NormSchedule, k: NormSnippet, c: CaseName): KernelSpec {
  const W = s.workgroupSize;
  const vw = s.vectorWidth;
  const T = vecType(vw);
  const rowT = k.operands[0].tensor;
  const nv = rowT.ne[0] / vw;
  const rows = nrows(rowT);
  const dispatch = grid2d(rows);
  const names = k.operands.map((o) => o.name);
  const stages = reductionStages(k.reductions);
  const out = k.output;

  const scalars = k.scalars ?? [];
  const roles = [...new Set<BindingRole>([...scalars.map((x) => x.binding), ...k.operands.map((o) => o.binding), 'dst'])];
  // An i32 operand (labels, COUNT_EQUAL) is bound and loaded as i32 (vecN<i32>); maps see i32 values.
  const typeOf = (t: TensorDesc) => (t.type === 'i32' ? (vw === 1 ? 'i32' : `vec${vw}<i32>`) : T);
  const elemOf = (role: BindingRole) => {
    const reader = k.operands.find((o) => o.binding === role);
    if (reader) return typeOf(reader.tensor);
    // A buffer no operand reads: a per-row scalar source (f32), or dst written once per row.
    return role === 'dst' ? (out.kind === 'scalar' ? (out.type ?? 'f32') : T) : 'f32';
  };
  const { decls, bindings } = bindAll(roles.map((role) => ({ role, name: role, access: role === 'dst' ? 'read_write' : 'read', elem: elemOf(role) })));

  const slotIndex = (v: string, j: number) => (j === 0 ? v : `${v} + ${u(j * W)}`);
  const load = (o: RowOperand, v: string, j: number) => `${o.binding}[${o.name}_row + ${slotIndex(v, j)}]`;
  const loads = (v: string, slots: number) => Array.from({ length: slots }, (_, j) => k.operands.map((o) => `let ${o.name}${j} = ${load(o, v, j)};`)).flat();
  const helpers = new Set<string>();
  /** INDEX for slot j of vector index v: the element's position (a vector of them when vectorized). */
  const lanes = Array.from({ length: vw }, (_, l) => `${l}.0`).join(', ');
  const indexed = (expr: string, v: string, j: number) =>
    expr.replace(new RegExp(INDEX.source, 'g'), vw === 1 ? `f32(${slotIndex(v, j)})` : `(${T}(f32(${u(vw)} * (${slotIndex(v, j)}))) + ${T}(${lanes}))`);
  /** One element's (or vector's) contribution to a reduction, as an f32; v is the vector index's name. */
  const reduceTerm = (r: RowReduction, j: number, v: string) => {
    const m = indexed(slotted(r.map, names, j), v, j);
    if (vw === 1) return m;
    const prod = /^(\w+) \* (\w+)$/.exec(r.map);
    if (r.combine === 'sum' && prod && names.includes(prod[1]) && names.includes(prod[2])) return `dot(${prod[1]}${j}, ${prod[2]}${j})`;
    const fn = `${r.combine === 'sum' ? 'hsum' : 'hmax'}${vw}`;
    helpers.add(r.combine === 'sum' ? `fn ${fn}(v: ${T}) -> f32 {\n  return dot(v, ${T}(1.0));\n}` : `fn ${fn}(v: ${T}) -> f32 {\n  return ${vw === 2 ? 'max(v.x, v.y)' : 'max(max(v.x, v.y), max(v.z, v.w))'};\n}`);
    return `${fn}(${m})`;
  };
  /** A product of operands is 0 for a zero-filled missing slot; anything else needs a select. */
  const zeroSafe = (r: RowReduction) => r.combine === 'sum' && /^(\w+) \* (\w+)$/.test(r.map) && r.map.split(' * ').every((x) => names.includes(x));

  const perThread = Math.ceil(nv / W);
  const inRegisters = perThread <= s.unroll;
  // Slot j exists for lid < nv − j·W when the row is kept in registers.
  const guard = (j: number) => ((j + 1) * W <= nv ? null : `lid < ${u(nv - j * W)}`);
  const body: string[] = scalars.map((x) => `let ${x.name} = ${x.binding}[${u(deviceOffsetElements(x.tensor))}];`);
  const decl: string[] = [];
  if (inRegisters) {
    for (let j = 0; j < perThread; j++) {
      const g = guard(j);
      if (!g) body.push(...k.operands.map((o) => `let ${o.name}${j} = ${load(o, 'lid', j)};`));
      else {
        body.push(...k.operands.map((o) => `var ${o.name}${j} = ${typeOf(o.tensor)}();`), `if (${g}) {`);
        body.push(...k.operands.map((o) => `  ${o.name}${j} = ${load(o, 'lid', j)};`), '}');
      }
    }
  }
  /** Stage si's loop index (not n('i'): a second stage's 'i1' would shadow the row index i1). */
  const stageLoopVar = (si: number) => (si === 0 ? 'i' : `ri${si}`);
  stages.forEach((stage, si) => {
    const n = (x: string) => (si === 0 ? x : `${x}${si}`);
    const cb = COMBINES[stage[0].combine];
    const width = stage.length;
    const accT = width === 1 ? 'f32' : `vec${width}<f32>`;
    const zero = width === 1 ? cb.identity : `${accT}(${cb.identity})`;
    const term = (j: number, v = inRegisters ? 'lid' : stageLoopVar(si)) => (width === 1 ? reduceTerm(stage[0], j, v) : `${accT}(${stage.map((r) => reduceTerm(r, j, v)).join(', ')})`);
    if (inRegisters) {
      const terms = Array.from({ length: perThread }, (_, j) => {
        const g = guard(j);
        return g && !stage.every(zeroSafe) ? `select(${zero}, ${term(j)}, ${g})` : term(j);
      });
      body.push(`let ${n('partial')} = ${terms.reduce((a, b) => cb.join(a, b))};`);
    } else {
      // Independent accumulators per unroll slot, so the adds do not form one dependency chain.
      const acc = (j: number) => (si === 0 ? `acc${j}` : `s${si}acc${j}`);
      const accs = Array.from({ length: s.unroll }, (_, j) => acc(j));
      const loopVar = stageLoopVar(si);
      body.push(
        ...accs.map((a) => `var ${a} = ${zero};`),
        ...rowLoop(loopVar, nv, W, s.unroll, (slots) => [...loads(loopVar, slots), ...Array.from({ length: slots }, (_, j) => cb.accumulate(acc(j), term(j)))]),
        `let ${n('partial')} = ${accs.reduce((a, b) => cb.join(a, b))};`,
      );
    }
    const red = s.reduction === 'subgroup' ? subgroupReduction(W, accT, zero, cb, n) : sharedReduction(W, accT, cb, n);
    if (red.decl) decl.push(red.decl);
    body.push(...red.lines, ...(width === 1 ? [`let ${stage[0].name} = ${n('total')};`] : stage.map((r, i) => `let ${r.name} = ${n('total')}.${'xyzw'[i]};`)));
  });
  body.push(...(k.finish ?? []));
  if (out.kind === 'row') {
    const store = (v: string, j: number) => `dst[dst_row + ${slotIndex(v, j)}] = ${indexed(slotted(out.expr, names, j), v, j)};`;
    if (inRegisters) {
      body.push(
        ...Array.from({ length: perThread }, (_, j) => {
          const g = guard(j);
          return g ? [`if (${g}) {`, `  ${store('lid', j)}`, '}'] : [store('lid', j)];
        }).flat(),
      );
    } else {
      // The row is re-read: it was read moments ago by this workgroup, so it comes from cache.
      body.push(...rowLoop('j', nv, W, s.unroll, (slots) => [...loads('j', slots), ...Array.from({ length: slots }, (_, j) => store('j', j))]));
    }
  } else {
    body.push('if (lid == 0u) {', `  dst[dst_row] = ${out.expr};`, ...(out.extra ?? []).map((e, i) => `  dst[dst_row + ${u(i + 1)}] = ${e};`), '}');
  }

  const rowLines =
    dispatch[1] > 1
      ? [`let r = wid.y * ${u(dispatch[0])} + wid.x;`, `if (r >= ${u(rows)}) {`, '  return; // the 2D grid overhang (uniform: depends on wid only)', '}']
      : ['let r = wid.x;'];
  const dstUnit = out.kind === 'scalar' ? 1 : vw;
  const bases = [...new Map([...k.operands.map((o) => [`${o.name}_row`, [o.tensor, vw]] as const), ['dst_row', [out.tensor, dstUnit]] as const]).entries()].map(
    ([name, [t, unit]]) => `let ${name} = ${rowBase(t, unit)};`,
  );
  const subgroups = s.reduction === 'subgroup';
  const builtins = [
    '@builtin(workgroup_id) wid: vec3<u32>',
    '@builtin(local_invocation_index) lid: u32',
    ...(subgroups ? ['@builtin(subgroup_invocation_id) sid: u32', '@builtin(subgroup_size) sg_size: u32'] : []),
  ];
  const consts = Object.entries(k.constants ?? {}).map(([name, value]) => `const ${name}: f32 = ${f(value)};`);
  const moduleScope = [...decl, ...consts, ...helpers];
  const wgsl = `// generated: ${c.op} ${c.label}, ${scheduleKey(s)}
${subgroups ? 'enable subgroups;\n\n' : ''}${decls}
${moduleScope.length ? `\n${moduleScope.join('\n\n')}\n` : ''}
@compute @workgroup_size(${W})
fn main(${builtins.join(', ')}) {
${indent([...rowLines, ...rowIndexLines(rowT.ne), ...bases, ...body].join('\n'), 2)}
}
`;
  return {
    label: `generated:${c.op} ${scheduleKey(s)}`,
    wgsl,
    entryPoint: 'main',
    bindings,
    dispatch,
    ...(subgroups ? { features: ['subgroups'] } : {}),
  };
}

function isPow2(n: number): boolean {
  return n > 0 && (n & (n - 1)) === 0;
}

export const NORM: FamilyDef<NormSchedule, NormSnippet> = {
  name: 'norm',
  doc: 'row ops: one workgroup per row; ordered reductions (sum, max) then a per-element or per-row epilogue',
  space: {
    workgroupSize: { values: [32, 64, 128, 256, 512, 1024], doc: 'threads per row (power of two)' },
    vectorWidth: { values: [1, 4], doc: 'elements per load and store' },
    reduction: { values: ['shared', 'subgroup'], doc: 'shared-memory tree, or subgroup ops then shared' },
    unroll: { values: [1, 2, 4], doc: 'independent loads per loop iteration (a row of up to unroll·workgroupSize vectors stays in registers)' },
  },
  threads: (s) => s.workgroupSize,
  // PARTIALS_PER_THREAD f32 partials per thread (RMS_NORM_BACK reduces two sums at once).
  workgroupBytes: (s) => s.workgroupSize * PARTIALS_PER_THREAD * 4,
  threadsText: (s) => `workgroupSize ${s.workgroupSize}`,
  validate(s, adapter) {
    const reasons: string[] = [];
    if (!isPow2(s.workgroupSize)) reasons.push(`workgroupSize ${s.workgroupSize} is not a power of two (the tree reduction halves it)`);
    if (s.workgroupSize > adapter.limits.maxComputeWorkgroupSizeX) reasons.push(`workgroupSize ${s.workgroupSize} exceeds maxComputeWorkgroupSizeX ${adapter.limits.maxComputeWorkgroupSizeX}`);
    if (s.reduction === 'subgroup' && !adapter.features.includes('subgroups')) reasons.push(`reduction 'subgroup' needs the 'subgroups' feature, which this adapter lacks`);
    if (s.unroll > 8) reasons.push(`unroll ${s.unroll} exceeds 8`);
    return reasons;
  },
  fits,
  generate,
};
