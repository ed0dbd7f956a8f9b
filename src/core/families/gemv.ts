// The gemv family: matmul-like ops with few columns (MUL_MAT with N ≤ 8, the decode path), where
// the weights (src0) are read once and the work is memory-bound. A workgroup takes
// rowsPerWorkgroup rows of src0 and columnsPerPass columns of src1; the threads of a row split
// its K (an in-workgroup split-K), each keeping columnsPerPass accumulators so a src0 load
// feeds every column of the pass; the partial sums meet through subgroup shuffles or a shared
// tree. Operands are f32 or f16 (f16 read as u32 words and widened with unpack2x16float, so no
// shader-f16 is needed); accumulation is f32. Pure string building.
import type { DType } from '../tensor';
import { MAX_WORKGROUPS_PER_DIM } from '../kernel';
import { batchBase, MATMUL_BINDINGS, vec4Aligned, weightLoads, type MatmulOperand } from './matmul-wgsl';
import { computeMain, storageDecl, u } from '../codegen/wgsl';
import type { MatmulSnippet } from './matmul';
import { scheduleKey, type FamilyDef } from './types';
import { BLOCK_PARTS } from '../quant/block-wgsl';

export interface GemvSchedule {
  readonly family: 'gemv';
  readonly workgroupSize: number;
  /** Rows of src0 (outputs along M) per workgroup; the workgroupSize / rowsPerWorkgroup threads of a row split its K. */
  readonly rowsPerWorkgroup: number;
  /** src1 columns (outputs along N) each thread accumulates in one pass over K. */
  readonly columnsPerPass: number;
  /** Elements per load along K: 1, or 4 (vec4<f32>; two u32 words of f16). */
  readonly vectorWidth: number;
  /** Loads issued per thread before they are used (independent loads in flight). */
  readonly unroll: number;
  /** How a row's partial sums meet: subgroup shuffles (then shared memory across subgroups), or a shared-memory tree. */
  readonly reduction: 'subgroup' | 'shared';
  /**
   * Rows of src0 each thread reads side by side (default 1): its loads of every row are
   * independent (more in flight) and each src1 load feeds them all. f32/f16 weights only.
   */
  readonly rowsPerThread?: number;
}

/** The matmul snippet: operand access plus the element types of the sources (f32 when absent). */
export type GemvSnippet = MatmulSnippet;

const isPow2 = (n: number) => Number.isInteger(n) && n > 0 && (n & (n - 1)) === 0;
/** Threads that split one row group's K (a group is rowsPerThread rows, each thread reads all of them). */
const threadsPerRow = (s: GemvSchedule) => (s.workgroupSize * (s.rowsPerThread ?? 1)) / s.rowsPerWorkgroup;

/** The storage element and the load of `vw` elements at index i (in units of vw elements). */
function loader(name: string, type: DType, vw: number): { elem: string; fn: string } {
  const V = vw === 4 ? 'vec4<f32>' : 'f32';
  if (type === 'f32') return { elem: V, fn: `fn ld_${name}(i: u32) -> ${V} {\n  return ${name}[i];\n}` };
  if (vw === 4) return { elem: 'vec2<u32>', fn: `fn ld_${name}(i: u32) -> vec4<f32> {\n  let w = ${name}[i];\n  return vec4<f32>(unpack2x16float(w.x), unpack2x16float(w.y));\n}` };
  return { elem: 'u32', fn: `fn ld_${name}(i: u32) -> f32 {\n  return unpack2x16float(${name}[i >> 1u])[i & 1u];\n}` };
}

