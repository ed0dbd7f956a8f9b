// GLU, hand-written: dst = act(x) · g, one element per thread; dst packed.
// Split form (ggml_glu_split: ggml_swiglu_split…): x = src0, g = src1, same shape, each
// ggml_is_contiguous_1. FUSED (ggml_glu: ggml_swiglu…): one source whose rows hold both halves,
// x and g read from src0 at offx and offg (the host adds the half's nc elements to one of them:
// to g's, or to x's when swapped); dst ne0 = src0.ne0 / 2. PARAMS: glu.ts's uniform schema.
// p.op is ggml's enum ggml_glu_op: 0 REGLU, 1 GEGLU (GELU's tanh form, as gelu.wgsl),
// 2 SWIGLU, 5 GEGLU_QUICK. One element per thread.

{{PARAMS}}

#if FUSED
@group(0) @binding(0) var<storage, read> src0: array<f32>;
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;
@group(0) @binding(2) var<uniform> p: Params;
#else
@group(0) @binding(0) var<storage, read> src0: array<f32>;
@group(0) @binding(1) var<storage, read> src1: array<f32>;
@group(0) @binding(2) var<storage, read_write> dst: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;
#endif

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

@compute @workgroup_size({{WG}})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let i = (wid.y * nwg.x + wid.x) * {{WG}}u + lid;
  if (i >= p.n) {
    return;
  }
  let i0 = i % p.ne0;
  let i1 = (i / p.ne0) % p.ne1;
  let i2 = (i / (p.ne0 * p.ne1)) % p.ne2;
  let i3 = i / (p.ne0 * p.ne1 * p.ne2);
  let x = src0[p.offx + i0 * p.s00 + i1 * p.s01 + i2 * p.s02 + i3 * p.s03];
#if FUSED
  let g = src0[p.offg + i0 * p.s10 + i1 * p.s11 + i2 * p.s12 + i3 * p.s13];
#else
  let g = src1[p.offg + i0 * p.s10 + i1 * p.s11 + i2 * p.s12 + i3 * p.s13];
#endif
  dst[p.offd + i0 * p.s0 + i1 * p.s1 + i2 * p.s2 + i3 * p.s3] = glu(p.op, x, g);
}
