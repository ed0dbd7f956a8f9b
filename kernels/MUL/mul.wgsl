// MUL, hand-written: dst = src0 * src1, src1 broadcast over src0 as ggml_can_repeat allows.
// Any strides (views, permutes) through element strides in the params; one element per thread.
// INPLACE (ggml_mul_inplace): dst is src0's own buffer, so it is bound once, read-write
// (WebGPU forbids binding one buffer range as both read-only and writable in a dispatch).
// Templated (src/core/codegen/template.ts): the PARAMS placeholder is the uniform struct of broadcast.ts's BINARY_UNIFORM (ADD's).

{{PARAMS}}

#if INPLACE
@group(0) @binding(0) var<storage, read_write> dst: array<f32>;
@group(0) @binding(1) var<storage, read> src1: array<f32>;
@group(0) @binding(2) var<uniform> p: Params;
#else
@group(0) @binding(0) var<storage, read> src0: array<f32>;
@group(0) @binding(1) var<storage, read> src1: array<f32>;
@group(0) @binding(2) var<storage, read_write> dst: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;
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
  let b = src1[p.off1 + (i0 % p.ne10) * p.s10 + (i1 % p.ne11) * p.s11 + (i2 % p.ne12) * p.s12 + (i3 % p.ne13) * p.s13];
  let d = p.offd + i0 * p.s0 + i1 * p.s1 + i2 * p.s2 + i3 * p.s3;
#if INPLACE
  let a = dst[d];
#else
  let a = src0[p.off0 + i0 * p.s00 + i1 * p.s01 + i2 * p.s02 + i3 * p.s03];
#endif
  dst[d] = a * b;
}
