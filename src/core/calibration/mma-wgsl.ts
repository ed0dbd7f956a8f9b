// The subgroup-matrix ceiling: a loop of subgroupMatrixMultiplyAccumulate on operands loaded once
// into registers (no memory traffic in the loop), f16 in, f32 accumulate, MMA_CHAINS independent
// accumulators per subgroup so no multiply waits on the one before.
//
// Where the matrices live is one plan (mmaPlan) that both the WGSL and a CPU model of
// subgroupMatrixLoad/Store read: the lab's buffers start with a guard band, so every load and
// store is offset by the tensor's device offset (loads from element 0 read the guard: NaN on the
// H200, 2026-12-02). The operands are small distinct integers, not all ones, so a transposed or
// overlapping layout gives a wrong result instead of the same sum; every product stays an exact
// integer in f32 (iters·K·MMA_MAX_VALUE² ≤ 2^24).
export const MMA_CONFIGS = ['16x16x16', '16x8x16', '16x8x8'] as const;
export type MmaConfig = (typeof MMA_CONFIGS)[number];
export const MMA_CHAINS = 4;
/** Subgroups per workgroup; the workgroup is sized for subgroups of 32 (NVIDIA). */
export const MMA_SUBGROUPS = 4;
export const MMA_SUBGROUP_SIZE = 32;
/** Operand values are 0…MMA_MAX_VALUE. */
export const MMA_MAX_VALUE = 3;

export function mmaDims(config: MmaConfig): { m: number; n: number; k: number } {
  const [m, n, k] = config.split('x').map(Number);
  return { m, n, k };
}

/** One subgroupMatrixLoad/Store's addressing: element (row r, column c) is at offset + r·stride + c (row-major). */
export interface MatrixAccess {
  readonly offset: number;
  readonly stride: number;
  readonly rows: number;
  readonly cols: number;
}

export interface MmaPlan {
  /** M×K, read from src0. */
  readonly left: MatrixAccess;
  /** K×N, read from src0 after the left operand. */
  readonly right: MatrixAccess;
  /** Where (workgroup, subgroup, chain)'s M×N result goes in dst: dstOffset + slot·M·N, row-major, stride N. */
  readonly dstOffset: number;
  /** f16 elements of src0 the operands take (after srcOffset). */
  readonly srcElements: number;
}

/** Offsets in elements of each binding (the tensors' device offsets: deviceOffsetElements). */
export function mmaPlan(config: MmaConfig, srcOffset: number, dstOffset: number): MmaPlan {
  const { m, n, k } = mmaDims(config);
  return {
    left: { offset: srcOffset, stride: k, rows: m, cols: k },
    right: { offset: srcOffset + m * k, stride: n, rows: k, cols: n },
    dstOffset,
    srcElements: m * k + k * n,
  };
}

/** The operand values (host order: left row-major, then right row-major), 0…MMA_MAX_VALUE. */
export function mmaOperands(config: MmaConfig): Float64Array {
  const { m, n, k } = mmaDims(config);
  const out = new Float64Array(m * k + k * n);
  // Distinct per position along rows and columns, so a transpose changes the product.
  for (let i = 0; i < out.length; i++) out[i] = (i * 7 + ((i / 5) | 0)) % (MMA_MAX_VALUE + 1);
  return out;
}

