// Unary ops, hand-written template (one kernel for every op of the unary kit, as ggml-webgpu's
// unary.wgsl): dst = op(x) per element, one element per thread. The op supplies only OP, a WGSL
// expression over x (T = f32) and its params and CONSTS by name; PARAM_LETS binds each f32 param
// from the uniform. PARAMS is the shared uniform layout: src0 and dst as Tensor descriptors (ne,
// element strides, offset, count; with tensor_coords and tensor_at), then the op's f32 params.
// src0 may be any view (rows contiguous, as ggml asserts); dst is packed. INPLACE (the *_inplace
// form): dst is src0's own view, bound once, read-write (WebGPU forbids binding one buffer range
// both read-only and writable).

{{PARAMS}}

alias T = f32;
{{CONSTS}}

// BINDINGS (from the host's roles): src0, dst, p; INPLACE: dst (read-write), p
{{BINDINGS}}

fn op(x: T) -> T {
{{PARAM_LETS}}
  return {{OP}};
}

// the shared one-thread-per-element entry (src/core/kernel.ts elementMain): element(i) for each i < p.dst.n
{{DST_ELEMENT_MAIN}}

fn element(i: u32) {
  let c = tensor_coords(p.dst.ne, i);
  let d = tensor_at(p.dst, c);
#if INPLACE
  let x = dst[d];
#else
  let x = src0[tensor_at(p.src0, c)];
#endif
  dst[d] = op(x);
}
