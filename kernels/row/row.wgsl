// Row ops, hand-written template (one kernel for the row-reducing ops, as ggml-webgpu's
// row_norm.wgsl and soft_max.wgsl): one workgroup of WG threads per row of the ROWS tensor; each
// thread folds its stride of the row into an accumulator (ACC, from IDENT, by STEP), the
// accumulators meet in a shared-memory tree (COMBINE: a function body over a and b), and FINISH
// runs once per row over `total`. PASS2 adds a second f32 sum over the row (MAP2, after FINISH:
// SOFT_MAX's Σexp(s − max) after its max), then FINISH2. Then either every dst element of the row
// becomes OUT (per element), or (SCALAR) thread 0 runs WRITE once.
// Two one-workgroup variants, for ops whose dst is one value over every row (WGSL has no float
// atomics, and a dispatch cannot zero its output first): FLAT walks the whole tensor as one row,
// each element addressed by its coordinates (COUNT_EQUAL); ALL_ROWS walks the rows in turn,
// FINISH folding each row into `run`, and thread 0 runs WRITE at the end (CROSS_ENTROPY_LOSS).
// PARAMS is the shared uniform layout: each source and dst as a Tensor descriptor (with
// tensor_coords and tensor_at), then the op's params (bound by PARAM_LETS) and its extras.
// The op supplies LOADS* (its operands read by load_srcK at the row's start + i), ROW_LETS (per
// row: where each row starts, values per row) and FUNCTIONS (module-scope WGSL).
// INPLACE: dst is src0's own view, bound once, read-write; load_src0 reads dst.

{{PARAMS}}

#if !INPLACE
@group(0) @binding({{B_SRC0}}) var<storage, read> src0: array<{{T_SRC0}}>;
#endif
#if SRC1
@group(0) @binding({{B_SRC1}}) var<storage, read> src1: array<{{T_SRC1}}>;
#endif
#if SRC2
@group(0) @binding({{B_SRC2}}) var<storage, read> src2: array<{{T_SRC2}}>;
#endif
@group(0) @binding({{B_DST}}) var<storage, read_write> dst: array<{{T_DST}}>;
@group(0) @binding({{B_PARAMS}}) var<uniform> p: Params;

fn load_src0(i: u32) -> {{T_SRC0}} {
#if INPLACE
  return dst[i];
#else
  return src0[i];
#endif
}
#if SRC1

fn load_src1(i: u32) -> {{V_SRC1}} {
#if SRC1_F16
  return unpack2x16float(src1[i >> 1u])[i & 1u]; // an f16 tensor read as u32 pairs: no shader-f16
#else
  return src1[i];
#endif
}
#endif
#if SRC2

fn load_src2(i: u32) -> {{T_SRC2}} {
  return src2[i];
}
#endif
{{FUNCTIONS}}

var<workgroup> red: array<{{ACC}}, {{WG}}>;
#if PASS2
var<workgroup> red2: array<f32, {{WG}}>;
#endif

fn combine(a: {{ACC}}, b: {{ACC}}) -> {{ACC}} {
  {{COMBINE}}
}

@compute @workgroup_size({{WG}})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
{{PARAM_LETS}}
  let ne = p.{{ROWS}}.ne;
#if FLAT
  let len = p.{{ROWS}}.n;
  let nrows = 1u;
#else
  let len = ne.x;
  let nrows = ne.y * ne.z * ne.w;
#endif
#if ALL_ROWS
  var run = {{RUN_IDENT}};
  for (var r = 0u; r < nrows; r++) {
#else
  let r = wid.y * nwg.x + wid.x;
  if (r >= nrows) {
    return; // the 2D grid's overhang: uniform across the workgroup, so barriers stay legal
  }
#endif
  // Row r's coordinates (0, i1, i2, i3), and where the row starts in each tensor.
  let c = tensor_coords(vec4<u32>(1u, ne.y, ne.z, ne.w), r);
  let rowd = tensor_at(p.dst, c);
{{ROW_LETS}}

  var acc = {{IDENT}};
  for (var i = lid; i < len; i += {{WG}}u) {
{{LOADS}}
    {{STEP}}
  }
  red[lid] = acc;
  workgroupBarrier();
  for (var s = {{WG}}u / 2u; s > 0u; s >>= 1u) {
    if (lid < s) {
      red[lid] = combine(red[lid], red[lid + s]);
    }
    workgroupBarrier();
  }
  let total = red[0];
  {{FINISH}}
#if PASS2

  var acc2 = 0.0;
  for (var i = lid; i < len; i += {{WG}}u) {
{{LOADS2}}
    acc2 += {{MAP2}};
  }
  red2[lid] = acc2;
  workgroupBarrier();
  for (var s = {{WG}}u / 2u; s > 0u; s >>= 1u) {
    if (lid < s) {
      red2[lid] += red2[lid + s];
    }
    workgroupBarrier();
  }
  let total2 = red2[0];
  {{FINISH2}}
#endif
#if ALL_ROWS
  workgroupBarrier(); // every thread has read red[0] before the next row overwrites it
  }
#endif
#if SCALAR
  if (lid == 0u) {
    {{WRITE}}
  }
#else
  for (var i = lid; i < len; i += {{WG}}u) {
{{LOADS_OUT}}
    dst[rowd + i] = {{OUT}};
  }
#endif
}
