// Binary ops, hand-written template (one kernel for every op of the binary kit, as ggml-webgpu's
// binary.wgsl): dst = op(a, b) per element, b = src1 repeated over src0 as ggml_can_repeat allows
// (a dim of src1 of size 1 is reused, any other is indexed modulo its size), one element per
// thread. The op supplies only OP, a WGSL expression over its two operand names A and B (T = f32)
// and CONSTS. PARAMS is the shared uniform layout: src0, src1 and dst as Tensor descriptors (ne,
// element strides, offset, count; with tensor_coords and tensor_at). Any strides (views,
// permutes, transposes). INPLACE (the *_inplace form): dst is src0's own buffer, bound once,
// read-write (WebGPU forbids binding one buffer range both read-only and writable).
// SAME_SHAPE: an op whose contract gives src1 dst's shape (SILU_BACK) skips the four modulos of
// the repeat (its hand-written kernel never had them: 98 µs at 4096² on the H200, 155 with them).

{{PARAMS}}

alias T = f32;
{{CONSTS}}

// BINDINGS (from the host's roles): src0, src1, dst, p; INPLACE: dst (read-write), src1, p
{{BINDINGS}}

fn op({{A}}: T, {{B}}: T) -> T {
  return {{OP}};
}

// the shared one-thread-per-element entry (src/core/kernel.ts elementMain): element(i) for each i < p.dst.n
{{DST_ELEMENT_MAIN}}

fn element(i: u32) {
  let c = tensor_coords(p.dst.ne, i);
  let d = tensor_at(p.dst, c);
#if SAME_SHAPE
  let b = src1[tensor_at(p.src1, c)];
#else
  let b = src1[tensor_at(p.src1, c % p.src1.ne)];
#endif
#if INPLACE
  let a = dst[d];
#else
  let a = src0[tensor_at(p.src0, c)];
#endif
  dst[d] = op(a, b);
}
