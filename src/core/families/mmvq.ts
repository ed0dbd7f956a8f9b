// The mmvq family: ggml's MMVQ for quantized GEMV (N ≤ 8) in two passes of one run.
//   pass 1 quantizes the activations (src1, f32 or f16) to q8_1 blocks of 32 in a scratch buffer:
//          per block 8 u32 of four i8 (round(x / d), d = amax / 127), then d and d·Σq as f32 bits;
//   pass 2 is the GEMV: a thread takes whole weight blocks (wq_block_i8: the quants as packed i8
//          words, src/core/quant/block-wgsl.ts) and sums dot4I8Packed over each block's 8 words
//          against the activation block: acc += d_w·d_x·Σ + m_w·(d_x·Σq_x).
// Both passes sit in one compute pass, so a timed run is their sum. The activations are rounded,
// so the kernel declares q8_1 numerics (correctness.ts: eps 2^-8 and ggml's NMSE threshold). Needs
// WGSL's packed_4x8_integer_dot_product; the subgroup reduction needs 'subgroups'.
import { computeMain, storageDecl, u } from '../codegen/wgsl';
import { MAX_WORKGROUPS_PER_DIM } from '../kernel';
import { rowReduceBuiltins, rowReduceEnables, type GemvSnippet } from './gemv';
import { vec4Aligned } from './matmul-wgsl';
import { scheduleKey, type FamilyDef } from './types';

export const DOT4_WGSL_FEATURE = 'packed_4x8_integer_dot_product';

export interface MmvqSchedule {
  readonly family: 'mmvq';
  readonly workgroupSize: number;
  /** Weight rows per workgroup; the workgroupSize / rowsPerWorkgroup threads of a row split its blocks. */
  readonly rowsPerWorkgroup: number;
  readonly reduction: 'subgroup' | 'shared';
}

/** u32 words per q8_1 activation block in the scratch: 8 of packed i8, d, d·Σq. */
const XQ_WORDS = 10;
const QUANT_WG = 64;
const isPow2 = (n: number) => Number.isInteger(n) && n > 0 && (n & (n - 1)) === 0;

function fitsMmvq(s: MmvqSchedule, k: GemvSnippet): string[] {
  const reasons: string[] = [];
  if (!k.weightBlocks?.integer) reasons.push('mmvq takes ggml block weights with integer quants (q4_0, q4_1, q5_0, q5_1, q8_0), not this src0');
  if (k.K % 32) reasons.push(`mmvq needs K % 32 == 0, got K = ${k.K}`);
  if (k.N > 8) reasons.push(`mmvq covers N ≤ 8, got N = ${k.N}`);
  if (k.ne12 * k.ne13 > 1) reasons.push('mmvq takes one batch');
  if (!vec4Aligned(k.src1, k.N, k.ne12, k.ne13)) reasons.push(`mmvq reads src1 as vec4: its rows must start on 4-element boundaries (offset ${k.src1.offset}, row stride ${k.src1.rowStride})`);
  const gx = Math.ceil(k.M / s.rowsPerWorkgroup);
  if (gx > MAX_WORKGROUPS_PER_DIM) reasons.push(`rowsPerWorkgroup ${s.rowsPerWorkgroup} needs ${gx} workgroups along x for M = ${k.M}, over ${MAX_WORKGROUPS_PER_DIM}`);
  if (Math.ceil((k.N * k.K) / 32 / QUANT_WG) > MAX_WORKGROUPS_PER_DIM) reasons.push(`the quantize pass needs over ${MAX_WORKGROUPS_PER_DIM} workgroups for N·K = ${k.N * k.K}`);
  return reasons;
}

function src1Loader(f16: boolean): { elem: string; fn: string } {
  if (!f16) return { elem: 'vec4<f32>', fn: 'fn ld_x(i: u32) -> vec4<f32> {\n  return src1[i];\n}' };
  return { elem: 'vec2<u32>', fn: 'fn ld_x(i: u32) -> vec4<f32> {\n  let w = src1[i];\n  return vec4<f32>(unpack2x16float(w.x), unpack2x16float(w.y));\n}' };
}

