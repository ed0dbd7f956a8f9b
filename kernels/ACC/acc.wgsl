// ACC, hand-written (ggml_acc): dst = src0, with src1 added into the view of it that nb1, nb2,
// nb3 and offset (op_params) describe. src0 and dst are packed and of one shape; one thread per
// dst element decides whether its element lies in the view by dividing its distance from the
// view's start by the view strides, largest first (the host sorts the view's dims, and src1's
// with them, pads dims of one element with a stride past dst's end, and has refused views that
// overlap themselves, so the quotients are the view indices when they are in range).
// INPLACE (ggml_acc_inplace): dst is src0 itself, so only the view changes: one thread per src1
// element adds it to its place (no two threads share one: the view does not overlap itself);
// dst is bound once, read-write. PARAMS is the shared uniform layout: the tensors and the view
// (ne, element strides, offset in dst's buffer) as Tensor descriptors (tensor_coords, tensor_at).

{{PARAMS}}

// BINDINGS (from the host's roles): src0, src1, dst, p; INPLACE: dst (read-write), src1, p
{{BINDINGS}}

// the shared one-thread-per-element entry (src/core/kernel.ts elementMain): element(i) per thread
{{ELEMENT_MAIN}}

fn element(i: u32) {
#if INPLACE
  if (i >= p.src1.n) {
    return;
  }
  let j = tensor_coords(p.src1.ne, i);
  let d = tensor_at(p.view, j);
  dst[d] = dst[d] + src1[tensor_at(p.src1, j)];
#else
  if (i >= p.dst.n) {
    return;
  }
  var v = src0[p.src0.off + i];
  let pos = p.dst.off + i; // dst is packed: its element's place in the buffer the view indexes
  if (pos >= p.view.off) {
    let st = p.view.st;
    let r0 = pos - p.view.off;
    let q0 = r0 / st.x;
    let r1 = r0 - q0 * st.x;
    let q1 = r1 / st.y;
    let r2 = r1 - q1 * st.y;
    let q2 = r2 / st.z;
    let r3 = r2 - q2 * st.z;
    let q3 = r3 / st.w;
    let q = vec4<u32>(q0, q1, q2, q3);
    if (all(q < p.view.ne) && r3 - q3 * st.w == 0u) {
      v += src1[tensor_at(p.src1, q)];
    }
  }
  dst[pos] = v;
#endif
}
