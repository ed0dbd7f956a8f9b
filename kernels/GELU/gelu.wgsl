// GELU, hand-written: ggml_gelu_f32's tanh form, 0.5·x·(1 + tanh(u)), u = √(2/π)·x·(1 + 0.044715·x²),
// computed as its algebraic equal x / (1 + exp(-2u)): no clamp is needed (tanh built on exp
// gives inf/inf = NaN past |u| ≈ 44), and the negative tail goes to -0 instead of cancelling.
// src0 may be any view with contiguous rows; dst is packed. One element per thread.
// INPLACE (ggml_gelu_inplace): dst is src0's own view, bound once, read-write (WebGPU forbids
// binding one buffer range both read-only and writable). PARAMS: the uniform struct of
// elementwise-case.ts's unary schema.

{{PARAMS}}

#if INPLACE
@group(0) @binding(0) var<storage, read_write> dst: array<f32>;
@group(0) @binding(1) var<uniform> p: Params;
#else
@group(0) @binding(0) var<storage, read> src0: array<f32>;
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;
@group(0) @binding(2) var<uniform> p: Params;
#endif

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
  let d = p.offd + i0 * p.s0 + i1 * p.s1 + i2 * p.s2 + i3 * p.s3;
#if INPLACE
  let x = dst[d];
#else
  let x = src0[p.off0 + i0 * p.s00 + i1 * p.s01 + i2 * p.s02 + i3 * p.s03];
#endif
  let u = 0.7978845608 * x * (1.0 + 0.044715 * x * x);
  dst[d] = x / (1.0 + exp(-2.0 * u));
}