export function gemvFits(s: GemvSchedule, k: GemvSnippet): string[] {
  const reasons: string[] = [];
  for (const [name, t] of [['src0', k.type0], ['src1', k.type1]] as const) if (t && t !== 'f32' && t !== 'f16') reasons.push(`gemv reads f32 or f16 ${name}, not ${t}`);
  if (s.vectorWidth === 4) {
    if (k.K % 4) reasons.push(`vectorWidth 4 needs K % 4 == 0, got K = ${k.K}`);
    else {
      const check = (name: string, o: MatmulOperand, rows: number, ne2: number, ne3: number) => {
        if (!vec4Aligned(o, rows, ne2, ne3)) reasons.push(`vectorWidth 4 needs ${name}'s rows to start on 4-element boundaries (offset ${o.offset}, row stride ${o.rowStride})`);
      };
      check('src0', k.src0, k.M, k.ne02, k.ne03);
      check('src1', k.src1, k.N, k.ne12, k.ne13);
    }
  }
  const gx = Math.ceil(k.M / s.rowsPerWorkgroup);
  if (gx > MAX_WORKGROUPS_PER_DIM) reasons.push(`rowsPerWorkgroup ${s.rowsPerWorkgroup} needs ${gx} workgroups along x for M = ${k.M}, over ${MAX_WORKGROUPS_PER_DIM}`);
  if (k.epilogue) reasons.push('gemv takes no epilogue');
  if (k.weightBlocks && k.K % 32) reasons.push(`block weights need K % 32 == 0, got K = ${k.K}`);
  if ((s.rowsPerThread ?? 1) > 1 && k.weightBlocks && s.vectorWidth === 4) reasons.push(`rowsPerThread ${s.rowsPerThread} takes f32/f16 weights, not 32-weight blocks`);
  return reasons;
}

