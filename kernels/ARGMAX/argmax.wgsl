// ARGMAX, hand-written (ggml_argmax): dst[i1] = the index of the largest element of row i1 of
// src0, as an i32. Ties go to the LAST such index, as ggml's CPU loop breaks them
// (`max = MAX(max, x[i]); if (max == x[i]) idx = i;`). One workgroup of {{WG}} threads per row;
// each thread scans its share in increasing order (`>=` keeps its last maximum), then
// (value, index) pairs meet in a shared-memory tree that prefers the larger value, then the
// larger index. src0 is a matrix (ggml asserts ggml_is_matrix) with contiguous rows.
// Templated: PARAMS is argmax.ts's uniform record (neg_inf_bits: -inf from the host, as WGSL has
// no infinite literal), WG the threads per row.

{{PARAMS}}

@group(0) @binding(0) var<storage, read> src0: array<f32>;
@group(0) @binding(1) var<storage, read_write> dst: array<i32>;
@group(0) @binding(2) var<uniform> p: Params;

var<workgroup> best_v: array<f32, {{WG}}>;
var<workgroup> best_i: array<u32, {{WG}}>;

@compute @workgroup_size({{WG}})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let r = wid.y * nwg.x + wid.x;
  if (r >= p.ne1) {
    return; // the 2D grid's overhang: uniform across the workgroup, so barriers stay legal
  }
  let x_row = p.off0 + r * p.s01;

  // A thread with no element holds (-inf, 0): it never beats a real element, and where it
  // ties one (a -inf) its index 0 never beats the real one's. A row of -inf gives ne0 - 1.
  var v = bitcast<f32>(p.neg_inf_bits);
  var idx = 0u;
  for (var i = lid; i < p.ne0; i += {{WG}}u) {
    let x = src0[x_row + i];
    if (x >= v) {
      v = x;
      idx = i;
    }
  }
  best_v[lid] = v;
  best_i[lid] = idx;
  workgroupBarrier();
  for (var s = {{WG}}u / 2u; s > 0u; s >>= 1u) {
    if (lid < s) {
      let ov = best_v[lid + s];
      let oi = best_i[lid + s];
      let mv = best_v[lid];
      if (ov > mv || (ov == mv && oi > best_i[lid])) {
        best_v[lid] = ov;
        best_i[lid] = oi;
      }
    }
    workgroupBarrier();
  }
  if (lid == 0u) {
    dst[p.offd + r * p.s1] = i32(best_i[0]);
  }
}
