// The subgroup-matrix ceiling: a loop of subgroupMatrixMultiplyAccumulate on operands loaded once
// into registers (no memory traffic in the loop), f16 in, f32 accumulate, MMA_CHAINS independent
// accumulators per subgroup so no multiply waits on the one before. The operands are all ones,
// so every element of every accumulator ends at iters·K exactly (f32 holds it while ≤ 2^24).
export const MMA_CONFIGS = ['16x16x16', '16x8x16', '16x8x8'] as const;
export type MmaConfig = (typeof MMA_CONFIGS)[number];
export const MMA_CHAINS = 4;
/** Subgroups per workgroup; the workgroup is sized for subgroups of 32 (NVIDIA). */
export const MMA_SUBGROUPS = 4;
export const MMA_SUBGROUP_SIZE = 32;

export function mmaDims(config: MmaConfig): { m: number; n: number; k: number } {
  const [m, n, k] = config.split('x').map(Number);
  return { m, n, k };
}

/** dst: per (workgroup, subgroup, chain) one m×n result, row-major. */
export function mmaWgsl(config: MmaConfig, iters: number): string {
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
    `  let l = subgroupMatrixLoad<subgroup_matrix_left<f16, ${k}, ${m}>>(&src0, 0u, false, ${k}u);`,
    `  let r = subgroupMatrixLoad<subgroup_matrix_right<f16, ${n}, ${k}>>(&src0, 0u, false, ${n}u);`,
    ...chains.map((c) => `  var a${c} = ${res}();`),
    `  for (var i = 0u; i < ${iters}u; i = i + 1u) {`,
    ...chains.map((c) => `    a${c} = subgroupMatrixMultiplyAccumulate(l, r, a${c});`),
    '  }',
    `  let base = ((wid.y * nwg.x + wid.x) * ${MMA_SUBGROUPS}u + sg) * ${MMA_CHAINS * m * n}u;`,
    ...chains.map((c) => `  subgroupMatrixStore(&dst, base + ${c * m * n}u, a${c}, false, ${n}u);`),
    '}',
    '',
  ].join('\n');
}

/** Multiply-adds ×2 per run. */
export function mmaFlops(config: MmaConfig, workgroups: number, iters: number): number {
  const { m, n, k } = mmaDims(config);
  return 2 * m * n * k * workgroups * MMA_SUBGROUPS * MMA_CHAINS * iters;
}

/** Every dst element: iters·K. */
export function mmaExpected(config: MmaConfig, iters: number): number {
  return iters * mmaDims(config).k;
}
