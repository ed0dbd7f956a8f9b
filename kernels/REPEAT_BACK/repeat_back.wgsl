// REPEAT_BACK, hand-written (ggml_repeat_back): the gradient of REPEAT. dst[k] sums every
// tile of src0 that REPEAT would have copied dst[k] into:
//   dst[k0, k1, k2, k3] = Σ src0[i0·ne0 + k0, i1·ne1 + k1, i2·ne2 + k2, i3·ne3 + k3]
// over i_d < nr_d = ne0_d / ne_d. One thread per dst element, summing in ggml's loop order
// (i3 outermost, i0 innermost). PARAMS is the shared uniform layout: src0 and dst as Tensor
// descriptors, any strides (src0 rows contiguous, as ggml asserts nb00 == sizeof(float)); WG the
// threads per workgroup.

{{PARAMS}}

// BINDINGS (from the host's roles): src0, dst, p
{{BINDINGS}}

// the shared one-thread-per-element entry (src/core/kernel.ts elementMain): element(i) for each i < p.dst.n
{{DST_ELEMENT_MAIN}}

fn element(e: u32) {
  let k = tensor_coords(p.dst.ne, e);
  let ne = p.dst.ne;
  let st = p.src0.st;
  let nr = p.src0.ne / ne;
  var sum = 0.0;
  for (var i3 = 0u; i3 < nr.w; i3++) {
    let b3 = p.src0.off + (i3 * ne.w + k.w) * st.w + k.x;
    for (var i2 = 0u; i2 < nr.z; i2++) {
      let b2 = b3 + (i2 * ne.z + k.z) * st.z;
      for (var i1 = 0u; i1 < nr.y; i1++) {
        let b1 = b2 + (i1 * ne.y + k.y) * st.y;
        for (var i0 = 0u; i0 < nr.x; i0++) {
          sum += src0[b1 + i0 * ne.x];
        }
      }
    }
  }
  dst[tensor_at(p.dst, k)] = sum;
}
