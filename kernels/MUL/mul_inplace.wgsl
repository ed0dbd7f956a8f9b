// MUL in place (ggml_mul_inplace): dst is src0's own buffer, so it is bound once, read-write
// (WebGPU forbids binding one buffer range as both read-only and writable in a dispatch).

struct Params {
  ne0: u32, ne1: u32, ne2: u32, ne3: u32,
  s00: u32, s01: u32, s02: u32, s03: u32,
  ne10: u32, ne11: u32, ne12: u32, ne13: u32,
  s10: u32, s11: u32, s12: u32, s13: u32,
  s0: u32, s1: u32, s2: u32, s3: u32,
  off0: u32, off1: u32, offd: u32, n: u32,
};

@group(0) @binding(0) var<storage, read_write> dst: array<f32>;
@group(0) @binding(1) var<storage, read> src1: array<f32>;
@group(0) @binding(2) var<uniform> p: Params;

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
  let b = src1[p.off1 + (i0 % p.ne10) * p.s10 + (i1 % p.ne11) * p.s11 + (i2 % p.ne12) * p.s12 + (i3 % p.ne13) * p.s13];
  let d = p.offd + i0 * p.s0 + i1 * p.s1 + i2 * p.s2 + i3 * p.s3;
  dst[d] = dst[d] * b;
}
