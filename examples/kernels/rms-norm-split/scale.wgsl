// RMS_NORM pass 2 of 2: one element per thread; its row's partial sums (from pass 1) give
// scale = 1/sqrt(sum/ne0 + eps), and dst = x * scale.

struct Params {
  ne0: u32, ne1: u32, ne2: u32, chunks: u32,
  s01: u32, s02: u32, s03: u32, off0: u32,
  s1: u32, s2: u32, s3: u32, offd: u32,
  n: u32, eps: f32,
};

@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read> partials: array<f32>;
@group(0) @binding(2) var<storage, read_write> y: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let i = (wid.y * nwg.x + wid.x) * 256u + lid;
  if (i >= p.n) {
    return;
  }
  let i0 = i % p.ne0;
  let r = i / p.ne0;
  let i1 = r % p.ne1;
  let i2 = (r / p.ne1) % p.ne2;
  let i3 = r / (p.ne1 * p.ne2);
  var sum = 0.0;
  for (var c = 0u; c < p.chunks; c++) {
    sum += partials[r * p.chunks + c];
  }
  let scale = inverseSqrt(sum / f32(p.ne0) + p.eps);
  let v = x[p.off0 + i0 + i1 * p.s01 + i2 * p.s02 + i3 * p.s03];
  y[p.offd + i0 + i1 * p.s1 + i2 * p.s2 + i3 * p.s3] = v * scale;
}
