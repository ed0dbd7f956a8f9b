// GLU fused form, hand-written (ggml_glu: ggml_swiglu, ggml_geglu…): one source whose rows hold
// both halves; dst = act(x) · g with x, g the halves (swapped: g first), read from src0 at offx
// and offg (the host adds the half's nc elements to one of them); dst packed, ne0 = src0.ne0 / 2.
// p.op is ggml's enum ggml_glu_op: 0 REGLU, 1 GEGLU (tanh form, argument clamped as GELU's),
// 2 SWIGLU, 5 GEGLU_QUICK. One element per thread.

struct Params {
  ne0: u32, ne1: u32, ne2: u32, ne3: u32,
  s00: u32, s01: u32, s02: u32, s03: u32, offx: u32,
  s10: u32, s11: u32, s12: u32, s13: u32, offg: u32,
  s0: u32, s1: u32, s2: u32, s3: u32, offd: u32,
  n: u32, op: u32,
};

@group(0) @binding(0) var<storage, read> src0: array<f32>;
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;
@group(0) @binding(2) var<uniform> p: Params;

fn glu(op: u32, x: f32, g: f32) -> f32 {
  switch op {
    case 0u: {
      return select(0.0, x * g, x > 0.0);
    }
    case 1u: {
      let u = clamp(0.7978845608 * x * (1.0 + 0.044715 * x * x), -9.010913, 9.010913);
      return 0.5 * x * (1.0 + tanh(u)) * g;
    }
    case 5u: {
      return x * (1.0 / (1.0 + exp(-1.702 * x))) * g;
    }
    default: {
      return x / (1.0 + exp(-x)) * g;
    }
  }
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let i = (wid.y * nwg.x + wid.x) * 256u + lid;
  if (i >= p.n) {
    return;
  }
  let i0 = i % p.ne0;
  let i1 = (i / p.ne0) % p.ne1;
  let i2 = (i / (p.ne0 * p.ne1)) % p.ne2;
  let i3 = i / (p.ne0 * p.ne1 * p.ne2);
  let x = src0[p.offx + i0 * p.s00 + i1 * p.s01 + i2 * p.s02 + i3 * p.s03];
  let g = src0[p.offg + i0 * p.s10 + i1 * p.s11 + i2 * p.s12 + i3 * p.s13];
  dst[p.offd + i0 * p.s0 + i1 * p.s1 + i2 * p.s2 + i3 * p.s3] = glu(p.op, x, g);
}
