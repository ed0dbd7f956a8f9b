// GET_ROWS, hand-written (ggml_get_rows): dst[i0, i10, i11, i12] = src0[i0, rows[i10, i11, i12], i11, i12].
// src0 rows are contiguous (ggml asserts nb00 == sizeof(float)); the i32 row indices are read
// through their strides, as ggml does. One dst element per thread; dst is packed.
// Templated: the PARAMS placeholder is the uniform struct of get-rows.ts.

{{PARAMS}}

@group(0) @binding(0) var<storage, read> src0: array<f32>;
@group(0) @binding(1) var<storage, read> src1: array<i32>;
@group(0) @binding(2) var<storage, read_write> dst: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;

@compute @workgroup_size({{WG}})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let k = (wid.y * nwg.x + wid.x) * {{WG}}u + lid;
  if (k >= p.n) {
    return;
  }
  let i0 = k % p.ne00;
  let i10 = (k / p.ne00) % p.ne10;
  let i11 = (k / (p.ne00 * p.ne10)) % p.ne11;
  let i12 = k / (p.ne00 * p.ne10 * p.ne11);
  let row = u32(src1[p.off1 + i10 * p.s10 + i11 * p.s11 + i12 * p.s12]);
  dst[p.offd + k] = src0[p.off0 + i0 + row * p.s01 + i11 * p.s02 + i12 * p.s03];
}
