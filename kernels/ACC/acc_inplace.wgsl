// ACC in place (ggml_acc_inplace): dst is src0 itself, so only the view changes: one thread per
// src1 element adds it to its place in the view (the host refused views that overlap
// themselves, so no two threads touch one element). dst is bound once, read-write.

struct Params {
  n: u32, voff: u32, off1: u32, offd: u32,
  ne0: u32, ne1: u32, ne2: u32, ne3: u32,
  v0: u32, v1: u32, v2: u32, v3: u32,
  s10: u32, s11: u32, s12: u32, s13: u32,
};

@group(0) @binding(0) var<storage, read_write> dst: array<f32>;
@group(0) @binding(1) var<storage, read> src1: array<f32>;
@group(0) @binding(2) var<uniform> p: Params;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let j = (wid.y * nwg.x + wid.x) * 256u + lid;
  if (j >= p.n) {
    return;
  }
  let j0 = j % p.ne0;
  let j1 = (j / p.ne0) % p.ne1;
  let j2 = (j / (p.ne0 * p.ne1)) % p.ne2;
  let j3 = j / (p.ne0 * p.ne1 * p.ne2);
  let d = p.offd + p.voff + j0 * p.v0 + j1 * p.v1 + j2 * p.v2 + j3 * p.v3;
  dst[d] = dst[d] + src1[p.off1 + j0 * p.s10 + j1 * p.s11 + j2 * p.s12 + j3 * p.s13];
}
