// SOFT_MAX_BACK, hand-written (ggml_soft_max_ext_back): the gradient of SOFT_MAX. src0 = dy (the
// incoming gradient), src1 = y (SOFT_MAX's output); per row dx = scale · y · (dy − Σ y·dy).
// One workgroup of {{WG}} threads per row: the dot product meets in a shared-memory tree, then
// each thread writes its share. INPLACE: dst is dy, bound once; each element is read before
// the same thread overwrites it. Templated: PARAMS is soft-max-back.ts's uniform record, WG the
// threads per row.

{{PARAMS}}

#if INPLACE
@group(0) @binding(0) var<storage, read> src1: array<f32>;
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;
@group(0) @binding(2) var<uniform> p: Params;
#else
@group(0) @binding(0) var<storage, read> src0: array<f32>;
@group(0) @binding(1) var<storage, read> src1: array<f32>;
@group(0) @binding(2) var<storage, read_write> dst: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;
#endif

var<workgroup> sums: array<f32, {{WG}}>;

fn load_dy(i: u32) -> f32 {
#if INPLACE
  return dst[i];
#else
  return src0[i];
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
  let dy_row = p.off0 + i1 * p.s01 + i2 * p.s02 + i3 * p.s03;
  let y_row = p.off1 + i1 * p.s11 + i2 * p.s12 + i3 * p.s13;
  let dx_row = p.offd + i1 * p.s1 + i2 * p.s2 + i3 * p.s3;

  var dot = 0.0;
  for (var i = lid; i < p.ne0; i += {{WG}}u) {
    dot += src1[y_row + i] * load_dy(dy_row + i);
  }
  sums[lid] = dot;
  workgroupBarrier();
  for (var s = {{WG}}u / 2u; s > 0u; s >>= 1u) {
    if (lid < s) {
      sums[lid] += sums[lid + s];
    }
    workgroupBarrier();
  }
  let dot_y_dy = sums[0];

  for (var i = lid; i < p.ne0; i += {{WG}}u) {
    dst[dx_row + i] = (load_dy(dy_row + i) - dot_y_dy) * src1[y_row + i] * p.scale;
  }
}
