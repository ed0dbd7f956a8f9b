// GET_ROWS, hand-written (ggml_get_rows): dst[i0, i10, i11, i12] = src0[i0, rows[i10, i11, i12], i11, i12].
// src0 rows are contiguous (ggml asserts nb00 == sizeof(float)); the i32 row indices are read
// through their strides, as ggml does. One dst element per thread; dst is packed.
// PARAMS is the shared uniform layout: src0, src1 and dst as Tensor descriptors (tensor_coords, tensor_at).

{{PARAMS}}

// BINDINGS (from the host's roles): src0 (f32), src1 (i32 indices), dst, p
{{BINDINGS}}

// the shared one-thread-per-element entry (src/core/kernel.ts elementMain): element(i) for each i < p.dst.n
{{DST_ELEMENT_MAIN}}

fn element(k: u32) {
  let c = tensor_coords(p.dst.ne, k);
  let row = u32(src1[tensor_at(p.src1, vec4<u32>(c.y, c.z, c.w, 0u))]);
  dst[tensor_at(p.dst, c)] = src0[tensor_at(p.src0, vec4<u32>(c.x, row, c.z, c.w))];
}
