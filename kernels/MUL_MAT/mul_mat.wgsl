// MUL_MAT, hand-written: dst[m, n, i2, i3] = Σ_k src0[k, m, i2 / r2, i3 / r3] · src1[k, n, i2, i3]
// (ggml_mul_mat; src0 broadcast over src1's batches, r2 = ne12/ne02, r3 = ne13/ne03).
// A plain shared-memory kernel: a 64×64 dst tile per workgroup, K staged 16 at a time in
// k-major tiles, 256 threads each accumulating 4×4 outputs. Rows of src0 and src1 are
// contiguous (ggml requires it); row and batch strides and offsets come from Params, so any
// view works. Batches go over workgroup z. Templated: the PARAMS placeholder is the uniform struct of mul-mat.ts.

{{PARAMS}}

// f16 sources (type0/type1 = 1) are read as u32 words, two halves each, widened exactly.
// Quantized weights (SRC0_Q: type0 a weight format, mul-mat-quant.ts): packed u32 words, each
// weight decoded while its tile is staged by DECODE's `fn wq(i) -> f32` (i = m·K + k, so s01 = K).
#if SRC0_Q
@group(0) @binding(0) var<storage, read> src0: array<u32>;
{{DECODE}}
fn ld0(i: u32) -> f32 { return wq(i); }
#else
#if SRC0_F16
@group(0) @binding(0) var<storage, read> src0: array<u32>;
fn ld0(i: u32) -> f32 { return unpack2x16float(src0[i >> 1u])[i & 1u]; }
#else
@group(0) @binding(0) var<storage, read> src0: array<f32>;
fn ld0(i: u32) -> f32 { return src0[i]; }
#endif
#endif
#if SRC1_F16
@group(0) @binding(1) var<storage, read> src1: array<u32>;
fn ld1(i: u32) -> f32 { return unpack2x16float(src1[i >> 1u])[i & 1u]; }
#else
@group(0) @binding(1) var<storage, read> src1: array<f32>;
fn ld1(i: u32) -> f32 { return src1[i]; }
#endif
@group(0) @binding(2) var<storage, read_write> dst: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;

const TILE: u32 = 64u;
const TK: u32 = 16u;

// [k][m] and [k][n]: the inner loop reads one row of each, neighbouring threads neighbouring words.
var<workgroup> As: array<f32, 1024>;
var<workgroup> Bs: array<f32, 1024>;

@compute @workgroup_size(16, 16, 1)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid3: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let i2 = wid.z % p.ne12;
  let i3 = wid.z / p.ne12;
  let base0 = p.off0 + (i2 / p.r2) * p.s02 + (i3 / p.r3) * p.s03;
  let base1 = p.off1 + i2 * p.s12 + i3 * p.s13;
  let based = p.offd + i2 * p.sd2 + i3 * p.sd3;
  let m0 = wid.x * TILE;
  let n0 = wid.y * TILE;
  let tx = lid3.x;
  let ty = lid3.y;

  // accJ[i]: output (m0 + tx + 16 i, n0 + ty + 16 j), four registers along m per n.
  var acc0 = vec4<f32>();
  var acc1 = vec4<f32>();
  var acc2 = vec4<f32>();
  var acc3 = vec4<f32>();
  let nTiles = (p.K + TK - 1u) / TK;
  for (var t = 0u; t < nTiles; t = t + 1u) {
    // 64 rows × 16 k of each operand: four elements per thread, 16 threads along a row's k.
    for (var e = 0u; e < 4u; e = e + 1u) {
      let idx = lid + e * 256u;
      let k = idx % TK;
      let r = idx / TK;
      let kg = t * TK + k;
      var a = 0.0;
      var b = 0.0;
      if (kg < p.K && m0 + r < p.M) {
        a = ld0(base0 + (m0 + r) * p.s01 + kg);
      }
      if (kg < p.K && n0 + r < p.N) {
        b = ld1(base1 + (n0 + r) * p.s11 + kg);
      }
      As[k * TILE + r] = a;
      Bs[k * TILE + r] = b;
    }
    workgroupBarrier();
    for (var k = 0u; k < TK; k = k + 1u) {
      let ra = k * TILE + tx;
      let rb = k * TILE + ty;
      let a = vec4<f32>(As[ra], As[ra + 16u], As[ra + 32u], As[ra + 48u]);
      let b = vec4<f32>(Bs[rb], Bs[rb + 16u], Bs[rb + 32u], Bs[rb + 48u]);
      acc0 = acc0 + a * b.x;
      acc1 = acc1 + a * b.y;
      acc2 = acc2 + a * b.z;
      acc3 = acc3 + a * b.w;
    }
    workgroupBarrier();
  }

  store_row(based, n0 + ty, m0 + tx, acc0);
  store_row(based, n0 + ty + 16u, m0 + tx, acc1);
  store_row(based, n0 + ty + 32u, m0 + tx, acc2);
  store_row(based, n0 + ty + 48u, m0 + tx, acc3);
}

// dst[n][m + 16 i] = acc[i] for the elements inside M × N.
fn store_row(based: u32, n: u32, m: u32, acc: vec4<f32>) {
  if (n >= p.N) {
    return;
  }
  for (var i = 0u; i < 4u; i = i + 1u) {
    if (m + 16u * i < p.M) {
      dst[based + n * p.sd1 + m + 16u * i] = acc[i];
    }
  }
}
