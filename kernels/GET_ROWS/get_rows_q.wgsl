// GET_ROWS from a quantized table (the embedding lookup of a quantized model): dst[i0, i10] =
// W[rows[i10], i0], W a packed [K, tableRows] matrix of a weight format (src0, u32 words in the
// lab's layout: src/core/quant/weights.ts), rows packed i32. One dst element per thread;
// DECODE is `fn wq(i) -> f32` (i = row·K + i0), generated from the codec tables. PARAMS: src1
// and dst as the shared Tensor descriptors.

{{PARAMS}}

// BINDINGS (from the host's roles): src0 (u32 words), src1 (i32 indices), dst, p
{{BINDINGS}}

{{DECODE}}

// the shared one-thread-per-element entry (src/core/kernel.ts elementMain): element(i) for each i < p.dst.n
{{DST_ELEMENT_MAIN}}

fn element(k: u32) {
  let K = p.dst.ne.x; // dst is packed [K, nIdx]: two coordinates, no 4-D walk
  let row = u32(src1[p.src1.off + k / K]);
  dst[p.dst.off + k] = wq(row * K + k % K);
}
