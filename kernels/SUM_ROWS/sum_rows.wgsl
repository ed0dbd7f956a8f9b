// SUM_ROWS, hand-written (ggml_sum_rows): dst[0, i1, i2, i3] = Σ_i0 src0[i0, i1, i2, i3].
// One workgroup of {{WG}} threads per row; partial sums meet in a shared-memory tree.
// Rows are contiguous (ggml asserts nb00 == sizeof(float)); rows and planes may be strided.
// Templated: PARAMS is sum-rows.ts's uniform record, WG the threads per row.

{{PARAMS}}

@group(0) @binding(0) var<storage, read> src0: array<f32>;
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;
@group(0) @binding(2) var<uniform> p: Params;

var<workgroup> sums: array<f32, {{WG}}>;

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

  var sum = 0.0;
  for (var i = lid; i < p.ne0; i += {{WG}}u) {
    sum += src0[x_row + i];
  }
  sums[lid] = sum;
  workgroupBarrier();
  for (var s = {{WG}}u / 2u; s > 0u; s >>= 1u) {
    if (lid < s) {
      sums[lid] += sums[lid + s];
    }
    workgroupBarrier();
  }
  if (lid == 0u) {
    dst[p.offd + i1 * p.s1 + i2 * p.s2 + i3 * p.s3] = sums[0];
  }
}
