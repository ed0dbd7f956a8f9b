// SCALE, hand-written: dst = x * s + b (ggml_scale: b = 0; ggml_scale_bias), s and b the f32
// op_params in the uniform. src0 and dst are packed (ggml asserts ggml_is_contiguous). One element
// per thread. INPLACE (ggml_scale_inplace, ggml_scale_bias_inplace): dst is src0's own view,
// bound once, read-write (WebGPU forbids binding one buffer range both read-only and writable).
// PARAMS: the uniform struct of elementwise-case.ts's unary schema, then s and b.

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
  dst[d] = x * p.s + p.b;
}
