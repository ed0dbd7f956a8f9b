// The sgmatrix family: MUL_MAT on Chromium/Dawn's `chromium-experimental-subgroup-matrix`
// (tensor cores where the driver maps them), f16 operands, f32 accumulation (the f16→f32 configs
// M×N×K 16x16x16, 16x8x16, 16x8x8). A workgroup of subgroupsM×subgroupsN subgroups owns a
// tile of (subgroupsM·matricesM·cfgM) × (subgroupsN·matricesN·cfgN) outputs; each subgroup holds
// matricesM×matricesN result matrices. K goes through workgroup memory tileK at a time as f16:
// f16 sources are copied, f32 sources are rounded to f16 on the way (the kernel then says so in
// `inputRounding`, and its bound uses f16's eps). Results are stored straight to dst (f32).
// Whole tiles only: fits() names the dimension that is not a multiple. Pure string building.
import type { DType } from '../tensor';
import { MAX_WORKGROUPS_PER_DIM } from '../kernel';
import type { MatmulOperand } from './matmul-wgsl';
import { indent, storageDecl, u } from '../codegen/wgsl';
import type { GemvSnippet } from './gemv';
import { scheduleKey, type FamilyDef } from './types';

export interface SgmatrixSchedule {
  readonly family: 'sgmatrix';
  /** The subgroup-matrix shape M×N×K (f16 in, f32 accumulate). */
  readonly config: '16x16x16' | '16x8x16' | '16x8x8';
  readonly subgroupsM: number;
  readonly subgroupsN: number;
  /** Result matrices per subgroup along M and N. */
  readonly matricesM: number;
  readonly matricesN: number;
  /** K staged in workgroup memory per step. */
  readonly tileK: number;
  /** Threads per subgroup the workgroup is sized for (the device's subgroup size; subgroups past the tile stay idle when it is smaller). */
  readonly subgroupSize: number;
}

export const SGMATRIX_FEATURE = 'chromium-experimental-subgroup-matrix';
/** Workgroup-memory row padding in f16 elements (16 bytes): spreads rows over banks. */
const PAD = 8;

function cfg(s: SgmatrixSchedule): { cm: number; cn: number; ck: number } {
  const [cm, cn, ck] = s.config.split('x').map(Number);
  return { cm, cn, ck };
}

export function sgmatrixTile(s: SgmatrixSchedule): { BM: number; BN: number; threads: number } {
  const { cm, cn } = cfg(s);
  return { BM: s.subgroupsM * s.matricesM * cm, BN: s.subgroupsN * s.matricesN * cn, threads: s.subgroupsM * s.subgroupsN * s.subgroupSize };
}

/** Elements one global load carries: 8 f16 (vec4<u32>) or 4 f32 (vec4<f32>). */
const perLoad = (t: DType) => (t === 'f16' ? 8 : 4);

export function sgmatrixFits(s: SgmatrixSchedule, k: GemvSnippet): string[] {
  const reasons: string[] = [];
  const { BM, BN } = sgmatrixTile(s);
  const t0 = k.type0 ?? 'f32';
  const t1 = k.type1 ?? 'f32';
  for (const [name, t] of [['src0', t0], ['src1', t1]] as const) if (t !== 'f32' && t !== 'f16') reasons.push(`sgmatrix reads f32 or f16 ${name}, not ${t}`);
  if (k.M % BM) reasons.push(`M = ${k.M} is not a multiple of the tile's ${BM} (subgroupsM·matricesM·${cfg(s).cm})`);
  if (k.N % BN) reasons.push(`N = ${k.N} is not a multiple of the tile's ${BN} (subgroupsN·matricesN·${cfg(s).cn})`);
  if (k.K % s.tileK) reasons.push(`K = ${k.K} is not a multiple of tileK ${s.tileK}`);
  const aligned = (name: string, o: MatmulOperand, t: DType, rows: number, ne2: number, ne3: number) => {
    const q = perLoad(t);
    const ok = o.offset % q === 0 && (rows === 1 || o.rowStride % q === 0) && (ne2 === 1 || o.batchStride2 % q === 0) && (ne3 === 1 || o.batchStride3 % q === 0);
    if (!ok) reasons.push(`sgmatrix loads ${q} ${t} at a time: ${name}'s rows must start on ${q}-element boundaries (offset ${o.offset}, row stride ${o.rowStride})`);
  };
  aligned('src0', k.src0, t0, k.M, k.ne02, k.ne03);
  aligned('src1', k.src1, t1, k.N, k.ne12, k.ne13);
  if (k.epilogue) reasons.push('sgmatrix takes no epilogue');
  if (k.M / BM > MAX_WORKGROUPS_PER_DIM || k.N / BN > MAX_WORKGROUPS_PER_DIM) reasons.push(`the tile needs more than ${MAX_WORKGROUPS_PER_DIM} workgroups along x or y`);
  return reasons;
}

