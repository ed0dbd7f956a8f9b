// RMS_NORM_BACK, hand-written (ggml_rms_norm_back): src0 = dz (incoming gradient), src1 = x;
// per row, with sum_xx = Σx², sum_xdz = Σx·dz, rrms = 1/sqrt(sum_xx/ne0 + eps):
//   dx = (x * (-sum_xdz / (sum_xx + eps*ne0)) + dz) * rrms
// One workgroup of {{WG}} threads per row; both sums meet together (a vec2) in a shared-memory tree.
// Templated (src/core/codegen/template.ts): the PARAMS placeholder is the uniform struct of rms-norm-back.ts.

{{PARAMS}}

@group(0) @binding(0) var<storage, read> src0: array<f32>;
@group(0) @binding(1) var<storage, read> src1: array<f32>;
@group(0) @binding(2) var<storage, read_write> dst: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;

var<workgroup> sums: array<vec2<f32>, {{WG}}>;

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
  let dz_row = p.off0 + i1 * p.s01 + i2 * p.s02 + i3 * p.s03;
  let x_row = p.off1 + i1 * p.s11 + i2 * p.s12 + i3 * p.s13;
  let dx_row = p.offd + i1 * p.s1 + i2 * p.s2 + i3 * p.s3;

  var acc = vec2<f32>(0.0);
  for (var i = lid; i < p.ne0; i += {{WG}}u) {
    let x = src1[x_row + i];
    let dz = src0[dz_row + i];
    acc += vec2<f32>(x * x, x * dz);
  }
  sums[lid] = acc;
  workgroupBarrier();
  for (var s = {{WG}}u / 2u; s > 0u; s >>= 1u) {
    if (lid < s) {
      sums[lid] += sums[lid + s];
    }
    workgroupBarrier();
  }
  let sum_xx = sums[0].x;
  let sum_xdz = sums[0].y;
  let ne0 = f32(p.ne0);
  let eps = p.eps;
  let rrms = inverseSqrt(sum_xx / ne0 + eps);
  let k = -sum_xdz / (sum_xx + eps * ne0);

  for (var i = lid; i < p.ne0; i += {{WG}}u) {
    dst[dx_row + i] = (src1[x_row + i] * k + src0[dz_row + i]) * rrms;
  }
}
