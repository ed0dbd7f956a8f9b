// OUT_PROD, hand-written: dst[i0, i1, i2, i3] = Σ_k src0[i0, k, i2 / r2, i3 / r3] · src1[i1, k, i2, i3]
// (ggml_out_prod; the sum runs over both sources' dim 1, src0 broadcast over src1's batches), on
// the shared 64×64 tile (TILE: kernels/matmul/tile.wgsl) with its loads along i0 and i1. src0's
// rows are contiguous (ggml asserts nb00 == 4), so its tile loads coalesce along i0; src1 may
// have any strides (the backward pass hands it transposed and permuted views).

{{PARAMS}}

@group(0) @binding(0) var<storage, read> src0: array<f32>;
@group(0) @binding(1) var<storage, read> src1: array<f32>;
@group(0) @binding(2) var<storage, read_write> dst: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;

// K: both sources' dim 1.
fn k_len() -> u32 {
  return p.src0.ne.y;
}

// A[m, k] = src0[m, k], contiguous along m.
fn load_a(base0: u32, m: u32, k: u32) -> f32 {
  return src0[base0 + k * p.src0.st.y + m];
}

// B[n, k] = src1[n, k] through both strides.
fn load_b(base1: u32, n: u32, k: u32) -> f32 {
  return src1[base1 + n * p.src1.st.x + k * p.src1.st.y];
}

{{TILE}}
