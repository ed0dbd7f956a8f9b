// The FMA-throughput calibration kernels, generated: a loop of independent vec4 FMA chains,
// unrolled inside the loop body so the loop's own instructions (counter, compare, branch and the
// compiler's loop guards) cost a small share of the issue slots. The lab measured 67% of the
// H200's f32 peak with one FMA per chain per iteration; the variants here differ in chains and
// unroll, and the calibration keeps the fastest (each checked for its exact result first).

export type FmaType = 'f32' | 'f16';

export interface FmaVariant {
  readonly type: FmaType;
  /** Independent accumulators per thread: enough to cover the FMA latency. */
  readonly chains: number;
  /** FMAs per chain per loop iteration. */
  readonly unroll: number;
}

export const FMA_WORKGROUP_SIZE = 256;

/** The variants the calibration tries, per type: a few chain/unroll shapes, the best one wins. */
export const FMA_VARIANTS: readonly FmaVariant[] = Object.freeze(
  (['f32', 'f16'] as const).flatMap((type) => [
    { type, chains: 4, unroll: 8 },
    { type, chains: 8, unroll: 4 },
    { type, chains: 8, unroll: 8 },
  ]),
);

export function fmaVariantName(v: FmaVariant): string {
  return `fma-${v.type}-c${v.chains}u${v.unroll}`;
}

/** Floating-point operations of one dispatch: threads × iterations × unroll × chains × vec4 × 2. */
export function fmaFlops(v: FmaVariant, threads: number, iters: number): number {
  return threads * iters * v.unroll * v.chains * 4 * 2;
}

/**
 * What thread t writes: each component starts at (lid % 16) and gains b = 1 per FMA (a = 1), so
 * the result counts every FMA that ran. In f16 the count stays exact while it is ≤ 2048.
 */
export function fmaExpected(v: FmaVariant, threadIndex: number, iters: number): number {
  const start = (threadIndex % FMA_WORKGROUP_SIZE) % 16;
  return v.chains * 4 * (start + iters * v.unroll);
}

/** The largest per-chain FMA count whose running value an f16 holds exactly. */
export const F16_EXACT_COUNT = 2048 - 16;

/**
 * What the FMA and dot4 loop kernels share: their params (dst offset in elements — the guard
 * band —, iterations, threads), bindings, and thread index t over a 2D grid of workgroups.
 */
function loopKernelHead(abElem: string, dstElem: string): string {
  return `struct Params {
  offset: u32,   // dst offset in ${dstElem}s (the guard band)
  iters: u32,
  threads: u32,
  pad: u32,
};

@group(0) @binding(0) var<storage, read> ab: array<${abElem}>;
@group(0) @binding(1) var<storage, read_write> dst: array<${dstElem}>;
@group(0) @binding(2) var<uniform> p: Params;

@compute @workgroup_size(${FMA_WORKGROUP_SIZE})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let t = (wid.y * nwg.x + wid.x) * ${FMA_WORKGROUP_SIZE}u + lid;`;
}

export function fmaWgsl(v: FmaVariant): string {
  if (!Number.isInteger(v.chains) || v.chains < 1 || v.chains > 16) throw new Error(`chains must be 1–16, got ${v.chains}`);
  if (!Number.isInteger(v.unroll) || v.unroll < 1 || v.unroll > 16) throw new Error(`unroll must be 1–16, got ${v.unroll}`);
  const T = v.type;
  const chains = Array.from({ length: v.chains }, (_, i) => `c${i}`);
  const step = chains.map((c) => `${c} = fma(${c}, a, b);`).join(' ');
  const body = Array.from({ length: v.unroll }, () => `    ${step}`).join('\n');
  // Pairwise sums keep the f16 partials small (exact) before widening to f32.
  let terms = chains.map((c) => (T === 'f16' ? `vec4<f32>(${c})` : c));
  while (terms.length > 1) {
    const next: string[] = [];
    for (let i = 0; i < terms.length; i += 2) next.push(i + 1 < terms.length ? `(${terms[i]} + ${terms[i + 1]})` : terms[i]);
    terms = next;
  }
  return `// generated calibration kernel: ${fmaVariantName(v)} — ${v.chains} independent vec4<${T}> FMA chains, ${v.unroll} FMAs per chain per iteration
${T === 'f16' ? 'enable f16;\n' : ''}
${loopKernelHead('f32', 'f32')}
  // a and b come from a buffer (a = b = 1) so the compiler cannot fold the chains away.
  let a = vec4<${T}>(${T}(ab[64]));
  let b = vec4<${T}>(${T}(ab[65]));
  let s = vec4<${T}>(${T}(lid % 16u));
${chains.map((c) => `  var ${c} = s;`).join('\n')}
  for (var i = 0u; i < p.iters; i++) {
${body}
  }
  let sum = ${terms[0]};
  if (t < p.threads) {
    dst[p.offset + t] = sum.x + sum.y + sum.z + sum.w;
  }
}
`;
}

/** Integer ops of one dot4I8Packed dispatch: each dot is 4 multiplies and 4 adds. */
export function dot4Ops(threads: number, iters: number, chains: number, unroll: number): number {
  return threads * iters * unroll * chains * 8;
}

export const DOT4_CHAINS = 8;
export const DOT4_UNROLL = 8;

/**
 * Packed int8 dot-product throughput (WGSL's packed_4x8_integer_dot_product): chains of
 * c += dot4I8Packed(x, y) with x = y = 0x01010101 from a buffer, so each dot adds 4.
 */
export function dot4Wgsl(): string {
  const chains = Array.from({ length: DOT4_CHAINS }, (_, i) => `c${i}`);
  const step = chains.map((c) => `${c} += dot4I8Packed(x, y);`).join(' ');
  return `// generated calibration kernel: packed int8 dot product — ${DOT4_CHAINS} chains, ${DOT4_UNROLL} dots per chain per iteration
${loopKernelHead('u32', 'i32')}
  let x = ab[64];
  let y = ab[65];
  let s = i32(lid % 16u);
${chains.map((c) => `  var ${c} = s;`).join('\n')}
  for (var i = 0u; i < p.iters; i++) {
${Array.from({ length: DOT4_UNROLL }, () => `    ${step}`).join('\n')}
  }
  if (t < p.threads) {
    dst[p.offset + t] = ${chains.join(' + ')};
  }
}
`;
}

/** What thread t of the dot4 kernel writes. */
export function dot4Expected(threadIndex: number, iters: number): number {
  const start = (threadIndex % FMA_WORKGROUP_SIZE) % 16;
  return DOT4_CHAINS * (start + 4 * iters * DOT4_UNROLL);
}
