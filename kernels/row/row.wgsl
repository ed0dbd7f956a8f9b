// Row ops, hand-written template (one kernel for the row-reducing ops, as ggml-webgpu's
// row_norm.wgsl): one workgroup of WG threads per row of src0; each thread sums MAP(x) over a
// stride of the row, the partial sums meet in a shared-memory tree, FINISH turns the total into
// t once per row, and either the row's one dst element becomes t (SCALAR: SUM_ROWS) or every dst
// element becomes OUT over x and t (RMS_NORM: x · t). PARAMS is the shared uniform layout: src0
// and dst as Tensor descriptors (with tensor_coords and tensor_at), then the op's f32 params,
// bound by PARAM_LETS. Rows are contiguous (ggml asserts it); rows and planes may be strided.
// INPLACE: dst is src0's own view, bound once, read-write.

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
{{PARAM_LETS}}
  let ne = p.src0.ne;
  let r = wid.y * nwg.x + wid.x;
  if (r >= ne.y * ne.z * ne.w) {
    return; // the 2D grid's overhang: uniform across the workgroup, so barriers stay legal
  }
  // Row r's coordinates (0, i1, i2, i3), and where the row starts in each tensor.
  let c = tensor_coords(vec4<u32>(1u, ne.y, ne.z, ne.w), r);
  let x_row = tensor_at(p.src0, c);
  let y_row = tensor_at(p.dst, c);

  var sum = 0.0;
  for (var i = lid; i < ne.x; i += {{WG}}u) {
    let x = load(i, x_row, y_row);
    sum += {{MAP}};
  }
  sums[lid] = sum;
  workgroupBarrier();
  for (var s = {{WG}}u / 2u; s > 0u; s >>= 1u) {
    if (lid < s) {
      sums[lid] += sums[lid + s];
    }
    workgroupBarrier();
  }
  let total = sums[0];
  let t = {{FINISH}};
#if SCALAR
  if (lid == 0u) {
    dst[y_row] = t;
  }
#else
  for (var i = lid; i < ne.x; i += {{WG}}u) {
    let x = load(i, x_row, y_row);
    dst[y_row + i] = {{OUT}};
  }
#endif
}