/** Pass 1: one thread per (column, block) quantizes 32 activations to q8_1. */
function quantizeWgsl(k: GemvSnippet, label: string): string {
  const KB = k.K / 32;
  const l = src1Loader(k.type1 === 'f16');
  const xs = Array.from({ length: 8 }, (_, i) => i);
  const body = [
    'let t = gid.x;',
    `if (t >= ${u(k.N * KB)}) {`,
    '  return;',
    '}',
    `let n = t / ${u(KB)};`,
    `let b = t % ${u(KB)};`,
    `let base = (${u(k.src1.offset)} + n * ${u(k.src1.rowStride)}) / 4u + b * 8u;`,
    ...xs.map((i) => `let v${i} = ld_x(base + ${u(i)});`),
    ...xs.map((i) => `let a${i} = abs(v${i});`),
    `let amax = max(max(max(max(a0.x, a0.y), max(a0.z, a0.w)), ${xs.slice(1).map((i) => `max(max(a${i}.x, a${i}.y), max(a${i}.z, a${i}.w))`).reduce((acc, e) => `max(${acc}, ${e})`)}), 0.0);`,
    'let d = amax / 127.0;',
    'let id = select(0.0, 1.0 / d, d > 0.0);',
    ...xs.map((i) => `let q${i} = vec4<i32>(round(v${i} * id));`),
    `let o = t * ${u(XQ_WORDS)};`,
    ...xs.map((i) => `xq[o + ${u(i)}] = pack4xI8(q${i});`),
    `let qs = ${xs.map((i) => `q${i}`).join(' + ')};`,
    'xq[o + 8u] = bitcast<u32>(d);',
    'xq[o + 9u] = bitcast<u32>(d * f32(qs.x + qs.y + qs.z + qs.w));',
  ];
  return [
    `// generated: ${label} — mmvq pass 1: src1 → q8_1 blocks (${k.N} column(s) × ${KB} blocks)`,
    `requires ${DOT4_WGSL_FEATURE};`,
    storageDecl(0, 'src1', 'read', l.elem),
    storageDecl(1, 'xq', 'read_write', 'u32'),
    '',
    l.fn,
    '',
    ...computeMain(QUANT_WG, ['@builtin(global_invocation_id) gid: vec3<u32>'], body),
  ].join('\n');
}

/** Pass 2: the integer-dot GEMV over the weights' blocks and the q8_1 activations. */
function gemvWgsl(s: MmvqSchedule, k: GemvSnippet, label: string): string {
  const W = s.workgroupSize;
  const R = s.rowsPerWorkgroup;
  const T = W / R;
  const KB = k.K / 32;
  const cols = Array.from({ length: k.N }, (_, c) => c);
  const sub = s.reduction === 'subgroup' && T > 1;
  const hasMin = k.weightBlocks!.hasMin;
  const body: string[] = [
    R === 1 ? 'let r = 0u;' : `let r = lid / ${u(T)};`,
    T === 1 ? 'let j = 0u;' : `let j = lid % ${u(T)};`,
    R === 1 ? 'let mOut = wid.x;' : `let mOut = wid.x * ${u(R)} + r;`,
    // Rows past M read the last row (their sums are dropped at the store): every thread reaches the barriers.
    k.M % R === 0 ? 'let m = mOut;' : `let m = min(mOut, ${u(k.M - 1)});`,
    `let ab = m * ${u(KB)};`,
    ...cols.map((c) => `var acc${c} = 0.0;`),
    `for (var kb = j; kb < ${u(KB)}; kb = kb + ${u(T)}) {`,
    '  let wb = wq_block_i8(ab + kb);',
  ];
  for (const c of cols) {
    body.push(
      '  {',
      `    let o = (${u(c * KB)} + kb) * ${u(XQ_WORDS)};`,
      `    let si = ${Array.from({ length: 8 }, (_, i) => `dot4I8Packed(wb.q[${i}], xq[o + ${u(i)}])`).join(' + ')};`,
      `    acc${c} = acc${c} + wb.d * bitcast<f32>(xq[o + 8u]) * f32(si)${hasMin ? ' + wb.m * bitcast<f32>(xq[o + 9u])' : ''};`,
      '  }',
    );
  }
  body.push('}');
  const dstAt = (c: number) => `${u(k.dst.offset)} + ${u(c * k.dst.rowStride)} + mOut`;
  const guard = ['j == 0u', ...(k.M % R ? [`mOut < ${u(k.M)}`] : [])].join(' && ');
  let partLen = 0;
  if (T === 1) {
    for (const c of cols) body.push(`if (${guard}) {`, `  dst[${dstAt(c)}] = acc${c};`, '}');
  } else if (sub) {
    // Butterfly within a subgroup (min(T, size) lanes), then one partial per group through shared memory.
    partLen = W * k.N;
    body.push(`let w = min(${u(T)}, sgSize);`, 'for (var o = w / 2u; o > 0u; o = o / 2u) {', ...cols.map((c) => `  acc${c} = acc${c} + subgroupShuffleXor(acc${c}, o);`), '}');
    body.push('if (j % w == 0u) {', ...cols.map((c) => `  part[(r * ${u(T)} + j / w) * ${u(k.N)} + ${u(c)}] = acc${c};`), '}', 'workgroupBarrier();');
    for (const c of cols) body.push(`if (${guard}) {`, '  var t = 0.0;', `  for (var g = 0u; g < ${u(T)} / w; g = g + 1u) {`, `    t = t + part[(r * ${u(T)} + g) * ${u(k.N)} + ${u(c)}];`, '  }', `  dst[${dstAt(c)}] = t;`, '}');
  } else {
    partLen = W * k.N;
    body.push(...cols.map((c) => `part[lid * ${u(k.N)} + ${u(c)}] = acc${c};`), 'workgroupBarrier();');
    for (let o = T / 2; o >= 1; o /= 2) {
      body.push(`if (j < ${u(o)}) {`, ...cols.map((c) => `  part[lid * ${u(k.N)} + ${u(c)}] = part[lid * ${u(k.N)} + ${u(c)}] + part[(lid + ${u(o)}) * ${u(k.N)} + ${u(c)}];`), '}', 'workgroupBarrier();');
    }
    for (const c of cols) body.push(`if (${guard}) {`, `  dst[${dstAt(c)}] = part[lid * ${u(k.N)} + ${u(c)}];`, '}');
  }
  return [
    `// generated: ${label} — mmvq pass 2: ${R} row(s) per workgroup, ${T} thread(s) per row over blocks, dot4I8Packed, ${sub ? 'subgroup' : 'shared'} reduction`,
    `requires ${DOT4_WGSL_FEATURE};`,
    ...rowReduceEnables(sub),
    storageDecl(0, 'src0', 'read', 'u32'),
    storageDecl(1, 'xq', 'read', 'u32'),
    storageDecl(2, 'dst', 'read_write', 'f32'),
    ...(partLen ? [`var<workgroup> part: array<f32, ${partLen}>;`] : []),
    '',
    k.weightBlocks!.wgsl.trim(),
    '',
    ...computeMain(W, rowReduceBuiltins(sub), body),
  ].join('\n');
}