export function generateGemv(s: GemvSchedule, k: GemvSnippet, label: string): { wgsl: string; dispatch: [number, number, number]; features: string[] } {
  const W = s.workgroupSize;
  const R = s.rowsPerWorkgroup;
  const RT = s.rowsPerThread ?? 1;
  const G = R / RT; // row groups per workgroup
  const T = threadsPerRow(s);
  const rows = Array.from({ length: RT }, (_, q) => q);
  // Names per row of a thread: unsuffixed with one row (the WGSL of rowsPerThread 1 is unchanged).
  const rq = (name: string, q: number) => (RT === 1 ? name : `${name}${q}`);
  const accN = (q: number, c: number) => (RT === 1 ? `acc${c}` : `acc${q}_${c}`);
  const sN = (q: number, c: number) => (RT === 1 ? `s${c}` : `s${q}_${c}`);
  const C = s.columnsPerPass;
  const U = s.unroll;
  const vw = s.vectorWidth;
  const KV = k.K / vw; // K in load units
  const sub = s.reduction === 'subgroup';
  // Quantized weights: src0 is u32 words and a load decodes through wq (weightLoads).
  const wl = weightLoads(k.weights, vw === 4);
  // Block weights with vec4 loads: threads take 8-weight parts of 32-weight chunks (wq_part), or whole chunks (wq_block), not vec4s.
  const blocks = k.weightBlocks && vw === 4 ? k.weightBlocks : null;
  const l0 = blocks ? { elem: 'u32', fn: blocks.wgsl.trim() } : k.weights ? { elem: 'u32', fn: `${wl.fns.trim()}\nfn ld_src0(i: u32) -> ${vw === 4 ? 'vec4<f32>' : 'f32'} {\n  return ${wl.load('i')};\n}` } : loader('src0', k.type0 ?? 'f32', vw);
  const l1 = loader('src1', k.type1 ?? 'f32', vw);
  const V = vw === 4 ? 'vec4<f32>' : 'f32';
  const cols = Array.from({ length: C }, (_, c) => c);
  const unrolled = Array.from({ length: U }, (_, j) => j);
  const batched = k.ne12 * k.ne13 > 1;
  const base = (o: MatmulOperand, r2: number, r3: number) => batchBase(k, o, r2, r3);
  const body: string[] = [];
  const emit = (...ls: string[]) => body.push(...ls);
  if (batched) emit(k.ne13 > 1 ? `let i2 = wid.z % ${u(k.ne12)};\nlet i3 = wid.z / ${u(k.ne12)};` : 'let i2 = wid.z;');
  emit(G === 1 ? 'let r = 0u;' : `let r = lid / ${u(T)};`, T === 1 ? 'let j = 0u;' : `let j = lid % ${u(T)};`);
  for (const q of rows) {
    const first = RT === 1 ? (R === 1 ? 'wid.x' : `wid.x * ${u(R)} + r`) : `wid.x * ${u(R)} + ${G === 1 ? '' : `r * ${u(RT)} + `}${u(q)}`;
    emit(`let ${rq('mOut', q)} = ${first};`);
    // Rows past M read the last row (their sums are dropped at the store): every thread reaches the barriers.
    emit(k.M % R === 0 ? `let ${rq('m', q)} = ${rq('mOut', q)};` : `let ${rq('m', q)} = min(${rq('mOut', q)}, ${u(k.M - 1)});`);
  }
  emit(C === 1 ? 'let n0 = wid.y;' : `let n0 = wid.y * ${u(C)};`);
  for (const q of rows) emit(`let ${rq('a', q)} = (${base(k.src0, k.r2, k.r3)} + ${rq('m', q)} * ${u(k.src0.rowStride)}) / ${u(vw)};`);
  const colRow = (c: number) => {
    const n = c === 0 ? 'n0' : `n0 + ${u(c)}`;
    return k.N % C === 0 ? `(${n})` : `min(${n}, ${u(k.N - 1)})`;
  };
  for (const c of cols) emit(`let b${c} = (${base(k.src1, 1, 1)} + ${colRow(c)} * ${u(k.src1.rowStride)}) / ${u(vw)};`);
  for (const q of rows) for (const c of cols) emit(`var ${accN(q, c)} = ${V}();`);
  // Main loop: U independent loads of src0 per thread (of each of its rows), then their products with every column.
  const step = T * U;
  const at = (j: number) => (j === 0 ? 'kk' : `kk + ${u(j * T)}`);
  // x is the load's name (suffixed per row when a thread reads several; each src1 load then feeds them all).
  const fma = (j: number, x: string) =>
    RT === 1
      ? cols.map((c) => `acc${c} = acc${c} + ${x} * ld_src1(b${c} + ${at(j)});`)
      : cols.flatMap((c) => [`let y${c} = ld_src1(b${c} + ${at(j)});`, ...rows.map((q) => `${accN(q, c)} = ${accN(q, c)} + ${x}_${q} * y${c};`)]);
  const ldRows = (j: number, x: string, at: string) => rows.map((q) => `let ${RT === 1 ? x : `${x}_${q}`} = ld_src0(${rq('a', q)} + ${at});`);
  // One row's loads and products in a block of their own (the src1 lets of two loads would clash).
  const fmaBlock = (j: number, x: string) => (RT === 1 ? fma(j, x) : ['{', ...fma(j, x).map((l) => `  ${l}`), '}']);
  if (blocks && T % BLOCK_PARTS === 0) {
    // Four threads per 32-weight chunk, each decoding its 8 weights (wq_part: the chunk's scale, its
    // two or three quant words): neighbouring threads read a chunk's words and their 2 vec4 of each
    // column side by side, so a subgroup's loads are contiguous (a thread per whole chunk strides
    // 128 B of activations per lane). U parts in flight per thread, TC chunks per step of a row.
    const TC = T / BLOCK_PARTS;
    const KB = k.K / 32;
    const part = (jj: number, ind: string) => {
      const kbj = jj === 0 ? 'kb' : `kb + ${u(jj * TC)}`;
      const out = [`${ind}let wp${jj} = wq_part(ab + ${kbj}, qp);`, `${ind}let kv${jj} = (${kbj}) * 8u + qp * 2u;`];
      for (const c of cols) {
        const xa = `x${jj}_${c}a`;
        const xb = `x${jj}_${c}b`;
        out.push(`${ind}let ${xa} = ld_src1(b${c} + kv${jj});`, `${ind}let ${xb} = ld_src1(b${c} + kv${jj} + 1u);`);
        out.push(`${ind}acc${c} = acc${c} + wp${jj}.d * (wp${jj}.q[0] * ${xa} + wp${jj}.q[1] * ${xb})${blocks.hasMin ? ` + wp${jj}.m * (${xa} + ${xb})` : ''};`);
      }
      return out;
    };
    emit(`let ab = m * ${u(KB)};`, `let qp = j % ${u(BLOCK_PARTS)};`, `var kb = j / ${u(BLOCK_PARTS)};`);
    if (U > 1) emit(`for (; kb + ${u((U - 1) * TC)} < ${u(KB)}; kb = kb + ${u(U * TC)}) {`, ...unrolled.flatMap((jj) => part(jj, '  ')), '}');
    emit(`for (; kb < ${u(KB)}; kb = kb + ${u(TC)}) {`, ...part(0, '  '), '}');
  } else if (blocks) {
    // Fewer than four threads a row: one whole chunk per step, its scale once, 32 quants as 8 vec4 against 8 vec4 of each column.
    const xs = Array.from({ length: 8 }, (_, i) => i);
    emit(`let ab = m * ${u(k.K / 32)};`, `for (var kb = j; kb < ${u(k.K / 32)}; kb = kb + ${u(T)}) {`, '  let wb = wq_block(ab + kb);', '  let kv = kb * 8u;');
    for (const c of cols) {
      emit('  {', ...xs.map((i) => `    let x${i} = ld_src1(b${c} + kv${i ? ` + ${u(i)}` : ''});`));
      const qx = xs.map((i) => `wb.q[${i}] * x${i}`).join(' + ');
      emit(`    acc${c} = acc${c} + wb.d * (${qx})${blocks.hasMin ? ` + wb.m * (${xs.map((i) => `x${i}`).join(' + ')})` : ''};`, '  }');
    }
    emit('}');
  } else if (U > 1) {
    emit(`var kk = j;`, `for (; kk + ${u((U - 1) * T)} < ${u(KV)}; kk = kk + ${u(step)}) {`);
    emit(...unrolled.flatMap((j) => ldRows(j, `x${j}`, at(j))).map((l) => `  ${l}`));
    for (const j of unrolled) emit(...fmaBlock(j, `x${j}`).map((l) => `  ${l}`));
    emit('}', `for (; kk < ${u(KV)}; kk = kk + ${u(T)}) {`, ...ldRows(0, 'x0', 'kk').map((l) => `  ${l}`), ...fma(0, 'x0').map((l) => `  ${l}`), '}');
  } else {
    emit(`for (var kk = j; kk < ${u(KV)}; kk = kk + ${u(T)}) {`, ...ldRows(0, 'x0', 'kk').map((l) => `  ${l}`), ...fma(0, 'x0').map((l) => `  ${l}`), '}');
  }
  for (const q of rows) for (const c of cols) emit(vw === 4 ? `var ${sN(q, c)} = dot(${accN(q, c)}, vec4<f32>(1.0));` : `var ${sN(q, c)} = ${accN(q, c)};`);
  // The store: thread j == 0 of each row, inside M and N.
  const dstAt = (c: number, q = 0) => `${base(k.dst, 1, 1)} + (n0${c ? ` + ${u(c)}` : ''}) * ${u(k.dst.rowStride)} + ${rq('mOut', q)}`;
  const guard = (c: number, q = 0) => {
    const g = ['j == 0u'];
    if (k.M % R) g.push(`${rq('mOut', q)} < ${u(k.M)}`);
    if (k.N % C) g.push(`n0${c ? ` + ${u(c)}` : ''} < ${u(k.N)}`);
    return g.join(' && ');
  };
  let partLen = 0;
  // Sums (q, c) of a thread: slot q·C + c of its RT·C partials (c alone with one row).
  const QC = RT * C;
  const slot = (q: number, c: number) => u(q * C + c);
  const pairs = rows.flatMap((q) => cols.map((c) => [q, c] as const));
  if (T === 1) {
    for (const [q, c] of pairs) emit(`if (${guard(c, q)}) {`, `  dst[${dstAt(c, q)}] = ${sN(q, c)};`, '}');
  } else if (sub) {
    // Butterfly over the row's lanes inside one subgroup (w = min(T, subgroup size) lanes, both
    // powers of two), then one partial per w lanes through shared memory.
    partLen = W * QC;
    emit(`let w = min(${u(T)}, sgSize);`, 'for (var o = w / 2u; o > 0u; o = o / 2u) {', ...pairs.map(([q, c]) => `  ${sN(q, c)} = ${sN(q, c)} + subgroupShuffleXor(${sN(q, c)}, o);`), '}');
    emit('let groups = ' + `${u(T)} / w;`, 'if (j % w == 0u) {', ...pairs.map(([q, c]) => `  part[(r * ${u(T)} + j / w) * ${u(QC)} + ${slot(q, c)}] = ${sN(q, c)};`), '}', 'workgroupBarrier();');
    for (const [q, c] of pairs) {
      emit(`if (${guard(c, q)}) {`, `  var t = 0.0;`, `  for (var g = 0u; g < groups; g = g + 1u) {`, `    t = t + part[(r * ${u(T)} + g) * ${u(QC)} + ${slot(q, c)}];`, '  }', `  dst[${dstAt(c, q)}] = t;`, '}');
    }
  } else {
    partLen = W * QC;
    emit(...pairs.map(([q, c]) => `part[lid * ${u(QC)} + ${slot(q, c)}] = ${sN(q, c)};`), 'workgroupBarrier();');
    for (let o = T / 2; o >= 1; o /= 2) {
      emit(`if (j < ${u(o)}) {`, ...pairs.map(([q, c]) => `  part[lid * ${u(QC)} + ${slot(q, c)}] = part[lid * ${u(QC)} + ${slot(q, c)}] + part[(lid + ${u(o)}) * ${u(QC)} + ${slot(q, c)}];`), '}', 'workgroupBarrier();');
    }
    for (const [q, c] of pairs) emit(`if (${guard(c, q)}) {`, `  dst[${dstAt(c, q)}] = part[lid * ${u(QC)} + ${slot(q, c)}];`, '}');
  }
  const useSub = sub && T > 1;
  const wgsl = [
    `// generated: ${label} — ${scheduleKey(s)}`,
    `// gemv: ${R} row(s) × ${C} column(s) per workgroup, ${T} thread(s) per row over K${RT > 1 ? ` (each reading ${RT} rows)` : ''}, ${s.reduction} reduction`,
    ...rowReduceEnables(useSub),
    storageDecl(0, 'src0', 'read', l0.elem),
    storageDecl(1, 'src1', 'read', l1.elem),
    storageDecl(2, 'dst', 'read_write', 'f32'),
    ...(partLen ? [`var<workgroup> part: array<f32, ${partLen}>;`] : []),
    '',
    l0.fn,
    l1.fn,
    '',
    ...computeMain(W, rowReduceBuiltins(useSub), body),
  ].join('\n');
  return { wgsl, dispatch: [Math.ceil(k.M / R), Math.ceil(k.N / C), k.ne12 * k.ne13], features: useSub ? ['subgroups'] : [] };
}

