// MUL_MAT with quantized weights, hand-written GEMV (N ≤ 8, the decode path): dst[m, n] =
// Σ_k W[m, k] · src1[k, n], W a packed quantized matrix (src0, u32 words in the lab's layout:
// src/core/quant/weights.ts). {{ROWS}} rows per workgroup, {{TPR}} threads per row; a thread
// takes whole blocks of {{BLOCK}} weights (the block's scale stays in cache across its weights) and
// keeps one accumulator per src1 column, so each weight is decoded once for all N columns. The
// partial sums meet in a shared-memory tree. DECODE gives `fn wq_rc(m, k) -> f32`, generated
// from the codec tables for the format.

{{PARAMS}}

@group(0) @binding(0) var<storage, read> src0: array<u32>;
#if SRC1_F16
@group(0) @binding(1) var<storage, read> src1: array<u32>;
fn ld1(i: u32) -> f32 { return unpack2x16float(src1[i >> 1u])[i & 1u]; }
#else
@group(0) @binding(1) var<storage, read> src1: array<f32>;
fn ld1(i: u32) -> f32 { return src1[i]; }
#endif
@group(0) @binding(2) var<storage, read_write> dst: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;

{{DECODE}}

const ROWS: u32 = {{ROWS}}u;
const TPR: u32 = {{TPR}}u;
const BLOCK: u32 = {{BLOCK}}u;
const NMAX: u32 = 8u;

var<workgroup> part: array<f32, {{PART}}>;

@compute @workgroup_size({{WG}})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let r = lid / TPR;
  let j = lid % TPR;
  let m = wid.x * ROWS + r;
  var acc: array<f32, 8>;
  if (m < p.M) {
    for (var k0 = j * BLOCK; k0 < p.K; k0 = k0 + TPR * BLOCK) {
      let kEnd = min(k0 + BLOCK, p.K);
      for (var k = k0; k < kEnd; k = k + 1u) {
        let w = wq_rc(m, k);
        for (var n = 0u; n < p.N; n = n + 1u) {
          acc[n] = acc[n] + w * ld1(p.off1 + n * p.s11 + k);
        }
      }
    }
  }
  for (var n = 0u; n < NMAX; n = n + 1u) {
    part[lid * NMAX + n] = acc[n];
  }
  workgroupBarrier();
  for (var o = TPR / 2u; o > 0u; o = o / 2u) {
    if (j < o) {
      for (var n = 0u; n < NMAX; n = n + 1u) {
        part[lid * NMAX + n] = part[lid * NMAX + n] + part[(lid + o) * NMAX + n];
      }
    }
    workgroupBarrier();
  }
  if (j == 0u && m < p.M) {
    for (var n = 0u; n < p.N; n = n + 1u) {
      dst[p.offd + n * p.sd1 + m] = part[lid * NMAX + n];
    }
  }
}