export const MMVQ: FamilyDef<MmvqSchedule, GemvSnippet> = {
  name: 'mmvq',
  doc: "ggml's MMVQ for quantized GEMV (N ≤ 8): activations quantized to q8_1 in a first pass, dot4I8Packed over whole weight blocks in the second; timed as their sum",
  space: {
    workgroupSize: { values: [64, 128, 256], doc: 'threads per workgroup (pass 2)' },
    rowsPerWorkgroup: { values: [1, 2, 4, 8, 16], doc: 'weight rows per workgroup (the rest of the threads split the blocks)' },
    reduction: { values: ['subgroup', 'shared'], doc: "how a row's partial sums meet" },
  },
  threads: (s) => s.workgroupSize,
  workgroupBytes: (s) => (s.workgroupSize / s.rowsPerWorkgroup > 1 ? s.workgroupSize * 8 * 4 : 0),
  threadsText: (s) => `workgroupSize ${s.workgroupSize}`,
  validate(s, adapter) {
    const reasons: string[] = [];
    if (!isPow2(s.workgroupSize)) reasons.push(`workgroupSize ${s.workgroupSize} is not a power of two`);
    if (!isPow2(s.rowsPerWorkgroup) || s.rowsPerWorkgroup > s.workgroupSize) reasons.push(`rowsPerWorkgroup ${s.rowsPerWorkgroup} must be a power of two ≤ workgroupSize ${s.workgroupSize}`);
    if (!adapter.wgslFeatures?.includes(DOT4_WGSL_FEATURE)) reasons.push(`mmvq needs WGSL's ${DOT4_WGSL_FEATURE} (dot4I8Packed), which this runtime does not offer`);
    if (s.reduction === 'subgroup' && !adapter.features.includes('subgroups')) reasons.push("reduction 'subgroup' needs the 'subgroups' feature, which this adapter lacks");
    return reasons;
  },
  fits: fitsMmvq,
  generate(s, k, c) {
    const label = `${c.op} ${c.label}`;
    const KB = k.K / 32;
    const sub = s.reduction === 'subgroup' && s.workgroupSize / s.rowsPerWorkgroup > 1;
    return {
      label: `generated:${c.op} ${scheduleKey(s)}`,
      wgsl: gemvWgsl(s, k, label),
      entryPoint: 'main',
      bindings: [
        { binding: 0, role: 'src0', access: 'read' },
        { binding: 1, role: 'scratch', buffer: 'xq', access: 'read' },
        { binding: 2, role: 'dst', access: 'read_write' },
      ],
      dispatch: [Math.ceil(k.M / s.rowsPerWorkgroup), 1, 1],
      ...(sub ? { features: ['subgroups'] } : {}),
      inputRounding: 'q8_1',
      prelude: [
        {
          label: `generated:${c.op} ${scheduleKey(s)} quantize`,
          wgsl: quantizeWgsl(k, label),
          entryPoint: 'main',
          bindings: [
            { binding: 0, role: 'src1', access: 'read' },
            { binding: 1, role: 'scratch', buffer: 'xq', access: 'read_write' },
          ],
          dispatch: [Math.ceil((k.N * KB) / QUANT_WG), 1, 1],
        },
      ],
      scratch: [{ name: 'xq', sizeBytes: k.N * KB * XQ_WORDS * 4 }],
    };
  },
};