/**
 * What a kernel that reduces a row's partial sums across its threads (gemv, mmvq's pass 2) asks of
 * WGSL: subgroups when it reduces by subgroup (their uniformity is the kernel's own concern: every
 * thread of a row reaches the reduction), and the builtins its entry reads.
 */
export function rowReduceEnables(subgroups: boolean): string[] {
  return subgroups ? ['enable subgroups;', 'diagnostic(off, subgroup_uniformity);'] : [];
}

export function rowReduceBuiltins(subgroups: boolean): string[] {
  return ['@builtin(workgroup_id) wid: vec3<u32>', '@builtin(local_invocation_index) lid: u32', ...(subgroups ? ['@builtin(subgroup_size) sgSize: u32'] : [])];
}

export const GEMV: FamilyDef<GemvSchedule, GemvSnippet> = {
  name: 'gemv',
  doc: 'few columns (N ≤ 8): rows of src0 per workgroup, K split over the threads of a row, several src1 columns per pass, subgroup or shared reduction',
  space: {
    workgroupSize: { values: [64, 128, 256, 512, 1024], sweep: [64, 128, 256], doc: 'threads per workgroup (512 and 1024 need the adapter limit; swept on request — 512 at one row a workgroup won at 16384² f32 on the H200)' },
    // Many rows and few threads per row suit a CPU adapter (few, fat workgroups); few rows, a GPU.
    rowsPerWorkgroup: { values: [1, 2, 4, 8, 16, 32, 64], doc: 'src0 rows per workgroup (the rest of the threads split K)' },
    columnsPerPass: { values: [1, 2, 4, 8], doc: 'src1 columns accumulated per pass over K' },
    vectorWidth: { values: [1, 4], doc: 'elements per load along K' },
    unroll: { values: [1, 2, 4], doc: 'independent src0 loads in flight per thread' },
    reduction: { values: ['subgroup', 'shared'], doc: "how a row's partial sums meet" },
    rowsPerThread: {
      values: [1, 2, 4],
      sweep: [1],
      doc: 'src0 rows each thread reads side by side: independent loads in flight, one src1 load for them all (f32/f16 weights; swept on request until measured)',
      default: 1,
    },
  },
  threads: (s) => s.workgroupSize,
  threadsX: (s) => s.workgroupSize,
  workgroupBytes: (s) => (threadsPerRow(s) > 1 ? s.workgroupSize * s.columnsPerPass * (s.rowsPerThread ?? 1) * 4 : 0),
  threadsText: (s) => `workgroupSize ${s.workgroupSize}`,
  validate(s, adapter) {
    const reasons: string[] = [];
    if (!isPow2(s.workgroupSize)) reasons.push(`workgroupSize ${s.workgroupSize} is not a power of two`);
    if (!isPow2(s.rowsPerWorkgroup) || s.rowsPerWorkgroup > s.workgroupSize) reasons.push(`rowsPerWorkgroup ${s.rowsPerWorkgroup} must be a power of two ≤ workgroupSize ${s.workgroupSize}`);
    if (s.vectorWidth !== 1 && s.vectorWidth !== 4) reasons.push(`vectorWidth ${s.vectorWidth} is not offered for gemv (1 or 4)`);
    const rt = s.rowsPerThread ?? 1;
    if (!isPow2(rt) || rt > s.rowsPerWorkgroup) reasons.push(`rowsPerThread ${rt} must be a power of two ≤ rowsPerWorkgroup ${s.rowsPerWorkgroup}`);
    if (s.columnsPerPass > 8) reasons.push(`columnsPerPass ${s.columnsPerPass} exceeds 8 (registers; larger N is the tiled matmul's)`);
    if (s.reduction === 'subgroup' && !adapter.features.includes('subgroups')) reasons.push("reduction 'subgroup' needs the 'subgroups' feature, which this adapter lacks");
    return reasons;
  },
  fits: (s, k) => gemvFits(s, k),
  generate(s, k, c) {
    const g = generateGemv(s, k, `${c.op} ${c.label}`);
    return {
      label: `generated:${c.op} ${scheduleKey(s)}`,
      wgsl: g.wgsl,
      entryPoint: 'main',
      bindings: MATMUL_BINDINGS,
      dispatch: g.dispatch,
      ...(g.features.length ? { features: g.features } : {}),
    };
  },
};
