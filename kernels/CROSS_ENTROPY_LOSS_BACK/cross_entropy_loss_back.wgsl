// CROSS_ENTROPY_LOSS_BACK, hand-written (ggml_cross_entropy_loss_back(grad, x, y)): per row,
//   dst_i = (softmax(x)_i − y_i) · grad / nr
// grad is the forward loss's scalar gradient (src0), x the logits (src1), y the labels (src2);
// ggml asserts every tensor contiguous. One workgroup per row: a running max and exp-sum per
// thread meet in a shared-memory tree, then each thread writes its elements.
// Templated: the PARAMS placeholder is the uniform struct of cross-entropy-loss-back.ts; WG the workgroup size (a power of two).

{{PARAMS}}

@group(0) @binding(0) var<storage, read> src0: array<f32>;
@group(0) @binding(1) var<storage, read> src1: array<f32>;
@group(0) @binding(2) var<storage, read> src2: array<f32>;
@group(0) @binding(3) var<storage, read_write> dst: array<f32>;
@group(0) @binding(4) var<uniform> p: Params;

// The lowest finite f32, a "−∞" that keeps exp(LOWEST − m) at 0 instead of NaN.
const LOWEST = bitcast<f32>(0xff7fffffu);

var<workgroup> wm: array<f32, {{WG}}>;
var<workgroup> ws: array<f32, {{WG}}>;

@compute @workgroup_size({{WG}})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let r = wid.y * nwg.x + wid.x;
  if (r >= p.nr) {
    return; // the 2D grid's overhang: uniform across the workgroup, so barriers stay legal
  }
  let row = r * p.nc;
  var m = LOWEST;
  var s = 0.0;
  for (var i = lid; i < p.nc; i += {{WG}}u) {
    let x = src1[p.off1 + row + i];
    if (x > m) {
      s = s * exp(m - x);
      m = x;
    }
    s += exp(x - m);
  }
  wm[lid] = m;
  ws[lid] = s;
  workgroupBarrier();
  for (var h = {{WG}}u / 2u; h > 0u; h >>= 1u) {
    if (lid < h) {
      let m2 = max(wm[lid], wm[lid + h]);
      ws[lid] = ws[lid] * exp(wm[lid] - m2) + ws[lid + h] * exp(wm[lid + h] - m2);
      wm[lid] = m2;
    }
    workgroupBarrier();
  }
  let row_max = wm[0];
  let inv_sum = 1.0 / ws[0];
  let d_by_nr = src0[p.offg] / f32(p.nr);
  for (var i = lid; i < p.nc; i += {{WG}}u) {
    let sm = exp(src1[p.off1 + row + i] - row_max) * inv_sum;
    dst[p.offd + row + i] = (sm - src2[p.off2 + row + i]) * d_by_nr;
  }
}
