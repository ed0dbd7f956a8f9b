// GLU, hand-written: dst = act(x) · g, one element per thread; dst packed.
// Split form (ggml_glu_split: ggml_swiglu_split…): x = src0, g = src1, same shape, each
// ggml_is_contiguous_1. FUSED (ggml_glu: ggml_swiglu…): one source whose rows hold both halves,
// x and g are the two halves of src0's rows (the host makes them views of src0: g's, or x's when
// swapped, starts nc elements in); dst ne0 = src0.ne0 / 2. PARAMS is the shared uniform layout:
// x, g and dst as Tensor descriptors (tensor_coords, tensor_at), then op.
// p.op is ggml's enum ggml_glu_op: 0 REGLU, 1 GEGLU (GELU's tanh form, as gelu.wgsl),
// 2 SWIGLU, 5 GEGLU_QUICK. One element per thread.

{{PARAMS}}

// BINDINGS (from the host's roles): src0, src1, dst, p; FUSED: src0, dst, p
{{BINDINGS}}

fn glu(op: u32, x: f32, g: f32) -> f32 {
  switch op {
    case 0u: {
      return select(0.0, x * g, x > 0.0);
    }
    case 1u: {
      let u = 0.7978845608 * x * (1.0 + 0.044715 * x * x);
      return x / (1.0 + exp(-2.0 * u)) * g; // GELU's tanh form as gelu.wgsl writes it
    }
    case 5u: {
      return x * (1.0 / (1.0 + exp(-1.702 * x))) * g;
    }
    default: {
      return x / (1.0 + exp(-x)) * g;
    }
  }
}

// the shared one-thread-per-element entry (src/core/kernel.ts elementMain): element(i) for each i < p.dst.n
{{DST_ELEMENT_MAIN}}

fn element(i: u32) {
  let c = tensor_coords(p.dst.ne, i);
  let x = src0[tensor_at(p.x, c)];
#if FUSED
  let g = src0[tensor_at(p.g, c)];
#else
  let g = src1[tensor_at(p.g, c)];
#endif
  dst[tensor_at(p.dst, c)] = glu(p.op, x, g);
}