/** dst: per (workgroup, subgroup, chain) one m×n result, row-major. */
export function mmaWgsl(config: MmaConfig, iters: number, plan: MmaPlan): string {
  const { m, n, k } = mmaDims(config);
  const chains = Array.from({ length: MMA_CHAINS }, (_, i) => i);
  const res = `subgroup_matrix_result<f32, ${n}, ${m}>`;
  return [
    `// calibration: subgroup-matrix ceiling, ${config} f16→f32, ${MMA_CHAINS} chains × ${iters} multiply-accumulates per subgroup`,
    'enable f16;',
    'enable subgroups;',
    'enable chromium_experimental_subgroup_matrix;',
    'diagnostic(off, chromium.subgroup_matrix_uniformity);',
    '@group(0) @binding(0) var<storage, read> src0: array<f16>;',
    '@group(0) @binding(1) var<storage, read_write> dst: array<f32>;',
    '',
    `@compute @workgroup_size(${MMA_SUBGROUPS * MMA_SUBGROUP_SIZE})`,
    'fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32, @builtin(subgroup_size) sgSize: u32) {',
    '  let sg = lid / sgSize;',
    `  if (sg >= ${MMA_SUBGROUPS}u) {`,
    '    return;',
    '  }',
    `  let l = subgroupMatrixLoad<subgroup_matrix_left<f16, ${k}, ${m}>>(&src0, ${plan.left.offset}u, false, ${plan.left.stride}u);`,
    `  let r = subgroupMatrixLoad<subgroup_matrix_right<f16, ${n}, ${k}>>(&src0, ${plan.right.offset}u, false, ${plan.right.stride}u);`,
    ...chains.map((c) => `  var a${c} = ${res}();`),
    `  for (var i = 0u; i < ${iters}u; i = i + 1u) {`,
    ...chains.map((c) => `    a${c} = subgroupMatrixMultiplyAccumulate(l, r, a${c});`),
    '  }',
    `  let slot = ((wid.y * nwg.x + wid.x) * ${MMA_SUBGROUPS}u + sg) * ${MMA_CHAINS}u;`,
    ...chains.map((c) => `  subgroupMatrixStore(&dst, ${plan.dstOffset}u + (slot + ${c}u) * ${m * n}u, a${c}, false, ${n}u);`),
    '}',
    '',
  ].join('\n');
}

function load(buf: ArrayLike<number>, a: MatrixAccess): number[][] {
  return Array.from({ length: a.rows }, (_, r) => Array.from({ length: a.cols }, (_, c) => buf[a.offset + r * a.stride + c]));
}

/**
 * A CPU model of the kernel over whole bindings: subgroupMatrixLoad/Store as the WGSL extension
 * defines them (row-major: element (r, c) at offset + r·stride + c), the plan's addresses, every
 * (workgroup, subgroup, chain). `src` and `dst` are the bindings' elements, guard band included.
 */
export function mmaModel(config: MmaConfig, iters: number, plan: MmaPlan, src: ArrayLike<number>, dst: Float64Array, workgroups: number): void {
  const { m, n, k } = mmaDims(config);
  const l = load(src, plan.left);
  const r = load(src, plan.right);
  for (let slot = 0; slot < workgroups * MMA_SUBGROUPS * MMA_CHAINS; slot++) {
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < n; j++) {
        let acc = 0;
        for (let it = 0; it < iters; it++) for (let kk = 0; kk < k; kk++) acc += l[i][kk] * r[kk][j];
        dst[plan.dstOffset + slot * m * n + i * n + j] = acc;
      }
    }
  }
}

/** The expected dst tensor (without the guard band): iters·(L·R) for every (workgroup, subgroup, chain). */
export function mmaExpected(config: MmaConfig, iters: number, workgroups: number): Float64Array {
  const { m, n, k } = mmaDims(config);
  const v = mmaOperands(config);
  const one = new Float64Array(m * n);
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) for (let kk = 0; kk < k; kk++) one[i * n + j] += v[i * k + kk] * v[m * k + kk * n + j];
  const out = new Float64Array(workgroups * MMA_SUBGROUPS * MMA_CHAINS * m * n);
  for (let s = 0; s < out.length; s += m * n) for (let e = 0; e < m * n; e++) out[s + e] = iters * one[e];
  return out;
}

/** Multiply-adds ×2 per run. */
export function mmaFlops(config: MmaConfig, workgroups: number, iters: number): number {
  const { m, n, k } = mmaDims(config);
  return 2 * m * n * k * workgroups * MMA_SUBGROUPS * MMA_CHAINS * iters;
}
