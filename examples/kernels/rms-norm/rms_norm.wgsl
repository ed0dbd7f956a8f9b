// RMS_NORM as a user would bring it: one workgroup of 256 threads per row, partial sums of
// squares meeting in a shared-memory tree; rows contiguous, rows and planes at any stride.

struct Params {
  ne0: u32, ne1: u32, ne2: u32, nrows: u32,
  s01: u32, s02: u32, s03: u32, off0: u32,
  s1: u32, s2: u32, s3: u32, offd: u32,
  eps: f32,
};

@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> y: array<f32>;
@group(0) @binding(2) var<uniform> p: Params;

var<workgroup> partial: array<f32, 256>;

@compute @workgroup_size(256)
fn rms_norm(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
            @builtin(local_invocation_index) lid: u32) {
  let r = wid.y * nwg.x + wid.x;
  if (r >= p.nrows) {
    return; // uniform per workgroup: the barriers below stay legal
  }
  let i1 = r % p.ne1;
  let i2 = (r / p.ne1) % p.ne2;
  let i3 = r / (p.ne1 * p.ne2);
  let xr = p.off0 + i1 * p.s01 + i2 * p.s02 + i3 * p.s03;
  let yr = p.offd + i1 * p.s1 + i2 * p.s2 + i3 * p.s3;
  var sum = 0.0;
  for (var i = lid; i < p.ne0; i += 256u) {
    let v = x[xr + i];
    sum += v * v;
  }
  partial[lid] = sum;
  workgroupBarrier();
  for (var s = 128u; s > 0u; s >>= 1u) {
    if (lid < s) {
      partial[lid] += partial[lid + s];
    }
    workgroupBarrier();
  }
  let scale = inverseSqrt(partial[0] / f32(p.ne0) + p.eps);
  for (var i = lid; i < p.ne0; i += 256u) {
    y[yr + i] = x[xr + i] * scale;
  }
}
