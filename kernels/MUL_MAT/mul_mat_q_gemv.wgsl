// MUL_MAT with quantized weights, hand-written GEMV (N ≤ 8, the decode path): dst[m, n] =
// Σ_k W[m, k] · src1[k, n], W a packed quantized matrix (src0, u32 words in the lab's layout:
// src/core/quant/weights.ts). {{ROWS}} rows per workgroup, {{TPR}} threads per row, {{NCOLS}}
// src1 columns, one accumulator each, so each weight is decoded once for all columns. The partial
// sums meet in a shared-memory tree.
//   BLOCKS (every format when K % 32 == 0): four threads take a 32-weight chunk; `wq_part(blk, s)`
//   reads the chunk's scale and the words of its 8 weights 8s…8s+7 (whole u32 words) and gives them
//   as 2 vec4, which meet 2 vec4 loads of src1 per column; weight = q·d (+ m). (A thread per whole
//   chunk strides 128 B of src1 per lane: a subgroup's loads touch 32 cache lines each.)
//   otherwise (Track-1 rows with a ragged end): `wq_rc(m, k)` decodes one weight at a time, a thread
//   walking runs of {{BLOCK}} weights so the block's scale stays in cache.
// DECODE is generated from the codec tables for the format (src/core/quant/).

{{PARAMS}}

@group(0) @binding(0) var<storage, read> src0: array<u32>;
#if BLOCKS
#if SRC1_F16
@group(0) @binding(1) var<storage, read> src1: array<vec2<u32>>;
fn ld1v(i: u32) -> vec4<f32> {
  let w = src1[i >> 2u];
  return vec4<f32>(unpack2x16float(w.x), unpack2x16float(w.y));
}
#else
@group(0) @binding(1) var<storage, read> src1: array<vec4<f32>>;
fn ld1v(i: u32) -> vec4<f32> { return src1[i >> 2u]; }
#endif
#else
{{LD1}}
#endif
@group(0) @binding(2) var<storage, read_write> dst: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;

{{DECODE}}

const ROWS: u32 = {{ROWS}}u;
const TPR: u32 = {{TPR}}u;
const BLOCK: u32 = {{BLOCK}}u;
const NCOLS: u32 = {{NCOLS}}u;

var<workgroup> part: array<f32, {{PART}}>;

@compute @workgroup_size({{WG}})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let r = lid / TPR;
  let j = lid % TPR;
  let m = wid.x * ROWS + r;
  var acc: array<f32, {{NCOLS}}>;
  if (m < p.M) {
#if BLOCKS
    // Four threads per chunk: part qp is weights 8·qp…8·qp+7 (2 vec4), so the four read the chunk's
    // words and its 32 activations side by side.
    let nb = p.K / 32u;
    let qp = j % 4u;
    for (var b = j / 4u; b < nb; b = b + TPR / 4u) {
      let blk = wq_part(m * nb + b, qp);
      for (var n = 0u; n < NCOLS; n = n + 1u) {
        let x = p.off1 + n * p.s11 + b * 32u + qp * 8u;
        let x0 = ld1v(x);
        let x1 = ld1v(x + 4u);
        var s = dot(blk.q[0] * x0 + blk.q[1] * x1, vec4<f32>(1.0)) * blk.d;
#if HAS_MIN
        s = s + blk.m * dot(x0 + x1, vec4<f32>(1.0));
#endif
        acc[n] = acc[n] + s;
      }
    }
#else
    for (var k0 = j * BLOCK; k0 < p.K; k0 = k0 + TPR * BLOCK) {
      let kEnd = min(k0 + BLOCK, p.K);
      for (var k = k0; k < kEnd; k = k + 1u) {
        let w = wq_rc(m, k);
        for (var n = 0u; n < NCOLS; n = n + 1u) {
          acc[n] = acc[n] + w * ld1(p.off1 + n * p.s11 + k);
        }
      }
    }
#endif
  }
  for (var n = 0u; n < NCOLS; n = n + 1u) {
    part[lid * NCOLS + n] = acc[n];
  }
  workgroupBarrier();
  for (var o = TPR / 2u; o > 0u; o = o / 2u) {
    if (j < o) {
      for (var n = 0u; n < NCOLS; n = n + 1u) {
        part[lid * NCOLS + n] = part[lid * NCOLS + n] + part[(lid + o) * NCOLS + n];
      }
    }
    workgroupBarrier();
  }
  if (j == 0u && m < p.M) {
    for (var n = 0u; n < NCOLS; n = n + 1u) {
      dst[p.offd + n * p.sd1 + m] = part[lid * NCOLS + n];
    }
  }
}
