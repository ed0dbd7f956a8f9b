// MUL_MAT, hand-written: dst[m, n, i2, i3] = Σ_k src0[k, m, i2 / r2, i3 / r3] · src1[k, n, i2, i3]
// (ggml_mul_mat; src0 broadcast over src1's batches, r2 = ne12/ne02, r3 = ne13/ne03), on the
// shared 64×64 tile (TILE: kernels/matmul/tile.wgsl). Rows of src0 and src1 are contiguous along
// K (ggml requires it); their row and batch strides and offsets come from the Tensor descriptors
// in PARAMS, so any view works (permuted heads, strided rows, broadcast batches).

{{PARAMS}}

// LD0/LD1: each operand's binding and `fn ldN(i) -> f32` (f16 as u32 words of two halves, widened
// exactly; kernel.ts scalarLoader, shared with the quantized GEMV).
// Quantized weights (SRC0_Q: type0 a weight format, mul-mat-quant.ts): packed u32 words, each
// weight decoded while its tile is staged by DECODE's `fn wq(i) -> f32` (i = m·K + k, one batch).
#if SRC0_Q
@group(0) @binding(0) var<storage, read> src0: array<u32>;
{{DECODE}}
#else
{{LD0}}
#endif
{{LD1}}
@group(0) @binding(2) var<storage, read_write> dst: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;

// K: src1's row length (src0's too, but a quantized src0 is described as its packed words).
fn k_len() -> u32 {
  return p.src1.ne.x;
}

// A[m, k] = src0[k, m]: row m of src0, contiguous along k.
fn load_a(base0: u32, m: u32, k: u32) -> f32 {
#if SRC0_Q
  return wq(m * p.src1.ne.x + k);
#else
  return ld0(base0 + m * p.src0.st.y + k);
#endif
}

// B[n, k] = src1[k, n]: row n of src1, contiguous along k.
fn load_b(base1: u32, n: u32, k: u32) -> f32 {
  return ld1(base1 + n * p.src1.st.y + k);
}

{{TILE}}
