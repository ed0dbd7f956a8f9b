// GET_ROWS_BACK, hand-written (ggml_get_rows_back): dst = zeros of c's shape, then for every
// i in order dst[:, rows[i]] += src0[:, i] (the gradient of GET_ROWS into its table).
// WGSL has no float atomics, so one workgroup owns one dst row r. Indices come in chunks of WG
// through workgroup memory; thread 0 lists the chunk's i with rows[i] == r in order; then every
// thread adds those source rows into its columns. The sums run in ggml's order (0, then each
// matching row in turn): the same f32 results as ggml's loop.
// PARAMS: src0 (the gradient), src1 (the indices) and dst as the shared Tensor descriptors; WG
// the workgroup size (a power of two).

{{PARAMS}}

// BINDINGS (from the host's roles): src0 (f32), src1 (i32 indices), dst, p
{{BINDINGS}}

var<workgroup> chunk: array<i32, {{WG}}>;
var<workgroup> hits: array<u32, {{WG}}>;
var<workgroup> nhits: u32;

@compute @workgroup_size({{WG}})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let r = wid.y * nwg.x + wid.x;
  if (r >= p.dst.ne.y) {
    return; // the 2D grid's overhang: uniform across the workgroup, so barriers stay legal
  }
  let ne0 = p.dst.ne.x;
  let out_row = p.dst.off + r * p.dst.st.y;
  for (var j = lid; j < ne0; j += {{WG}}u) {
    dst[out_row + j] = 0.0;
  }
  let nidx = p.src1.ne.x;
  for (var base = 0u; base < nidx; base += {{WG}}u) {
    let count = min({{WG}}u, nidx - base);
    if (lid < count) {
      chunk[lid] = src1[p.src1.off + base + lid];
    }
    workgroupBarrier();
    if (lid == 0u) {
      var n = 0u;
      for (var k = 0u; k < count; k++) {
        if (u32(chunk[k]) == r) {
          hits[n] = base + k;
          n++;
        }
      }
      nhits = n;
    }
    let n = workgroupUniformLoad(&nhits); // a barrier too: hits are written
    for (var j = lid; j < ne0 && n > 0u; j += {{WG}}u) {
      var acc = dst[out_row + j];
      for (var h = 0u; h < n; h++) {
        acc += src0[p.src0.off + hits[h] * p.src0.st.y + j];
      }
      dst[out_row + j] = acc;
    }
    workgroupBarrier(); // hits and chunk are read before the next chunk overwrites them
  }
}
