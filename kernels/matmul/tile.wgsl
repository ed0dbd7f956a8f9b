// The 64×64 tile MUL_MAT and OUT_PROD share, hand-written: dst[m, n, i2, i3] = Σ_k A[m, k] · B[n, k]
// per batch, src0 broadcast over src1's batches as ggml does (i02 = i2 / r2, r2 = ne12/ne02). The
// op's WGSL around it gives the bindings, `p` (src0, src1, dst as Tensor descriptors), `k_len()`
// and the operand access `load_a(base0, m, k)`, `load_b(base1, n, k)`: strides only change the
// addressing. A 64×64 dst tile per workgroup, K staged 16 at a time in k-major tiles, 256 threads
// each accumulating 4×4 outputs; batches over workgroup z. ALONG_K: the loading threads run along
// k (MUL_MAT's rows are contiguous along K), else along m and n (OUT_PROD's src0 along m).

const TILE: u32 = 64u;
const TK: u32 = 16u;

// [k][m] and [k][n]: the inner loop reads one row of each, neighbouring threads neighbouring words.
var<workgroup> As: array<f32, 1024>;
var<workgroup> Bs: array<f32, 1024>;

@compute @workgroup_size(16, 16, 1)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid3: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let M = p.dst.ne.x;
  let N = p.dst.ne.y;
  let K = k_len();
  let i2 = wid.z % p.dst.ne.z;
  let i3 = wid.z / p.dst.ne.z;
  let base0 = p.src0.off + (i2 / (p.dst.ne.z / p.src0.ne.z)) * p.src0.st.z + (i3 / (p.dst.ne.w / p.src0.ne.w)) * p.src0.st.w;
  let base1 = p.src1.off + i2 * p.src1.st.z + i3 * p.src1.st.w;
  let based = p.dst.off + i2 * p.dst.st.z + i3 * p.dst.st.w;
  let m0 = wid.x * TILE;
  let n0 = wid.y * TILE;
  let tx = lid3.x;
  let ty = lid3.y;

  // accJ[i]: output (m0 + tx + 16 i, n0 + ty + 16 J), four registers along m per n.
  var acc0 = vec4<f32>();
  var acc1 = vec4<f32>();
  var acc2 = vec4<f32>();
  var acc3 = vec4<f32>();
  let nTiles = (K + TK - 1u) / TK;
  for (var t = 0u; t < nTiles; t = t + 1u) {
    // 64 rows × 16 k of each operand, four elements per thread.
    for (var e = 0u; e < 4u; e = e + 1u) {
      let idx = lid + e * 256u;
#if ALONG_K
      let k = idx % TK;
      let r = idx / TK;
#else
      let r = idx % TILE;
      let k = idx / TILE;
#endif
      let kg = t * TK + k;
      var a = 0.0;
      var b = 0.0;
      if (kg < K && m0 + r < M) {
        a = load_a(base0, m0 + r, kg);
      }
      if (kg < K && n0 + r < N) {
        b = load_b(base1, n0 + r, kg);
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

// dst[n][m + 16 i] = acc[i] for the elements inside M × N (dst rows are contiguous).
fn store_row(based: u32, n: u32, m: u32, acc: vec4<f32>) {
  if (n >= p.dst.ne.y) {
    return;
  }
  for (var i = 0u; i < 4u; i = i + 1u) {
    if (m + 16u * i < p.dst.ne.x) {
      dst[based + n * p.dst.st.y + m + 16u * i] = acc[i];
    }
  }
}