export function generateSgmatrix(s: SgmatrixSchedule, k: GemvSnippet, label: string): { wgsl: string; dispatch: [number, number, number]; rounds: boolean } {
  const { cm, cn, ck } = cfg(s);
  const { BM, BN, threads } = sgmatrixTile(s);
  const BK = s.tileK;
  const LD = BK + PAD; // workgroup-memory row length (f16)
  const t0 = k.type0 ?? 'f32';
  const t1 = k.type1 ?? 'f32';
  const batched = k.ne12 * k.ne13 > 1;
  const div = (i: string, r: number) => (r === 1 ? i : `(${i} / ${u(r)})`);
  const base = (o: MatmulOperand, r2: number, r3: number) => {
    const terms = [u(o.offset)];
    if (k.ne12 / r2 > 1) terms.push(`${div('i2', r2)} * ${u(o.batchStride2)}`);
    if (k.ne13 / r3 > 1) terms.push(`${div('i3', r3)} * ${u(o.batchStride3)}`);
    return terms.join(' + ');
  };
  const left = `subgroup_matrix_left<f16, ${ck}, ${cm}>`;
  const right = `subgroup_matrix_right<f16, ${cn}, ${ck}>`;
  const result = `subgroup_matrix_result<f32, ${cn}, ${cm}>`;
  const body: string[] = [];
  const emit = (...ls: string[]) => body.push(...ls);
  if (batched) emit(k.ne13 > 1 ? `let i2 = wid.z % ${u(k.ne12)};\nlet i3 = wid.z / ${u(k.ne12)};` : 'let i2 = wid.z;');
  emit(`let m0 = wid.x * ${u(BM)};`, `let n0 = wid.y * ${u(BN)};`);
  emit(`let base0 = ${base(k.src0, k.r2, k.r3)};`, `let base1 = ${base(k.src1, 1, 1)};`, `let based = ${base(k.dst, 1, 1)};`);
  emit('let sg = lid / sgSize;', `let isActive = sg < ${u(s.subgroupsM * s.subgroupsN)};`);
  emit(`let sgm = sg % ${u(s.subgroupsM)};`, `let sgn = min(sg / ${u(s.subgroupsM)}, ${u(s.subgroupsN - 1)});`);
  for (let i = 0; i < s.matricesM; i++) for (let j = 0; j < s.matricesN; j++) emit(`var acc${i}_${j} = ${result}();`);

  /** One operand's staging: global loads of `q` elements into `sh` rows of LD, f16. */
  const stage = (p: 'a' | 'b', src: string, t: DType, rows: number, row0: string, bse: string, rowStride: number): string[] => {
    const q = perLoad(t);
    const units = (rows * BK) / q;
    const perRow = BK / q;
    const out: string[] = [];
    for (let v0 = 0; v0 < units; v0 += threads) {
      const v = v0 === 0 ? 'lid' : `(lid + ${u(v0)})`;
      const guarded = v0 + threads > units;
      const lines = [
        `let ${p}r = ${v} / ${u(perRow)};`,
        `let ${p}c = (${v} % ${u(perRow)}) * ${u(q)};`,
        `let ${p}w = ${src}[(${bse} + (${row0} + ${p}r) * ${u(rowStride)} + k0 + ${p}c) / ${u(q)}];`,
        `let ${p}o = ${p}r * ${u(LD)} + ${p}c;`,
      ];
      const sh = p === 'a' ? 'sA' : 'sB';
      if (t === 'f16') {
        for (const [w, comp] of ['x', 'y', 'z', 'w'].entries()) lines.push(`let ${p}h${w} = bitcast<vec2<f16>>(${p}w.${comp});`, `${sh}[${p}o + ${u(2 * w)}] = ${p}h${w}.x;`, `${sh}[${p}o + ${u(2 * w + 1)}] = ${p}h${w}.y;`);
      } else {
        lines.push(`let ${p}h = vec4<f16>(${p}w);`, ...[0, 1, 2, 3].map((e) => `${sh}[${p}o + ${u(e)}] = ${p}h[${e}];`));
      }
      out.push(guarded ? `if (${v} < ${u(units)}) {` : '{', ...lines.map((l) => `  ${l}`), '}');
    }
    return out;
  };
  emit(`for (var k0 = 0u; k0 < ${u(k.K)}; k0 = k0 + ${u(BK)}) {`);
  emit(...stage('a', 'src0', t0, BM, 'm0', 'base0', k.src0.rowStride).map((l) => `  ${l}`));
  emit(...stage('b', 'src1', t1, BN, 'n0', 'base1', k.src1.rowStride).map((l) => `  ${l}`));
  emit('  workgroupBarrier();', '  if (isActive) {', `    for (var kk = 0u; kk < ${u(BK)}; kk = kk + ${u(ck)}) {`);
  for (let i = 0; i < s.matricesM; i++) {
    emit(`      let l${i} = subgroupMatrixLoad<${left}>(&sA, (sgm * ${u(s.matricesM * cm)} + ${u(i * cm)}) * ${u(LD)} + kk, false, ${u(LD)});`);
  }
  for (let j = 0; j < s.matricesN; j++) {
    emit(`      let r${j} = subgroupMatrixLoad<${right}>(&sB, (sgn * ${u(s.matricesN * cn)} + ${u(j * cn)}) * ${u(LD)} + kk, true, ${u(LD)});`);
    for (let i = 0; i < s.matricesM; i++) emit(`      acc${i}_${j} = subgroupMatrixMultiplyAccumulate(l${i}, r${j}, acc${i}_${j});`);
  }
  emit('    }', '  }', '  workgroupBarrier();', '}');
  // dst is column-major for the result (column n is dst row n, m contiguous): stride = dst's row stride.
  emit('if (isActive) {');
  for (let i = 0; i < s.matricesM; i++) {
    for (let j = 0; j < s.matricesN; j++) {
      const m = `m0 + sgm * ${u(s.matricesM * cm)} + ${u(i * cm)}`;
      const n = `n0 + sgn * ${u(s.matricesN * cn)} + ${u(j * cn)}`;
      emit(`  subgroupMatrixStore(&dst, based + (${n}) * ${u(k.dst.rowStride)} + ${m}, acc${i}_${j}, true, ${u(k.dst.rowStride)});`);
    }
  }
  emit('}');
  const elem = (t: DType) => (t === 'f16' ? 'vec4<u32>' : 'vec4<f32>');
  const rounds = t0 === 'f32' || t1 === 'f32';
  const wgsl = [
    `// generated: ${label} — ${scheduleKey(s)}`,
    `// sgmatrix: ${BM}×${BN} outputs per workgroup (${s.subgroupsM}×${s.subgroupsN} subgroups of ${s.matricesM}×${s.matricesN} ${s.config} f16→f32 matrices), K ${BK} per step${rounds ? '; f32 sources rounded to f16 on staging' : ''}`,
    'enable f16;',
    'enable subgroups;',
    'enable chromium_experimental_subgroup_matrix;',
    'diagnostic(off, chromium.subgroup_matrix_uniformity);',
    storageDecl(0, 'src0', 'read', elem(t0)),
    storageDecl(1, 'src1', 'read', elem(t1)),
    storageDecl(2, 'dst', 'read_write', 'f32'),
    `var<workgroup> sA: array<f16, ${BM * LD}>;`,
    `var<workgroup> sB: array<f16, ${BN * LD}>;`,
    '',
    `@compute @workgroup_size(${threads})`,
    'fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32, @builtin(subgroup_size) sgSize: u32) {',
    indent(body.join('\n'), 2),
    '}',
    '',
  ].join('\n');
  return { wgsl, dispatch: [k.M / BM, k.N / BN, k.ne12 * k.ne13], rounds };
}

