// ADD as a user would bring it: dst = src0 + src1, src1 broadcast over src0 (ggml_can_repeat),
// any strides, one element per thread over a 2-D grid. The workgroup size is an override.

override WG: u32 = 64u;

struct Params {
  ne0: u32, ne1: u32, ne2: u32, n: u32,
  s01: u32, s02: u32, s03: u32, off0: u32,   // src0 strides and offset, in elements
  ne10: u32, ne11: u32, ne12: u32, ne13: u32,
  s10: u32, s11: u32, s12: u32, s13: u32,    // src1 strides, in elements
  off1: u32, offd: u32,
};

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let i = (wid.y * nwg.x + wid.x) * WG + lid;
  if (i >= p.n) {
    return;
  }
  let i0 = i % p.ne0;
  let i1 = (i / p.ne0) % p.ne1;
  let i2 = (i / (p.ne0 * p.ne1)) % p.ne2;
  let i3 = i / (p.ne0 * p.ne1 * p.ne2);
  let x = a[p.off0 + i0 + i1 * p.s01 + i2 * p.s02 + i3 * p.s03];
  let y = b[p.off1 + (i0 % p.ne10) * p.s10 + (i1 % p.ne11) * p.s11 + (i2 % p.ne12) * p.s12 + (i3 % p.ne13) * p.s13];
  out[p.offd + i] = x + y;
}
