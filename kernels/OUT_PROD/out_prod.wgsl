// OUT_PROD, hand-written: dst[i0, i1, i2, i3] = Σ_k src0[i0, k, i2 / r2, i3 / r3] · src1[i1, k, i2, i3]
// (ggml_out_prod; the sum runs over both sources' dim 1, src0 broadcast over src1's batches).
// src0's rows are contiguous (ggml asserts nb00 == 4), so its tile loads are coalesced along i0;
// src1 may have any strides (the backward pass hands it ggml_transpose(grad)). A 64×64 dst tile
// per workgroup, K staged 16 at a time, 256 threads each accumulating 4×4 outputs; batches over z.

{{PARAMS}}

@group(0) @binding(0) var<storage, read> src0: array<f32>;
@group(0) @binding(1) var<storage, read> src1: array<f32>;
@group(0) @binding(2) var<storage, read_write> dst: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;

const TILE: u32 = 64u;
const TK: u32 = 16u;

// [k][i0] and [k][i1]: the inner loop reads one row of each.
var<workgroup> As: array<f32, 1024>;
var<workgroup> Bs: array<f32, 1024>;

@compute @workgroup_size(16, 16, 1)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid3: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let i2 = wid.z % p.ne2;
  let i3 = wid.z / p.ne2;
  let base0 = p.off0 + (i2 / p.r2) * p.s02 + (i3 / p.r3) * p.s03;
  let base1 = p.off1 + i2 * p.s12 + i3 * p.s13;
  let based = p.offd + i2 * p.sd2 + i3 * p.sd3;
  let m0 = wid.x * TILE;
  let n0 = wid.y * TILE;
  let tx = lid3.x;
  let ty = lid3.y;

  // accJ[i]: output (m0 + tx + 16 i, n0 + ty + 16 J).
  var acc0 = vec4<f32>();
  var acc1 = vec4<f32>();
  var acc2 = vec4<f32>();
  var acc3 = vec4<f32>();
  let nTiles = (p.K + TK - 1u) / TK;
  for (var t = 0u; t < nTiles; t = t + 1u) {
    // 16 k × 64 of each operand, four elements per thread; consecutive threads take consecutive
    // i0 (src0 contiguous there) and consecutive i1.
    for (var e = 0u; e < 4u; e = e + 1u) {
      let idx = lid + e * 256u;
      let c = idx % TILE;
      let k = idx / TILE;
      let kg = t * TK + k;
      var a = 0.0;
      var b = 0.0;
      if (kg < p.K && m0 + c < p.M) {
        a = src0[base0 + kg * p.s01 + m0 + c];
      }
      if (kg < p.K && n0 + c < p.N) {
        b = src1[base1 + (n0 + c) * p.s10 + kg * p.s11];
      }
      As[k * TILE + c] = a;
      Bs[k * TILE + c] = b;
    }
    workgroupBarrier();
    for (var k = 0u; k < TK; k = k + 1u) {
      let a = vec4<f32>(As[k * TILE + tx], As[k * TILE + tx + 16u], As[k * TILE + tx + 32u], As[k * TILE + tx + 48u]);
      acc0 = acc0 + a * Bs[k * TILE + ty];
      acc1 = acc1 + a * Bs[k * TILE + ty + 16u];
      acc2 = acc2 + a * Bs[k * TILE + ty + 32u];
      acc3 = acc3 + a * Bs[k * TILE + ty + 48u];
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