export const SGMATRIX: FamilyDef<SgmatrixSchedule, GemvSnippet> = {
  name: 'sgmatrix',
  doc: 'subgroup-matrix (chromium-experimental-subgroup-matrix) tiles: f16 operands staged in workgroup memory, f32 accumulation, whole tiles only',
  space: {
    config: { values: ['16x16x16', '16x8x16', '16x8x8'], doc: 'subgroup-matrix shape M×N×K (f16→f32)' },
    subgroupsM: { values: [1, 2, 4], doc: 'subgroups per workgroup along M' },
    subgroupsN: { values: [1, 2, 4], doc: 'subgroups per workgroup along N' },
    matricesM: { values: [1, 2, 4], doc: 'result matrices per subgroup along M' },
    matricesN: { values: [1, 2, 4], doc: 'result matrices per subgroup along N' },
    tileK: { values: [16, 32, 64], doc: 'K staged in workgroup memory per step' },
    subgroupSize: { values: [32], doc: 'threads per subgroup the workgroup is sized for', default: 32 },
  },
  threads: (s) => sgmatrixTile(s).threads,
  workgroupBytes: (s) => {
    const { BM, BN } = sgmatrixTile(s);
    return (BM + BN) * (s.tileK + PAD) * 2;
  },
  threadsText: (s) => `subgroupsM·subgroupsN·subgroupSize = ${sgmatrixTile(s).threads} threads`,
  validate(s, adapter) {
    const reasons: string[] = [];
    if (!['16x16x16', '16x8x16', '16x8x8'].includes(s.config)) reasons.push(`config ${s.config} is not an f16→f32 subgroup-matrix shape (16x16x16, 16x8x16, 16x8x8)`);
    else if (s.tileK % cfg(s).ck) reasons.push(`tileK ${s.tileK} is not a multiple of the config's K ${cfg(s).ck}`);
    if (s.tileK % 8) reasons.push(`tileK ${s.tileK} must be a multiple of 8 (8 f16 per load)`);
    if (!adapter.features.includes(SGMATRIX_FEATURE)) reasons.push(`sgmatrix needs the '${SGMATRIX_FEATURE}' feature, which this adapter lacks`);
    if (!adapter.features.includes('shader-f16')) reasons.push("sgmatrix needs the 'shader-f16' feature, which this adapter lacks");
    if (!adapter.features.includes('subgroups')) reasons.push("sgmatrix needs the 'subgroups' feature, which this adapter lacks");
    return reasons;
  },
  fits: (s, k) => sgmatrixFits(s, k),
  generate(s, k, c) {
    const g = generateSgmatrix(s, k, `${c.op} ${c.label}`);
    return {
      label: `generated:${c.op} ${scheduleKey(s)}${g.rounds ? ' [f32 operands staged as f16]' : ''}`,
      wgsl: g.wgsl,
      entryPoint: 'main',
      bindings: [
        { binding: 0, role: 'src0', access: 'read' },
        { binding: 1, role: 'src1', access: 'read' },
        { binding: 2, role: 'dst', access: 'read_write' },
      ],
      dispatch: g.dispatch,
      features: ['shader-f16', 'subgroups', SGMATRIX_FEATURE],
      ...(g.rounds ? { inputRounding: 'f16' as const } : {}),
    };
  },
};
