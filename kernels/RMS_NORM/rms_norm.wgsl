// RMS_NORM, hand-written (ggml_rms_norm): per row, y = x * scale, scale = 1/sqrt(Σx²/ne0 + eps).
// One workgroup of {{WG}} threads per row; partial sums of squares meet in a shared-memory tree.
// Rows are contiguous (ggml asserts nb00 == sizeof(float)); rows and planes may be strided.
// INPLACE (ggml_rms_norm_inplace): dst is src0's own buffer, bound once, read-write (WebGPU
// forbids binding one range as both read-only and writable); each element is read and then
// overwritten by the same thread: no hazard. Templated: the PARAMS placeholder is the uniform struct of rms-norm.ts.

{{PARAMS}}

#if INPLACE
@group(0) @binding(0) var<storage, read_write> dst: array<f32>;
@group(0) @binding(1) var<uniform> p: Params;
#else
@group(0) @binding(0) var<storage, read> src0: array<f32>;
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;
@group(0) @binding(2) var<uniform> p: Params;
#endif

var<workgroup> sums: array<f32, {{WG}}>;

fn load(i: u32, x_row: u32, y_row: u32) -> f32 {
#if INPLACE
  return dst[y_row + i];
#else
  return src0[x_row + i];
#endif
}

@compute @workgroup_size({{WG}})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let r = wid.y * nwg.x + wid.x;
  if (r >= p.nrows) {
    return; // the 2D grid's overhang: uniform across the workgroup, so barriers stay legal
  }
  let i1 = r % p.ne1;
  let i2 = (r / p.ne1) % p.ne2;
  let i3 = r / (p.ne1 * p.ne2);
  let x_row = p.off0 + i1 * p.s01 + i2 * p.s02 + i3 * p.s03;
  let y_row = p.offd + i1 * p.s1 + i2 * p.s2 + i3 * p.s3;

  var sum = 0.0;
  for (var i = lid; i < p.ne0; i += {{WG}}u) {
    let x = load(i, x_row, y_row);
    sum += x * x;
  }
  sums[lid] = sum;
  workgroupBarrier();
  for (var s = {{WG}}u / 2u; s > 0u; s >>= 1u) {
    if (lid < s) {
      sums[lid] += sums[lid + s];
    }
    workgroupBarrier();
  }
  let scale = inverseSqrt(sums[0] / f32(p.ne0) + p.eps);

  for (var i = lid; i < p.ne0; i += {{WG}}u) {
    dst[y_row + i] = load(i, x_row, y_row) * scale;
  }
}
