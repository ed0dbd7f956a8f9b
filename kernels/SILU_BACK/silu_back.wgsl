// SILU_BACK, hand-written: dx = dy · s · (1 + x · (1 − s)), s = 1 / (1 + exp(−x))
// (ggml_silu_backward_f32). src0 = dy (the incoming gradient), src1 = x, same shape; each may be a
// view with contiguous rows (ggml asserts ggml_is_contiguous_1); dst is packed. One element per
// thread. PARAMS: broadcast.ts's BINARY_UNIFORM (src1's ne equals dst's: no broadcast here).

{{PARAMS}}

@group(0) @binding(0) var<storage, read> src0: array<f32>;
@group(0) @binding(1) var<storage, read> src1: array<f32>;
@group(0) @binding(2) var<storage, read_write> dst: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;

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
  let dy = src0[p.off0 + i0 * p.s00 + i1 * p.s01 + i2 * p.s02 + i3 * p.s03];
  let x = src1[p.off1 + i0 * p.s10 + i1 * p.s11 + i2 * p.s12 + i3 * p.s13];
  let s = 1.0 / (1.0 + exp(-x));
  dst[p.offd + i0 * p.s0 + i1 * p.s1 + i2 * p.s2 + i3 * p.s3] = dy * s * (1.0 + x * (1.0 - s));
}
